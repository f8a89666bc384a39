CELLS = [
    (
        "md",
        r"""
# Lesson 7 · A classroom game of North Berkeley

**Learning goals.** By the end of this lesson your class will have:

1. played a whole game of North Berkeley, 2 to 6 teams on one screen;
2. negotiated a board under a timer, with the state stepping in if you cannot agree;
3. seen who moves in, who is displaced, and which team's constituents are happiest.

*Time: 50-70 minutes (two 10-minute negotiations, the draft, policies, move-in and scoring).
For the teacher: see `TEACHER_GUIDE.md`; use a projector and zoom the browser to 125-150 %.*
""",
    ),
    (
        "md",
        r"""
## What it is

The **game table** runs the real game, step by step. Each team holds constituent cards (+1 and
-1 goals). In each building phase the class negotiates which tiles go on the squares; after the
timer, anyone may **call the state**, which fills the empty squares at random. Then come the
draft of constituents (lowest current score first), two policy cards (enact one or both), the
second phase, the move-in, and the final scores.

## How to use it

1. Set the teams, a seed and the timer on the setup screen (or keep the teams below).
2. Follow the steps along the top: the panel always says what the table must decide now.
3. **Undo** takes back the last decision; **Save game** downloads the game so you can resume
   next lesson with **Load game**.
4. With **hidden hands**, print the team handouts first (buttons under the panel).
""",
    ),
    (
        "code",
        r"""
from housing_lab.widgets import GameTable

table = GameTable(teams=["Red", "Blue", "Green"], seed=7)
table
""",
    ),
    (
        "md",
        r"""
## Things to notice

* In the draft, the team with the **lowest current score picks first**: who is behind gets help.
* Some cards pull in opposite directions (the **Developer** wants market homes and low spending;
  **Affordable Housing Organizations** want every low income resident housed). A board that
  pleases both is rare: that is the negotiation.
* When the state steps in, the random tiles may please nobody. Is an imperfect deal better than
  no deal?

## A game played by the computer

Here is the same game played to the end with random (but legal) choices, so you can see what a
finished game looks like: the board, who is housed, and the scores.
""",
    ),
    (
        "code",
        r"""
# NBVAL_CHECK_OUTPUT
from housing_lab.north_berkeley.autoplay import play_random_game
from housing_lab.north_berkeley.names import policy_name

game = play_random_game(["Red", "Blue", "Green"], seed=7)
log = game.game_log()
housed = log["result"]["housed"]
print("Enacted:", ", ".join(policy_name(p) for p in log["policies_enacted"]))
print(f"Housed: {housed['high']} high, {housed['middle']} middle, {housed['low']} low income")
print("Scores:", ", ".join(f"{team} {score:+d}" for team, score in log["scores"].items()))
print(log["tie_break"])
""",
    ),
    ("md", "## Check yourself"),
    (
        "code",
        r"""
from housing_lab.widgets.quiz import ChoiceQuestion

ChoiceQuestion(
    "In the draft, who chooses a constituent card first?",
    ["The team with the highest current score", "The team with the lowest current score",
     "The team that placed the most tiles", "Teams choose in seating order"],
    answer="The team with the lowest current score",
    explanation="The lowest current score picks first; ties go to whoever last took part in a "
    "political activity (the table decides; by default, seating order).",
)
""",
    ),
    (
        "code",
        r"""
from housing_lab.widgets.quiz import reveal

reveal(
    "Your team's cards pull in opposite directions from another team's. What can you offer "
    "them?",
    "Squares! Cards care about different things: one team may care about spending, another "
    "about parks, another about low income residents housed. Trade the squares your cards do "
    "not care about for the ones they do, and look for tiles that serve both (a 50% "
    "inclusionary tower houses low and middle income residents at little cost).",
)
""",
    ),
    (
        "md",
        r"""
## Things to try

* Play again with **hidden hands**: do teams negotiate differently when they cannot see each
  other's goals?
* Change the negotiation timer to 5 minutes. Does the state step in more often?

## Going further

Lesson 4 shows, for any set of cards, the best board a coalition could agree on, computed
exactly. Compare your class's board with it.

## What you learned

* A policy game is a negotiation between goals that conflict.
* The rules (who picks first, when the state steps in) shape the outcome as much as the players.
* Displacement follows from what is built: the move-in shows it resident by resident.
""",
    ),
]
