#!/usr/bin/env bash
# The test command: set up what is missing, then lint, type-check and run the whole suite.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh --test
. .venv/bin/activate
ruff check .
ruff format --check engine ai render tgbot emulator sandbox tests bench 2>/dev/null || { echo "ruff format: run 'ruff format' (see above)"; ruff format --check --diff engine ai render tgbot emulator sandbox tests bench | head -40; exit 1; }
mypy engine ai render tgbot sandbox emulator tests
# Four workers on two cores: the end-to-end tests spend much of their time waiting (processes
# starting, leases expiring, failovers), so their waits overlap (quiet machine: 225 s, not 262).
pytest -n "${PYTEST_WORKERS:-4}" --dist loadfile "$@"  # a module on one worker; PYTEST_WORKERS=0: one process
