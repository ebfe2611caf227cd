"""Make the source language's catalog say what the code says: each text is its own translation.

Run by `scripts/i18n.sh update` after `pybabel update`, with the path of en's messages.po.
"""

from __future__ import annotations

import sys
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po, write_po


def as_source(catalog: Catalog) -> None:
    """Set every message's translation to its id (both plural forms), none of them fuzzy."""
    for message in catalog:
        if not message.id:
            continue  # the header
        message.string = message.id
        message.flags.discard("fuzzy")
        message.previous_id = []


def main(path: Path) -> None:
    """Rewrite the catalog at `path` as its own translation."""
    with path.open("rb") as fp:
        catalog = read_po(fp)
    as_source(catalog)
    with path.open("wb") as fp:
        write_po(fp, catalog, ignore_obsolete=True, include_previous=True)


if __name__ == "__main__":
    main(Path(sys.argv[1]))
