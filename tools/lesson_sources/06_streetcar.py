CELLS = [
    (
        "md",
        r"""
# Lesson 6 · Streetcar: remove the limits, connect the buildings

**Learning goals.** By the end of this lesson you can:

1. explain what removing a single-family housing limit does in the game;
2. predict which building appears where, and with which cubes;
3. explain why a transit line is worth more when it connects many new buildings;
4. say what real upzoning did in Auckland and Minneapolis, and why allowing homes does not
   build them;
5. (if you have time) say how a search bot chooses a move, and try to beat it.

*Time: 45 minutes, with starting up, one game against the computer and the exit ticket. The
greedy-against-random match and the search bot are under **If you have time** at the end.*
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

The rulebook sets the scene: *it is against the law to build housing or transit in this wealthy
neighbourhood*. Removing "single-family housing limits" lets citizens build, making the
neighbourhood more affordable and diverse, and your lines connect what they build.
""",
    ),
    (
        "md",
        r"""
## The real history: single-family zoning started here

**Single-family zoning** means a lot may hold only one house: no duplex, no apartment building.
What is often called the first such rule in the United States was written in Berkeley, in 1916,
for the Elmwood neighbourhood; its authors said it would protect homes from "the less desirable
and floating renter class", and the council members who voted in 2021 to end it said that
single-family zones had kept people out by race and class. In February 2021 Berkeley's city council voted 9-0 to end
exclusionary zoning: the resolution stated an intent and started a two-year rewrite of the
city's plan rather than changing any rule that night. The state acted too: **SB 9** (2021,
in force from January 2022) lets the owner of a single-family lot split it in two and build a
duplex on each half, with limits (an owner who splits a lot signs that they intend to live in
one of the homes for three years; homes that were rent controlled or rented in the last three
years may not be torn down). Together with the ADU
laws of lesson 3, that is the real version of "removing a limit".

Transit is the other half. **Transit-oriented development** puts homes within walking distance of
stations, which is what AB 2923 asks of the land around BART stations (lesson 1).

*Sources: S5 to S9 and S20 in [the source list](../docs/sources.md).*
""",
    ),
    ("md", "## How it works: which building appears?"),
    (
        "code",
        r"""
# NBVAL_CHECK_OUTPUT
import pandas as pd

from housing_lab.streetcar import COLOURS, building_for
from housing_lab.widgets import lesson_table


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
lesson_table(rows, title="Which building appears in an empty space")
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
## What the scoring rewards: a fair test

{{claim:l6-greedy-beats-random}} but that comparison mixes two differences:
the random bot also scatters many separate lines, each costing 10 points. To see what
**connecting buildings** is worth on its own, the computer runs a controlled experiment. Two
players take turns against the same opponent, on the same deals:

* both remove **the same houses** in the same order (a seeded draw that ignores lines), so the
  **same buildings** appear;
* both keep extending **one line** (no extra penalty for either);
* the only difference: one steers its line **towards** the buildings, the other **away**.

Predict first, then run the experiment.
""",
    ),
    (
        "code",
        r"""
from housing_lab.widgets import PredictThenRun

PredictThenRun("l6-line-reaches")
""",
    ),
    (
        "code",
        r"""
# NBVAL_CHECK_OUTPUT
from housing_lab.streetcar import line_experiment, line_experiment_summary
from housing_lab.widgets import after_prediction

GAMES = 40
fair = line_experiment_summary(line_experiment(GAMES, seed=2))
fair_test = lesson_table(pd.DataFrame(
    {"Average score": [fair[a]["score"] for a in fair],
     "Separate lines": [fair[a]["separate_lines"] for a in fair],
     "Cubes connected": [fair[a]["connected_cubes"] for a in fair],
     "Houses removed": [fair[a]["houses_removed"] for a in fair]},
    index=pd.Index(["Line towards the buildings", "Line away from the buildings"], name="Player"),
), title=f"The fair test: averages over {GAMES} games")
after_prediction("l6-line-reaches", fair_test)
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
    (
        "md",
        r"""
> **What the model leaves out.**
>
> * **Zoning changes house by house.** Real zoning changes cover whole areas at once, by a
>   council vote or a state law, and a lot only gets more homes if its owner decides to build.
> * **Buildings appear by a geometric rule.** Real buildings need land, money, permits and a
>   builder; where they go depends on prices and demand.
> * **Lines are free** apart from the penalty per separate line. Real transit is expensive to
>   build and to run, and its value depends on frequency and the jobs it reaches too.
> * **The same players build housing and transit.** In reality developers build homes and public
>   agencies run transit: coordinating them is the hard part of transit-oriented development.
>
> The full list: [What the model leaves out](../docs/model_limits.md).

## Upzoning in real cities: predict first

In the game every removed limit makes a building appear. Before you read what real cities
found, answer this:
""",
    ),
    (
        "code",
        r"""
from housing_lab.widgets import ChoiceQuestion

ChoiceQuestion("l6-minneapolis-share")
""",
    ),
    (
        "after:l6-minneapolis-share",
        r"""
## Upzoning in real cities: what the evidence says

The game's scoring rewards the buildings that appear where a limit is removed. Whether removing
limits adds homes in a real city is a question for evidence, and two cities have been studied
closely:

* **Auckland, New Zealand** upzoned about three quarters of its residential land in 2016 to
  allow townhouses and apartments. Comparing upzoned areas with the rest, two economists found
  strong evidence that it increased building: about 26,900 more homes consented by 2021 than the
  earlier trend, about 5% of the city's homes, roughly double the pace before the change. Other
  economists dispute how large the effect was.
* **Minneapolis** began cutting its minimum parking requirements in 2009 and later ended them
  (citywide in 2021), allowed ADUs, and in its 2040
  plan (in effect 2020) allowed more homes near transit and commercial streets and small
  multi-home buildings on every residential lot. From 2017 to 2022 its housing stock grew 12%
  while rents rose about 1%; in the rest of Minnesota, 4% and 14% (an analysis by the Pew
  Charitable Trusts, which argues for such reforms). Ending single-family-only zoning accounted
  for only about 1% of the new homes: Pew credits mostly the parking and transit-corridor
  changes. The Minneapolis Fed, which tracks the plan, sees little change in where building
  happens yet: such effects take years.

A rule that allows homes can also be stopped. In 2018 three groups sued Minneapolis under the
Minnesota Environmental Rights Act (MERA), arguing that building out the plan would harm the
environment; in June 2022 a county judge ordered the city to stop carrying out the plan until it
complied with that law (the city could keep using it while it appealed). In 2024 the
state legislature passed a law that a city's comprehensive plan cannot be challenged that way,
which its backers said ended the suit.

| | The game | Auckland (2016) | Minneapolis (2020) |
|---|---|---|---|
| What was allowed | one more building where a house is removed | townhouses and apartments on about three quarters of residential land | small multi-home buildings on every lot; more near transit; no parking minimums |
| What was built | a building at once, every time | about double the earlier pace of building (contested) | about 1% of new homes from the end of single-family-only zoning |
| Who decides to build | nobody: the rule builds | owners and builders, where it pays | owners and builders, where it pays; courts paused the plan in 2022 |

*Discuss:* the game says "remove a limit, get a building". Name two things a real owner needs
before a lot that may now hold three homes gets them (money, a builder, rents high enough to pay
for the work, the owner's wish to sell or build, permits, a plan not stopped in court).

*Sources: S41 to S45 in [the source list](../docs/sources.md).*
""",
    ),
    ("md", "## Check yourself"),
    (
        "code",
        r"""
from housing_lab.widgets import ChoiceQuestion

ChoiceQuestion("l6-three-houses")
""",
    ),
    (
        "code",
        r"""
from housing_lab.widgets import reveal

reveal("l6-real-cities")
""",
    ),
    (
        "md",
        r"""
### Things to try

* Under **Game options**, play against the random bot, then the greedy bot. What does the
  greedy bot do differently?
  *Look for:* it draws only one or two separate lines (each costs 10) and steers them towards
  buildings of the colours it has removed.
* Play with a classmate on one screen (**Game options**: the opponent *a classmate on this screen*).
* Lower the penalty for a separate line to 5 (**Game options**). Do you draw more separate lines?
""",
    ),
    (
        "md",
        r"""
## If you have time: greedy against random, and the search bot
""",
    ),
    (
        "md",
        r"""
Set against the controlled experiment above, the uncontrolled match: a *greedy* bot that plans
lines and removals together against a *random* bot, 40 games. Its gap is larger because the random bot
also pays for many separate lines.
""",
    ),
    (
        "code",
        r"""
# NBVAL_CHECK_OUTPUT
from housing_lab.streetcar import play_match, summarise

summary_40 = summarise(["greedy", "random"], play_match(["greedy", "random"], 40, seed=2)).to_dict()
lesson_table(pd.DataFrame(
    {"Games won (of 40)": summary_40["wins"], "Average score": summary_40["mean_scores"]},
    index=pd.Index([f"{bot.capitalize()} bot" for bot in summary_40["bots"]], name="Player"),
), title="Greedy bot against random bot, 40 games")
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
    row.update({f"{colour.capitalize()}: houses × cubes": f"{score.removed[colour]} × "
                f"{score.connected_cubes[colour]}" for colour in score.removed})
    row.update({"Separate lines": score.lines, "Penalty": -score.penalty, "Total": score.total})
    rows.append(row)
lesson_table(rows, index="Player", title="One finished game, scored the rulebook's way")
""",
    ),
    (
        "md",
        r"""
### Try to beat the search bot

The greedy bot looks only at **this turn**: it picks the move that improves its score the most
right now. The **search bot** (a *Monte Carlo tree search*, MCTS for short) looks
**ahead**. For each of the few moves greedy likes best, it *tries the move* on a copy of the
game and *plays it out*: both players carry on for a few more turns, and it notes who came out
ahead. It repeats this many times, spending more tries on the moves that keep looking good, and
then plays the move that held up best. Searching by trying moves and playing them out is the
idea behind strong programs for Go and chess-like games.

Does looking ahead pay? Four seeded games, each bot playing first in two of them; the search
bot gets a small budget of 8 tries a move so this runs in a few seconds:
""",
    ),
    (
        "code",
        r"""
# NBVAL_CHECK_OUTPUT
SEARCH_GAMES, TRIES = 4, 8
search_games = play_match(["mcts", "greedy"], SEARCH_GAMES, seed=1, iterations=TRIES)
search_match = summarise(["mcts", "greedy"], search_games).to_dict()
print(f"The search bot won {search_match['wins'][0]} of {SEARCH_GAMES} games.")
lesson_table(pd.DataFrame({f"Games won (of {SEARCH_GAMES})": search_match["wins"],
                           "Average score": search_match["mean_scores"]},
                          index=pd.Index(["Search bot", "Greedy bot"], name="Player")),
             title=f"Search bot against greedy bot, {SEARCH_GAMES} games")
""",
    ),
    (
        "md",
        r"""
Now play it yourself: you are **Purple**, the search bot is **Red**. It thinks for a moment
before each move (it uses its full budget of 24 tries a move here). Stuck? Press **Hint**: the
board shows a suggested move (its lines dashed, its house ringed) and says why, but does
**not** play it; you decide. Watch which house it removes: does it ever leave you a building
you could have connected?

`housing-lab streetcar simulate --games 100 --seed 1 --bots greedy,random --out games/` plays
many games and saves each as a record you can load back into the lab (**Load game**) and replay.
`--bots mcts,greedy --iterations 8` pits the search bot against greedy: does a bigger budget
win more often?
""",
    ),
    (
        "code",
        r"""
search_lab = StreetcarLab(seed=2, opponent="mcts")
search_lab
""",
    ),
    (
        "md",
        r"""
## What you learned

* Removing single-family limits lets buildings appear where 3 houses surround an empty space.
* Cubes follow the colours of the houses around them.
""",
    ),
    (
        "after:l6-line-reaches",
        r"""
* Lines matter: points come only from buildings your lines connect, and scattered lines cost.
  {{claim:l6-line-that-reaches-wins}}
""",
    ),
    (
        "after:l6-minneapolis-share",
        r"""
* In the game every removed limit builds; in real cities allowing homes does not build them.
  Auckland's 2016 upzoning roughly doubled the pace of building (a contested estimate); in
  Minneapolis about 1% of new homes came from ending single-family-only zoning, most came near
  transit, and a lawsuit paused the plan in 2022.
""",
    ),
    (
        "md",
        r"""
* (If you had time) a bot that looks ahead, by trying moves and playing them out, usually beats
  one that only looks at this turn {{claim:l6-search-bot-wins}}
* Single-family zoning began in Berkeley in 1916; Berkeley and California have been undoing it
  since 2021.

**Next:** [Lesson 7, *A classroom game*](07_classroom_game.ipynb): play North Berkeley as a class.
""",
    ),
]
