#!/usr/bin/env bash
# The translation catalogs in tgbot/locale, with .venv's pybabel (settings: [tool.babel.*] in
# pyproject.toml).
#
#   scripts/i18n.sh extract      the code's messages into tgbot/locale/messages.pot
#   scripts/i18n.sh update       merge the template into every language's messages.po
#   scripts/i18n.sh compile      every messages.po into the messages.mo the bot reads
#   scripts/i18n.sh all          the three above, in that order (after changing a text)
#   scripts/i18n.sh init CODE    start a language's messages.po (e.g. fr, pt_BR)
#
# English is the source language: its catalog is the template with each text as its own
# translation, written by `update`, so it is never translated by hand.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-.venv/bin/python}
export BABEL_PYPROJECT_TOML=pyproject.toml  # read it, and fail loudly if it is broken

TEMPLATE=tgbot/locale/messages.pot

pybabel() { "$PY" -m babel.messages.frontend "$@"; }

# A template whose messages did not change is kept, so its date does not churn every catalog.
extract() {
  local fresh
  fresh=$(mktemp)
  pybabel extract -o "$fresh"
  if [ -e "$TEMPLATE" ] && cmp -s <(grep -v '^"POT-Creation-Date:' "$fresh") \
      <(grep -v '^"POT-Creation-Date:' "$TEMPLATE"); then
    rm "$fresh"
    echo "$TEMPLATE: no change"
  else
    cat "$fresh" >"$TEMPLATE"
    rm "$fresh"
  fi
}

case "${1:-}" in
  extract) extract ;;
  update)
    pybabel update
    "$PY" scripts/source_catalog.py tgbot/locale/en/LC_MESSAGES/messages.po
    ;;
  compile) pybabel compile ;;
  all) "$0" extract && "$0" update && "$0" compile ;;
  init)
    [ -n "${2:-}" ] || { echo "usage: $0 init CODE" >&2; exit 2; }
    pybabel init -l "$2"
    ;;
  *) sed -n 2,12p "$0" | sed 's/^# \{0,1\}//' >&2; exit 2 ;;
esac
