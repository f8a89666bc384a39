CELLS = [
    (
        "md",
        r"""
# Lesson 8 · Question the model

**Learning goals.** By the end of this lesson you can:

1. name the assumptions behind lesson 3's and lesson 4's conclusions;
2. change one assumption at a time and say which conclusions survive;
3. weigh each assumption against real evidence, and explain why *a model is an argument*.

*Time: 40 minutes. Do lessons 3 and 4 first.*
""",
    ),
    (
        "md",
        r"""
## What it is: four assumptions you can switch

Every result so far came from the game's rulebook, and the rulebook makes choices. Four of them
can be switched, one at a time (in code: `make_scenario(..., model=...)`, see *Things to try*):

| the question | the rulebook says | the switch we try |
|---|---|---|
| **Filtering:** who can rent a new market rate home? | anyone left over, at once, free | only high income newcomers |
| **Demand:** how many newcomers come? | 8 of each income, whatever is built | 12 high income newcomers |
| **Costa-Hawkins:** does vacancy control cover the houses? | houses and apartments | apartments only |
| **Budget:** how much can the city spend? | no limit | $15 |

Lesson 3 concluded that, *in the model*, the market rate board houses about as many low income
residents as the public housing board. Lesson 4 found a board on which the Developer and
Affordable Housing Organizations both win. Do those conclusions survive?
""",
    ),
    (
        "code",
        r"""
import pandas as pd

from housing_lab.north_berkeley import make_scenario, score_scenario, solve

MARKET_RATE = {"B1": "tower_market", "C1": "tower_inclusionary_25", "B2": "tower_market",
               "C2": "midrise_market", "A1": "townhouse_market",
               "A2": "midrise_inclusionary_50", "A3": "tower_inclusionary_25",
               "B3": "midrise_market", "C3": "park"}
PUBLIC_HOUSING = {"B1": "tower_public", "C1": "tower_public", "B2": "midrise_public",
                  "C2": "townhouse_low", "A1": "park", "A2": "midrise_public",
                  "A3": "tower_public", "B3": "townhouse_low", "C3": "park"}
SETTINGS = {  # one assumption changed at a time; None is the rulebook
    "Rulebook": None,
    "Slow filtering (new market homes: high income only)": {"market_homes_for": ["high"]},
    "Partial filtering (high and middle income only)": {"market_homes_for": ["high", "middle"]},
    "More demand (12 high income newcomers)": {"newcomers": {"high": 12}},
}


def low_housed(tiles, model, policies=()):
    scenario = make_scenario(tiles, list(policies), seed=3, model=model)  # lesson 3's seed
    return score_scenario(scenario).to_dict()["housed"]["low"]
""",
    ),
    ("md", "## Predict first"),
    (
        "code",
        r"""
from housing_lab.widgets import Outcome, PredictThenRun

choices = ["Still about the same", "Public housing, by far", "Market rate, by far"]


def slow_filtering() -> Outcome:
    slow = SETTINGS["Slow filtering (new market homes: high income only)"]
    market, public = low_housed(MARKET_RATE, slow), low_housed(PUBLIC_HOUSING, slow)
    gap = public - market
    answer = choices[1] if gap > 2 else choices[2] if gap < -2 else choices[0]
    return Outcome(answer, f"with slow filtering the market rate board houses {market} low income "
                   f"residents, the public housing board {public} (rulebook: "
                   f"{low_housed(MARKET_RATE, None)} and {low_housed(PUBLIC_HOUSING, None)}).")


PredictThenRun(
    "Suppose only high income newcomers can rent a brand-new market rate home (slow "
    "filtering). Which board now houses more low income residents?",
    choices,
    slow_filtering,
    explanation="The market rate board housed low income newcomers only because the rulebook "
    "lets them rent the market rate homes left over. Take that away and those homes stay empty "
    "or go to richer newcomers; the public housing board does not depend on filtering, so its "
    "number does not move. Lesson 3's 'about the same' was a result of one assumption.",
    why_not={
        choices[0]: "Count who may rent the market rate board's homes now: low income "
        "newcomers may not.",
        choices[2]: "The public housing board's homes are for low income residents whatever "
        "the filtering switch says.",
    },
)
""",
    ),
    (
        "md",
        r"""
## How it works: one assumption at a time

The same two boards of lesson 3 (same seed), scored under each setting. The last column asks
whether lesson 3's conclusion, *about the same*, still holds (a gap of 2 residents or fewer):
""",
    ),
    (
        "code",
        r"""
# NBVAL_CHECK_OUTPUT
rows = []
for name, model in SETTINGS.items():
    market, public = low_housed(MARKET_RATE, model), low_housed(PUBLIC_HOUSING, model)
    rows.append({"Setting": name, "Market rate board": market, "Public housing board": public,
                 "About the same?": "yes" if abs(public - market) <= 2 else "no"})
lesson_3 = pd.DataFrame(rows).set_index("Setting")
lesson_3
""",
    ),
    (
        "md",
        r"""
### Lesson 4's coalition board

The exact solver's best board for the Developer and Affordable Housing Organizations, the one
on which both scored +1 in lesson 4. Score it again under each setting:
""",
    ),
    (
        "code",
        r"""
# NBVAL_CHECK_OUTPUT
from housing_lab.north_berkeley import cards

coalition = solve(["developer", "affordable_housing_orgs"], seed=0).scenario
rows = []
for name, model in SETTINGS.items():
    board = make_scenario(coalition.tiles, list(coalition.policies), coalition.existing,
                          model=model)
    result = score_scenario(board).to_dict()
    scores = {c: result["constituents"][c]["score"]
              for c in ("developer", "affordable_housing_orgs")}
    rows.append({"Setting": name,
                 **{cards()[c].name: f"{s:+d}" if s else "0" for c, s in scores.items()},
                 "Low income housed": result["housed"]["low"],
                 "Both +1?": "yes" if set(scores.values()) == {1} else "no"})
lesson_4 = pd.DataFrame(rows).set_index("Setting")
lesson_4
""",
    ),
    (
        "md",
        r"""
### At a glance: low income residents housed

Darker is more. Read down a column: a board whose number falls when one assumption changes
was resting on that assumption.
""",
    ),
    (
        "code",
        r"""
import numpy as np

from housing_lab.widgets import heat_table

heat_table(
    np.array([[lesson_3.loc[s, "Market rate board"], lesson_3.loc[s, "Public housing board"],
               lesson_4.loc[s, "Low income housed"]] for s in SETTINGS], dtype=float),
    list(SETTINGS),
    ["Lesson 3: market rate board", "Lesson 3: public housing board",
     "Lesson 4: coalition board"],
    title="Low income residents housed, one assumption changed at a time",
    unit="of 12; darker means more",
)
""",
    ),
    (
        "md",
        r"""
## Costa-Hawkins: vacancy control without the houses

The game's Vacancy Control protects every resident. California's Costa-Hawkins Act exempts
single-family houses from rent control (and has forbidden vacancy control itself since it was
fully in force on 1 January 1999). Cover the apartments only, on lesson 3's public housing board:
""",
    ),
    (
        "code",
        r"""
# NBVAL_CHECK_OUTPUT
for name, model in [("Vacancy control, rulebook", None),
                    ("Vacancy control, apartments only",
                     {"vacancy_control_protects": ["apartments"]})]:
    result = score_scenario(make_scenario(PUBLIC_HOUSING, ["vacancy_control"], seed=3,
                                          model=model)).to_dict()
    displaced = result["displaced"]["low"] + result["displaced"]["middle"]
    print(f"{name}: {displaced} residents displaced, {result['vacant']['low']} low income "
          f"homes empty, {result['housed']['middle']} middle income housed")
""",
    ),
    (
        "md",
        r"""
With the houses uncovered, residents of the houses can be displaced again: lesson 3's
"nobody is displaced" holds only for the total ban the card describes.

## A budget: matching funds finally matter

Lesson 3 said matching funds "change nothing" because the model has no budget. Give the city
$15 and try the public housing board ($26 of housing) with and without them:
""",
    ),
    (
        "code",
        r"""
# NBVAL_CHECK_OUTPUT
from housing_lab.errors import HousingLabError

for policies in ([], ["matching_funds"]):
    label = "with matching funds" if policies else "without matching funds"
    try:
        board = make_scenario(PUBLIC_HOUSING, policies, seed=3, model={"budget": 15})
        result = score_scenario(board).to_dict()
        print(f"{label}: built, spending ${result['spending']}, "
              f"{result['housed']['low']} low income housed")
    except HousingLabError as refusal:
        print(f"{label}: refused ({refusal})")
""",
    ),
    (
        "md",
        r"""
Under a budget, matching funds decide whether the board can be built at all. That is what real
matching money is for: Berkeley's **Measure O** bond ($135 million, 2018) is combined with
state, federal and tax-credit funds so a limited budget builds more affordable homes.

## A model is an argument

A model does not find facts about a city: it shows what *follows* from its assumptions. Its
conclusions are only as strong as the assumptions they lean on, so the honest question is
always "what does the evidence say about each one?"

| assumption | what the evidence says | source |
|---|---|---|
| **Instant filtering** | Real but slower and partial: a new market rate building housing 100 people leads 45 to 70 people to leave below-median-income neighbourhoods, mostly within three years, through chains of moves. | S19 |
| **Fixed demand** | Demand follows jobs: from 2008 to 2019 San Francisco and San Mateo counties added about 277,000 jobs while permitting about 45,000 homes (2010-2019). People come whether or not homes are built, but how many depends on the economy. | S34 |
| **Total vacancy control** | Not allowed in California: Costa-Hawkins (phased in 1996-98, complete from 1 January 1999) resets rents between tenants and exempts houses and newer buildings; AB 1482 (2019) caps rises statewide but allows resets. Rent control also cuts the supply of rental homes (15% in San Francisco). | S13, S33, S17 |
| **No budget** | Affordable homes need scarce public money, such as Measure O's $135 million. | S31 |

*Sources: [the source list](../docs/sources.md).*
""",
    ),
    ("md", "## Check yourself"),
    (
        "code",
        r"""
from housing_lab.widgets import reveal

reveal(
    "Which of lesson 3's and lesson 4's conclusions survived the switches, and which did not?",
    "The public housing board's low income count survived every switch: it does not depend on "
    "filtering or demand. 'The market rate board houses about as many' and 'the Developer and "
    "Affordable Housing Organizations can both win' did not survive slow or partial filtering "
    "(and the coalition also fails with more demand): they were results of the rulebook's "
    "instant filtering and fixed demand. A conclusion that survives many "
    "reasonable assumptions is worth more than one that needs a particular one.",
)
""",
    ),
    (
        "md",
        r"""
> **What the model leaves out.** Even with the switches, the model has no prices or rents, no
> time (everyone moves in on one day), no choices by households (everyone wants to live here)
> and no rest of the city (those who leave vanish). Slow filtering here means "never": the real
> chain of moves frees older homes *elsewhere*, which the nine squares cannot show.
>
> The full list: [What the model leaves out](../docs/model_limits.md).

### Things to try (in JupyterLab, where the code is visible)

* Add `{"newcomers": {"low": 12}}` to `SETTINGS` and run the cells again. Which board copes?
* Combine two switches in one setting, e.g. slow filtering *and* more demand. Is the effect the
  sum of the two?

## What you learned

* Each conclusion leans on assumptions; changing one at a time shows which.
* Lesson 3's "about the same" and lesson 4's Developer-and-Affordable coalition depend on
  instant filtering; the public housing board's result does not.
* With a budget, matching funds stop being a discount and decide what can be built.
* A model is an argument: check each assumption against real evidence before using its numbers.

**Next:** back to [Lesson 7, *A classroom game*](07_classroom_game.ipynb), or read
[What the model leaves out](../docs/model_limits.md) and pick the assumption you would test next.
""",
    ),
]
