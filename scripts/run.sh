#!/usr/bin/env bash
# The main job. Until the bot and its sandbox exist, it plays one seeded game of random players
# through the real engine and prints what the group would see.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
exec .venv/bin/python -m engine.demo "$@"
