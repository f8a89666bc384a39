CELLS = [
    (
        "md",
        r"""
# Lesson 8 · Question the model

**Learning goals.** By the end of this lesson you can:

1. name the assumptions behind lesson 3's, lesson 4's and lesson 5's conclusions;
2. change one assumption at a time, in code or in the lab's Assumptions tab, and say which
   conclusions survive;
3. say when to score one board again and when to solve the question again;
4. weigh each assumption against real evidence, and explain why *a model is an argument*.

*Time: 40 minutes. Do lessons 3, 4 and 5 first: this lesson re-runs lesson 5's ranking.*
""",
    ),
    (
        "md",
        r"""
## What it is: four assumptions you can switch

Every result so far came from the game's rulebook, and the rulebook makes choices. Four of them
can be switched, one at a time (in code: `make_scenario(..., model=...)`; without code: the
lab's **Assumptions** tab, below):

| the question | the rulebook says | the switch we try |
|:---|:---|:---|
| **Filtering:** who can rent a new market rate home? | anyone left over, at once, free | high income only (**no filtering**), or high and middle income only (**partial filtering**) |
| **Demand:** how many newcomers come? | 8 of each income, whatever is built | **more**: 14 high income newcomers (new jobs nearby); **fewer**: 4 (the others go elsewhere) |
| **Costa-Hawkins:** does vacancy control cover the houses? | houses and apartments | apartments only |
| **Budget:** how much can the city spend? | no limit | $15 |

Lesson 3 concluded that, *in the model*, the mostly market rate board houses about as many low income
residents as the public housing board. Lesson 4 found a board on which the Developer and
Affordable Housing Organizations both win. Lesson 5 ranked Vacancy Control first. Do those
conclusions survive?
""",
    ),
    (
        "code",
        r"""
from housing_lab.errors import HousingLabError
from housing_lab.north_berkeley import make_scenario, score_scenario, solve
from housing_lab.widgets import lesson_table

MARKET_RATE = {"B1": "tower_market", "C1": "tower_inclusionary_25", "B2": "tower_market",
               "C2": "midrise_market", "A1": "townhouse_market",
               "A2": "midrise_inclusionary_50", "A3": "tower_inclusionary_25",
               "B3": "midrise_market", "C3": "park"}
PUBLIC_HOUSING = {"B1": "tower_public", "C1": "tower_public", "B2": "midrise_public",
                  "C2": "townhouse_low", "A1": "park", "A2": "midrise_public",
                  "A3": "tower_public", "B3": "townhouse_low", "C3": "park"}
SETTINGS = {  # one assumption changed at a time; None is the rulebook
    "The rulebook": None,
    "No filtering: new market rate homes for high income only": {"market_homes_for": ["high"]},
    "Partial filtering: high and middle income only": {"market_homes_for": ["high", "middle"]},
    "More newcomers: 14 high income": {"newcomers": {"high": 14}},
    "Fewer newcomers: 4 high income (the others go elsewhere)": {"newcomers": {"high": 4}},
    "Costa-Hawkins: houses exempt from vacancy control":
        {"vacancy_control_protects": ["apartments"]},
    "City budget of $15": {"budget": 15},
}
NO_FILTERING = SETTINGS["No filtering: new market rate homes for high income only"]


def result_of(tiles, model, policies=()):
    # lesson 3's seed; None when the city budget refuses the board
    try:
        scenario = make_scenario(tiles, list(policies), seed=3, model=model)
    except HousingLabError:
        return None
    return score_scenario(scenario).to_dict()
""",
    ),
    ("md", "## Predict first"),
    (
        "code",
        r"""
from housing_lab.widgets import PredictThenRun

PredictThenRun("l8-no-filtering")
""",
    ),
    (
        "md",
        r"""
## How it works: one assumption at a time

The same two boards of lesson 3 (same seed), scored under each setting. *About the same?* asks
whether lesson 3's conclusion still holds (a gap of 2 low income residents or fewer). *Empty
market rate homes* counts the new market rate homes nobody may rent:
""",
    ),
    (
        "code",
        r"""
# NBVAL_CHECK_OUTPUT
from housing_lab.widgets import after_prediction

rows = []
for name, model in SETTINGS.items():
    market, public = result_of(MARKET_RATE, model), result_of(PUBLIC_HOUSING, model)
    row = {"Setting": name,
           "Mostly market rate board: low income housed": market["housed"]["low"],
           "Mostly market rate board: empty market rate homes": market["vacant"]["market"]}
    if public is None:
        row.update({"Public housing board: low income housed": "over budget",
                    "Public housing board: middle income housed": "over budget",
                    "About the same?": "the public board cannot be built"})
    else:
        row.update({"Public housing board: low income housed": public["housed"]["low"],
                    "Public housing board: middle income housed": public["housed"]["middle"],
                    "About the same?": "yes" if abs(public["housed"]["low"]
                                                     - market["housed"]["low"]) <= 2 else "no"})
    rows.append(row)
boards_table = lesson_table(rows, index="Setting",
                            title="Lesson 3's boards under each setting (residents of 12)")
after_prediction("l8-no-filtering", boards_table)
""",
    ),
    (
        "after:l8-no-filtering",
        r"""
Read it row by row:

* **No filtering** means what it says: nobody but high income newcomers may rent a new market
  rate home, ever. {{claim:no-filtering-market-board}}
* {{claim:partial-filtering-market-board}}
* {{claim:demand-both-ways-market-board}} How many people come, and who, decides what a board
  of market rate homes does for low income residents.
* {{claim:public-board-low-survives}} {{claim:public-board-middle}}
  {{claim:public-board-budget}}

So lesson 3's "about the same" rests on instant filtering and on the rulebook's demand; the
public housing board's low income count rests on neither, but on money.
""",
    ),
    (
        "md",
        r"""
## Lesson 4's coalition: score again, or solve again?

Lesson 4's exact solver found a board on which the Developer and Affordable Housing
Organizations both score +1. First, the cheap question: score **that board** again under each
setting.
""",
    ),
    (
        "code",
        r"""
# NBVAL_CHECK_OUTPUT
from housing_lab.north_berkeley import cards

PAIR = ["developer", "affordable_housing_orgs"]
coalition = solve(PAIR, seed=0).scenario  # lesson 4's board
rows = []
for name, model in SETTINGS.items():
    board = make_scenario(coalition.tiles, list(coalition.policies), coalition.existing,
                          model=model)
    result = score_scenario(board).to_dict()
    scores = {c: result["constituents"][c]["score"] for c in PAIR}
    rows.append({"Setting": name,
                 **{cards()[c].name: s for c, s in scores.items()},
                 "Low income housed": result["housed"]["low"],
                 "Empty market rate homes": result["vacant"]["market"],
                 "Both +1?": "yes" if set(scores.values()) == {1} else "no"})
lesson_table(rows, index="Setting", signed=[cards()[c].name for c in PAIR],
             title="Lesson 4's board, scored again under each setting")
""",
    ),
    (
        "md",
        r"""
{{claim:coalition-board-rescored}} That is one board. Lesson 4's question was whether there is
*any* board on which both win. What is the answer with no filtering? Predict before the solver
runs:
""",
    ),
    (
        "code",
        r"""
PredictThenRun("l8-coalition")
""",
    ),
    (
        "md",
        r"""
Now the exact solver, run again under every setting (each answer is checked by the scalar
engine). *Both +1?* says what the best board spends; the last column asks the same question with
Vacancy Control ruled out.
""",
    ),
    (
        "code",
        r"""
# NBVAL_CHECK_OUTPUT
from collections import Counter

from housing_lab.north_berkeley import POLICIES, default_catalogue, policy_set_name

NO_VACANCY_CONTROL = [[p] for p in POLICIES if p != "vacancy_control"] + [
    [a, b] for i, a in enumerate(POLICIES) for b in POLICIES[i + 1:]
    if "vacancy_control" not in (a, b)]


def board_words(scenario):
    names = Counter(default_catalogue()[t].name for t in scenario.tiles.values())
    return ", ".join(f"{n} \u00d7 {name}" for name, n in names.most_common())


def both_win(best):
    return "yes" if best.score == 2 else "no"


def dollars(amount):
    return f"${float(amount):g}" if float(amount).is_integer() else f"${float(amount):.2f}"


rows = []
for name, model in SETTINGS.items():
    best = solve(PAIR, seed=0, model=model)
    without = solve(PAIR, seed=0, model=model, policy_sets=NO_VACANCY_CONTROL)
    rows.append({"Setting": name,
                 "Best board (and policies)": f"{board_words(best.scenario)}; "
                 f"{policy_set_name(sorted(best.scenario.policies))}",
                 "Both +1?": f"{both_win(best)}, for {dollars(best.spending)}",
                 "Low income housed": best.result["housed"]["low"],
                 "Middle income housed": best.result["housed"]["middle"],
                 "Empty market homes": best.result["vacant"]["market"],
                 "Without Vacancy Control": f"{both_win(without)}, for "
                 f"{dollars(without.spending)}"})
solved = lesson_table(rows, index="Setting",
                      title="The best board for the Developer and Affordable Housing "
                      "Organizations, solved again under each setting")
after_prediction("l8-coalition", solved)
""",
    ),
    (
        "after:l8-coalition",
        r"""
{{claim:coalition-survives-every-switch}} The coalition survives; lesson 4's *board* did not.

How does it survive without filtering? {{claim:coalition-no-filtering-board}} The solver
replaced the market rate towers with **inclusionary** buildings: their market rate homes count
for the Developer, and their income-restricted homes are the only new homes a low income
newcomer may rent once filtering is gone. That is inclusionary housing, which many California
cities require of market rate projects. On this cheapest board the price is paid by middle
income residents and in empty homes; the next board houses them too, for a little money.

{{claim:coalition-without-vacancy-control}}

*Score again* tests a board; *solve again* tests a conclusion. Before saying "this result
needs assumption X", ask the question again under the other assumption.
""",
    ),
    (
        "md",
        r"""
## At a glance: every switch, every board

The boards above in one table: a row is a board, a column a setting, and each cell says how
many residents are housed and how that differs from the rulebook's column (outlined). Read
along a row: a board whose number falls when one assumption changes was resting on that
assumption. "Over budget" means the city budget refuses the board.
""",
    ),
    (
        "code",
        r"""
# NBVAL_CHECK_OUTPUT
from housing_lab.north_berkeley import robustness
from housing_lab.widgets import robustness_heat_table

BOARDS = {
    "Lesson 3: mostly market rate board": make_scenario(MARKET_RATE, [], seed=3),
    "Lesson 3: public housing board": make_scenario(PUBLIC_HOUSING, [], seed=3),
    "Lesson 4: the coalition's board": coalition,
    "The coalition's board solved with no filtering": solve(PAIR, seed=0,
                                                            model=NO_FILTERING).scenario,
}
frame = robustness(BOARDS, SETTINGS)  # every board scored exactly under every setting
after_prediction(("l8-no-filtering", "l8-coalition"),
                 robustness_heat_table(frame.heat_table("Low income housed"),
                                       title="Low income residents housed (of 12)"),
                 robustness_heat_table(frame.heat_table("Middle income housed"),
                                       title="Middle income residents housed (of 12)"))
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
    result = result_of(PUBLIC_HOUSING, model, ["vacancy_control"])
    displaced = result["displaced"]["low"] + result["displaced"]["middle"]
    print(f"{name}: {displaced} residents displaced, {result['vacant']['low']} low income "
          f"homes empty, {result['housed']['middle']} middle income housed")
""",
    ),
    (
        "md",
        r"""
{{claim:costa-hawkins-public-board}} Lesson 3's "nobody is displaced" holds only for the total
ban the card describes.

The same switch changes lesson 5's ranking. {{claim:ranking-costa-hawkins}} In California even
the apartments-only reading is generous: vacancy control is forbidden for ordinary rentals,
apartments too, so a city's real choice is among the other policies.

## A budget: matching funds finally matter

Lesson 3 said matching funds "change nothing" because the model has no budget. Give the city
a budget of $15, and try the public housing board with and without matching funds. (Lesson 5's
ranking used a budget of 10 dollars, a limit on its random boards; this one is chosen because it
lies between what this one board costs with matching funds and without them.)
""",
    ),
    (
        "code",
        r"""
# NBVAL_CHECK_OUTPUT
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
{{claim:public-board-budget}} {{claim:public-board-budget-matching}} Under a budget, matching
funds decide whether the board can be built at all. That is what real matching money is for:
Berkeley's **Measure O** bond ($135 million, 2018) is local money that affordable builders
combine with county, state, federal and tax-credit funds, so a limited budget builds more
affordable homes.

## Your turn: flip the switches yourself (no code)

The first lab below holds lesson 3's mostly market rate board, the second lesson 3's public housing
board with Vacancy Control. Open a lab's **Assumptions** tab and change one answer at a time;
the chart and the cards' scores follow. Write each result on worksheet 8 before you press
**Back to the rulebook**.

1. *Who can rent a new market-rate home?* Choose **High income only**. Low income housed: ___.
   New market rate homes left empty (on the board, homes with no resident in them): ___.
2. Back to the rulebook. *How many newcomers of each income?* Set **High income** to 4, then
   to 14. Low income housed: ___ and ___.
3. In the **second lab** (the public housing board, Vacancy Control already enacted), choose
   **No: apartments only** for vacancy control. Residents displaced: ___. {{claim:l8-market-board-no-displacement}}
4. Back in the first lab, tick **Limit what the city can spend**, and lower the budget. Which tiles turn grey, and
   what does the lab say when you click one?
5. Which of your four answers would change lesson 3's conclusion? Say which assumption it
   rested on.
""",
    ),
    (
        "code",
        r"""
from housing_lab.widgets import NorthBerkeleyLab

labs = [
    NorthBerkeleyLab(scenario={"tiles": MARKET_RATE, "policies": [], "seed": 3}),
    NorthBerkeleyLab(
        scenario={"tiles": PUBLIC_HOUSING, "policies": ["vacancy_control"], "seed": 3}
    ),
]
after_prediction(("l8-no-filtering", "l8-coalition"), *labs)  # they would answer both predictions
""",
    ),
    (
        "md",
        r"""
## A model is an argument

A model does not find facts about a city: it shows what *follows* from its assumptions. Its
conclusions are only as strong as the assumptions they lean on, so the honest question is
always "what does the evidence say about each one?"

| assumption | what the evidence says | source |
|:---|:---|:---|
| **Instant filtering** | Real but slower and partial: in Mast's published study (2021; the 2019 working paper counted per 100 units and said five years), a new market rate building housing 100 people leads 45 to 70 people to leave below-median-income neighbourhoods, mostly within three years, through chains of moves. Neither the rulebook (instant) nor no filtering (never) is right; partial filtering is closer. | S19 |
| **Fixed demand** | Demand follows jobs: from 2008 to 2019 San Francisco and San Mateo counties added about 277,000 jobs while permitting about 45,000 homes (2010-2019). Jobs grew about six times as fast as homes were permitted: demand grew while homes lagged. The analysis does not measure how many people came, or would have come, without homes; that depends on the economy, in both directions. | S34 |
| **Total vacancy control** | Not allowed in California for ordinary rentals: Costa-Hawkins (phased in 1996-98, complete from 1 January 1999) resets rents between tenants and exempts houses and newer buildings; AB 1482 (2019) caps rises statewide but allows resets. In San Francisco, landlords of the buildings rent control newly covered in 1994 cut their own rental housing by 15% (selling to owner-occupants, redeveloping): a cut in those buildings, not in the city's whole stock. | S13, S33, S17 |
| **No budget** | Affordable homes need scarce public money, such as Measure O's $135 million. | S31 |

*Sources: [the source list](../docs/sources.md).*
""",
    ),
    ("md", "## Check yourself"),
    (
        "code",
        r"""
from housing_lab.widgets import reveal

reveal("l8-what-survived")
""",
    ),
    (
        "md",
        r"""
> **What the model leaves out.** Even with the switches, the model has no prices or rents, no
> time (everyone moves in on one day), no choices by households (everyone wants to live here)
> and no rest of the city (those who leave vanish). No filtering here means "never": the real
> chain of moves frees older homes *elsewhere*, which the nine squares cannot show.
>
> The full list: [What the model leaves out](../docs/model_limits.md).

### Things to try (in JupyterLab, where the code is visible)

* Add `"More low income newcomers": {"newcomers": {"low": 12}}` to `SETTINGS` and run the cells
  again. Which board copes?
* Combine two switches in one setting, e.g. no filtering *and* more newcomers. Is the effect
  the sum of the two?
* Solve again for another pair from lesson 4 (for example Property Values and Affordable
  Housing Organizations) under no filtering. Does its answer change?

## What you learned

* Each conclusion leans on assumptions; changing one at a time shows which.
""",
    ),
    ("after:l8-no-filtering", "* {{claim:learned-about-the-same}} {{claim:learned-public-board}}"),
    (
        "after:l8-coalition",
        r"""
* A board that fails under a new assumption is not a coalition that fails: solve again.
  {{claim:learned-coalition}}
""",
    ),
    (
        "md",
        r"""
* {{claim:learned-ranking}}
* With a budget, matching funds stop being a discount and decide what can be built.
* A model is an argument: check each assumption against real evidence before using its numbers.

**Next:** this is the last lesson. Take the [concept check](concept_check.md) again and compare
with your first answers; teachers, the [teacher's guide](TEACHER_GUIDE.md) has the keys and the
policy memo.
""",
    ),
]
