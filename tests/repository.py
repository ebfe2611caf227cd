"""The repository's own files, for the tests that read the source tree itself."""

from __future__ import annotations

import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def repository_files() -> list[Path]:
    """Every file git tracks or would track (not ignored), that exists; never .git or .venv."""
    listing = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        check=True,
        capture_output=True,
    ).stdout.decode()
    paths = {ROOT / name for name in listing.split("\0") if name}
    return sorted(p for p in paths if p.is_file())


def text_of(path: Path) -> str | None:
    """A file's text, or None for a binary file (a NUL byte, or not UTF-8)."""
    data = path.read_bytes()
    if b"\0" in data[:8192]:
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None
