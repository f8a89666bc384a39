"""The one error base class every user-facing mistake derives from.

The CLI and the widgets catch `HousingLabError` and show its message as one line; anything else
is a bug and keeps its traceback.
"""


class HousingLabError(ValueError):
    """A user mistake (bad input, illegal action): the message names the bad value."""
