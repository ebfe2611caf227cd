"""What both the bot and the sandbox do at start: stop with one line, check the Hangul font."""

from __future__ import annotations

import sys
from typing import NoReturn

from render import FontMissingError, check_fonts, use_font_dir

from .config import Config

PROG = "saboteur-bot"


def start_fonts(config: Config, prog: str = PROG) -> None:
    """Point the pictures at FONT_DIR and stop at once (one line) if the Hangul font is missing."""
    use_font_dir(config.font_dir)
    try:
        check_fonts()
    except FontMissingError as err:
        fail(str(err), status=1, prog=prog)


def fail(message: str, *, status: int, prog: str = PROG) -> NoReturn:
    """Print one line on stderr and exit with this status."""
    line = " ".join(message.split())
    print(f"{prog}: {line}", file=sys.stderr)
    raise SystemExit(status) from None
