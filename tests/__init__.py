"""The test suite; importing it (pytest does, before any conftest) turns bytecode caches on.

Where PYTHONDONTWRITEBYTECODE is set (Docker images, CI), every pytest worker would recompile
the project and re-rewrite the asserts of every test module on every run (~3.4 s CPU of a
worker's ~6 s collection), and every bot subprocess the tests start would recompile tgbot. The
caches are the git-ignored __pycache__ folders next to the sources.
"""

import sys

sys.dont_write_bytecode = False
