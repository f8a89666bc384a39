"""The one-screen North Berkeley lab (`NorthBerkeleyLab`) and its parts: board, charts, policies,
scoreboard, coach, compare, toolbar and the change sentence."""
