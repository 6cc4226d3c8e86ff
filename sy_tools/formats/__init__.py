"""Files and formats: safe file I/O, JSON helpers, map files, game records (game.json, notation)."""
