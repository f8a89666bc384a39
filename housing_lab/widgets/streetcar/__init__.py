"""The Streetcar lab (`StreetcarLab`) and its parts: board, controls, bot, hint, replay and
score."""
