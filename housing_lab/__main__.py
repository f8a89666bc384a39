"""`python -m housing_lab`: the `housing-lab` command where its script is not on PATH (a hub
terminal's login shell may reset PATH)."""

import sys

from housing_lab.cli import main

if __name__ == "__main__":
    sys.exit(main())
