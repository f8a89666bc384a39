CELLS = [
    (
        "md",
        r"""
# Lesson 6 · Streetcar: remove the limits, connect the buildings

**Learning goals.** By the end of this lesson you can:

1. explain what removing a single-family housing limit does in the game;
2. predict which building appears where, and with which cubes;
3. explain why a transit line is worth more when it connects many new buildings.

*Time: about 30 minutes, including a game against the computer.*
""",
    ),
    (
        "md",
        r"""
## What it is

Many neighbourhoods only allow single-family houses. In **Streetcar**, every one of the 52 hexes
starts with a house in one of four colours: **B**lue, blac**K**, **W**hite and **Y**ellow. Each
turn you:

1. **draw streetcar lines**: two grid lines that meet at a corner (different colours may not
   touch);
2. **remove one house** (a "housing limit"): you keep it, and it scores at the end.

Wherever an empty space is surrounded by **exactly 3 houses**, an apartment **building** appears.
Houses next to a building are *flipped*: they can no longer be removed.
""",
    ),
    ("md", "## How it works: which building appears?"),
    (
        "code",
        r"""
# NBVAL_CHECK_OUTPUT
import pandas as pd

from housing_lab.streetcar import COLOURS, building_for


def building(houses: list[str]) -> tuple[str, int]:
    # the engine's rule, with colour names instead of colour numbers
    colour, cubes = building_for([COLOURS.index(h) for h in houses])
    return COLOURS[colour], cubes


examples = [["blue", "blue", "blue"], ["blue", "blue", "white"], ["blue", "white", "yellow"]]
rows = []
for houses in examples:
    colour, cubes = building(houses)
    plural = "" if cubes == 1 else "s"
    rows.append({"The 3 houses around it": ", ".join(houses),
                 "The building": f"{cubes} {colour} cube{plural}"})
pd.DataFrame(rows)
""",
    ),
    (
        "md",
        r"""
* 3 houses of one colour: 3 cubes of that colour;
* 2 of one colour: 2 cubes of that colour;
* 3 different colours: 1 cube of the **missing fourth** colour.

At the end, each house you removed scores **1 point for every cube of its colour connected to
your lines**, and every separate line costs 10 points. The rulebook's example: Purple removed 2
blue, 3 black, 6 white and 2 yellow houses and connects 5, 4, 8 and 6 cubes of those colours,
with 2 separate lines: 2×5 + 3×4 + 6×8 + 2×6 − 20 = **62**.

The standard board, counted by the engine:
""",
    ),
    (
        "code",
        r"""
# NBVAL_CHECK_OUTPUT
from housing_lab.streetcar import Board, Game

board = Board.standard()
game = Game(board, seed=1)
counts = board.counts()
print(f"{counts['hexes']} hexes, {counts['edges']} grid lines, "
      f"{counts['intersections']} corners where lines meet")
print("possible opening line moves:", len(game.legal_line_choices()))
""",
    ),
    (
        "md",
        r"""
## How to use it: play against the computer

You are **Purple**; the computer (a *greedy* bot that picks the move that most improves its
score over yours) is **Red**. Click two grid lines that meet at a corner, then a house.
Legal lines light up when you hover. **Undo last move** is allowed: this is practice.
""",
    ),
    (
        "code",
        r"""
from housing_lab.widgets import StreetcarLab

lab = StreetcarLab(seed=1, opponent="greedy")
lab
""",
    ),
    (
        "md",
        r"""
## Why transit lines matter

Removing houses only scores if **your lines reach the buildings**. Let two computer players
play 40 games: a *greedy* bot that plans lines and removals together, and a *random* bot.
""",
    ),
    (
        "code",
        r"""
# NBVAL_CHECK_OUTPUT
from housing_lab.streetcar import play_match
from housing_lab.streetcar.match import summarise

summary = summarise(["greedy", "random"], play_match(["greedy", "random"], 40, seed=2)).to_dict()
pd.DataFrame({"Games won (of 40)": summary["wins"], "Average score": summary["mean_scores"]},
             index=[f"{bot.capitalize()} bot" for bot in summary["bots"]])
""",
    ),
    ("md", "One finished game between them, scored the rulebook's way:"),
    (
        "code",
        r"""
# NBVAL_CHECK_OUTPUT
from housing_lab.streetcar import make_bot, play_game

finished = play_game([make_bot("greedy", 1), make_bot("random", 2)], seed=3)
rows = []
for player, score in finished.score_breakdown().items():
    row = {"Player": player.capitalize()}
    row.update({f"{colour.capitalize()}: houses x cubes": f"{score.removed[colour]} x "
                f"{score.connected_cubes[colour]}" for colour in score.removed})
    row.update({"Separate lines": score.lines, "Penalty": -score.penalty, "Total": score.total})
    rows.append(row)
pd.DataFrame(rows).set_index("Player")
""",
    ),
    (
        "md",
        r"""
### Things to notice

* A house you remove is worth nothing until your line touches buildings of its colour.
* One long connected line beats several short ones: each separate line costs 10.
* Removing a house changes which spaces have exactly 3 neighbouring houses: you decide where the
  city grows.
""",
    ),
    ("md", "## Check yourself"),
    (
        "code",
        r"""
from housing_lab.widgets.quiz import ChoiceQuestion

colour, cubes = building(["yellow", "black", "white"])
ChoiceQuestion(
    "An empty space is next to exactly 3 houses: yellow, black and white. What appears?",
    ["3 yellow cubes", "1 blue cube", "Nothing", "1 cube of each colour"],
    answer=f"{cubes} {colour} cube",
    explanation="Three different colours give 1 cube of the missing fourth colour: blue.",
)
""",
    ),
    (
        "code",
        r"""
from housing_lab.widgets.quiz import reveal

reveal(
    "What does the game say about transit and new housing in real cities?",
    "New apartments appear where single-family limits are lifted, and transit is most "
    "valuable when it connects them: the points come from housing *and* a line that reaches "
    "it. Planning the two together beats doing either alone.",
)
""",
    ),
    (
        "md",
        r"""
### Things to try

* Play against `opponent="random"`, then `"greedy"`. What does the greedy bot do differently?
* Play with a classmate on one screen: `StreetcarLab(seed=2, opponent=None)`.
* Change the penalty: `StreetcarLab(seed=1, penalty=5)`. Do you draw more separate lines?

### Going further

`housing-lab streetcar simulate --games 100 --seed 1 --bots greedy,random --out games/` plays
many games and saves each as a record you can load back into the lab (**Load game**) and replay.

## What you learned

* Removing single-family limits lets buildings appear where 3 houses surround an empty space.
* Cubes follow the colours of the houses around them.
* Lines matter: points come only from buildings your lines connect, and scattered lines cost.
""",
    ),
]
