"""The offline sandbox: the real bot and the Bot API emulator, played from a local page."""
