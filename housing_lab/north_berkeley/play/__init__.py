"""The game flow: a whole game as a state machine, its actions, saves, handouts and automatic
players."""
