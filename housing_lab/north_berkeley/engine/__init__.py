"""The scalar engine: one board scored as the rulebook does it (move-in, board facts, cards).

The reference every faster path (`batch`, `solver`, `coach`) is checked against."""
