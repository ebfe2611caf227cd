"""Message catalogs, one module per language, each a flat dict from key to template."""
