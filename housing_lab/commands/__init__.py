"""Sub-command groups of the `housing-lab` command, one module per game."""
