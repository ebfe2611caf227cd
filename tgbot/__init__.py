"""The Telegram shell around the engine: config, callback codec, Redis store, language catalog."""

import os

# PTB 22 deprecates durations given as seconds (e.g. RetryAfter.retry_after) and returns
# timedelta from its next major on; opt in now, so that upgrade changes nothing here.
os.environ.setdefault("PTB_TIMEDELTA", "1")
