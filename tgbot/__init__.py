"""The Telegram shell around the engine: config, callback codec, Redis store, language catalog."""
