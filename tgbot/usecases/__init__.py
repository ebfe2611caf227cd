"""The bot's use cases by capability: each loads, decides, saves with `Store.update`, announces."""
