"""The game table (`GameTable`): a whole classroom game of North Berkeley on one projector."""
