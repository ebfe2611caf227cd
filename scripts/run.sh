#!/usr/bin/env bash
# The main job: the bot when TELEGRAM_BOT_TOKEN is set; otherwise the offline sandbox, a page at
# http://127.0.0.1:8080/ (`--port N` to change) where the real bot plays in an emulated Telegram.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
if [ -n "${TELEGRAM_BOT_TOKEN:-}" ]; then
  exec .venv/bin/saboteur-bot "$@"
fi
echo "TELEGRAM_BOT_TOKEN is not set: starting the offline sandbox (see README)."
exec .venv/bin/saboteur-bot sandbox "$@"
