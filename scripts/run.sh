#!/usr/bin/env bash
# The main job: the bot when TELEGRAM_BOT_TOKEN is set; otherwise (until the offline sandbox
# exists) one seeded game of random players through the real engine, printed.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
if [ -n "${TELEGRAM_BOT_TOKEN:-}" ]; then
  exec .venv/bin/saboteur-bot "$@"
fi
echo "TELEGRAM_BOT_TOKEN is not set: playing a demo game in the terminal instead (see README)."
exec .venv/bin/python -m engine.demo "$@"
