"""The rules engine: the board, tickets, rules presets, moves, positions, what each side sees."""
