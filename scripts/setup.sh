#!/usr/bin/env bash
# Prepare a fresh Debian machine: system packages where missing, then a virtualenv in .venv.
#   bash scripts/setup.sh          what the bot and the sandbox need (fonts-nanum; the bot's pins)
#   bash scripts/setup.sh --test   and what the tests need on top (redis-server, haproxy, chromium, an emoji
#                                  font for the browser screenshots; pytest, mypy, ruff, Babel...)
set -euo pipefail
cd "$(dirname "$0")/.."

mode=run
case "${1:-}" in
  "") ;;
  --test) mode=test ;;
  *) echo "usage: bash scripts/setup.sh [--test]" >&2; exit 2 ;;
esac

need=()
[ -e /usr/share/fonts/truetype/nanum/NanumGothic.ttf ] || need+=(fonts-nanum)
if [ "$mode" = test ]; then
  command -v redis-server >/dev/null 2>&1 || need+=(redis-server)
  command -v haproxy >/dev/null 2>&1 || need+=(haproxy)  # the load balancer of the cluster test
  command -v chromium >/dev/null 2>&1 || need+=(chromium)  # the sandbox's browser test
  [ -e /usr/share/fonts/truetype/noto/NotoColorEmoji.ttf ] || need+=(fonts-noto-color-emoji)
fi
if [ ${#need[@]} -gt 0 ]; then
  echo "setup: installing Debian packages: ${need[*]}"
  if [ "$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need[@]}" >/dev/null
fi

PY=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  "$PY" -m venv .venv
fi
# One stamp per pyproject.toml and mode; the test installation includes the bot's.
hash=$(sha256sum pyproject.toml | cut -c1-16)
if [ ! -e ".venv/.installed-$hash-test" ] && [ ! -e ".venv/.installed-$hash-$mode" ]; then
  .venv/bin/python -m pip install -q --upgrade pip==26.3
  if [ "$mode" = test ]; then extras='.[dev]'; else extras='.'; fi
  # (the warnings are setuptools talking about editable installs, not about this project)
  PYTHONWARNINGS=ignore .venv/bin/python -m pip install -q -e "$extras"
  rm -f .venv/.installed-*
  touch ".venv/.installed-$hash-$mode"
fi
