CELLS = [
    (
        "md",
        r"""
# Lesson 5 · When the state steps in

**Learning goals.** By the end of this lesson you can:

1. explain what "calling the state" does and why a table might do it;
2. read a distribution: over thousands of random boards, how many residents are housed;
3. run a **policy sweep** and summarise it as a table and a chart;
4. name the real ways California's state steps in on local housing (RHNA and the housing
   element, SB 35, AB 2011, SB 9, SB 10, the density bonus) and say how the real North Berkeley
   plan was approved.

*Time: 40 minutes, with starting up and the exit ticket.*
""",
    ),
    (
        "md",
        r"""
## What it is

If the table cannot agree before the timer runs out, anyone may **call the state**: every empty
square gets a tile drawn at random. What does the neighbourhood look like then? One random board
tells us little; **20,000** tell us what to expect.

## How it works: the state fills phase 2, 20,000 times

Suppose the table agreed on phase 1 (the four squares by the station) but not on phase 2.
""",
    ),
    (
        "code",
        r"""
from IPython.display import display

from housing_lab.north_berkeley import random_boards, state_fills, sweep
from housing_lab.widgets import ProgressBar

PHASE_1 = {"B1": "tower_inclusionary_50", "C1": "tower_market", "B2": "midrise_workforce",
           "C2": "park"}

bar = ProgressBar("State fills")
display(bar)
fills = sweep(state_fills(PHASE_1, 20_000, seed=5), progress=bar)
""",
    ),
    (
        "code",
        r"""
# NBVAL_CHECK_OUTPUT
from housing_lab.north_berkeley import MEASURE_NAMES
from housing_lab.widgets import lesson_table

measures = ["housed_high", "housed_middle", "housed_low", "spending"]
summary = fills[measures].describe().rename(columns=MEASURE_NAMES)
summary = summary.loc[["mean", "min", "25%", "50%", "75%", "max"]].rename(index={
    "mean": "Average", "min": "Lowest", "25%": "A quarter of fills are below",
    "50%": "Middle value (median)", "75%": "A quarter of fills are above", "max": "Highest",
}).rename_axis("Over the 20,000 fills")
lesson_table(summary, money=[MEASURE_NAMES["spending"]],
             title="What the state's fills give (residents housed, of 12, and spending)")
""",
    ),
    ("md", "How often does each number of low income residents end up housed?"),
    (
        "code",
        r"""
from housing_lab.widgets import INCOME_COLOURS, bar_chart

counts = fills["housed_low"].value_counts().reindex(range(13), fill_value=0)
bar_chart(
    [f"{k} of 12 housed" for k in range(13)],
    {"% of fills": (100 * counts / len(fills)).round(1).tolist()},
    title="Low income residents housed when the state fills phase 2 (20,000 fills)",
    value_label="% of the 20,000 fills",
    colours={"% of fills": INCOME_COLOURS["low income"]},
    whole_numbers=False,
)
""",
    ),
    (
        "md",
        r"""
### Things to notice

* The state's tiles are drawn uniformly: a park is as likely as a public housing tower.
* So some fills are great for low income residents and some are bad. The *average* (the mean)
  is what a table should expect, on average, if it gives up; the *median* is the middle fill
  when all 20,000 are lined up from worst to best.

## How the real state steps in

In the game, "calling the state" fills the empty squares at random when the table cannot agree.
California's state government does step into local housing decisions, but by law, not by
lottery, and mostly *before* a city decides anything:

| The state's tool | What it does | Like what in the game? |
|---|---|---|
| **RHNA and the housing element** (the housing element since 1969; the regional allocation, RHNA, in its current form since 1980) | The state's housing department (HCD) sets each region's housing need by income level; the region divides it among its cities; each city must plan, in the *housing element* of its general plan, where that many homes can go. | A target the table must meet, set from outside |
| **AB 2923** (2018) | Minimum zoning on BART's own land; at North Berkeley, room for 7 stories and 75 homes per acre, at most one parking space for two homes, and 20% of the homes affordable (as reports of the law give it; BART's own 2016 policy asks at least 20% in each station development). The city had to zone to match. | Rules on what may be built, fixed before the table sits down |
| **SB 35** (2017) | In a city behind on its RHNA targets, a housing project that meets the zoning's written (objective) standards must be approved without discretionary review or appeals, if it meets three conditions. **Affordability:** at least 10% of its homes affordable where the city is behind on its market-rate target, at least 50% where it met that target but not its lower-income one. **Labour:** construction workers paid prevailing wages. **Site:** not on excluded land (for example farmland, wetlands, hazard zones, a historic site, or homes rented to tenants in recent years). In 2018, 70% of California's cities and counties had met neither their market-rate nor their affordable targets, so projects there needed only 10%; 27.5% had met only their market-rate targets, so projects needed 50%. | A deadline with teeth: fall behind, and projects go through without the table |
| **AB 2011** (2022) | Housing on land zoned for offices, shops or parking is allowed "by right" if it meets affordability and labour standards (prevailing wages), after a *ministerial* review: staff check the project against written standards, with no hearing that could say no. | **How the real North Berkeley plan was approved (2024)**: 739 homes in about ten months, without a public hearing on the project |
| **SB 9** (2021) | A single-family lot may hold two homes and be split in two, approved ministerially. | Lesson 6: removing a single-family limit |
| **SB 10** (2021) | A city *may choose* to zone areas near transit for up to 10 homes per parcel, without the usual environmental review. | A tool the state offers, not one it imposes |
| **The density bonus** (Government Code 65915) | A builder who includes affordable homes may build more homes than the zoning allows, with relief from some standards. | At the BART stations: 7 stories in the zoning, up to 12 with the bonus |

What the game gets right: when a table cannot or will not agree, someone else decides, and the
table loses control. What it leaves out: the real state does not draw buildings at random. It
sets rules in advance (how many homes, how dense, how affordable, how fast), so the local
decision shrinks to checking a project against written standards. *Discuss, then write on
worksheet 5:* using the table, design a "call the state" rule that is closer to California's.
Which cards would it please, and which not?

*Sources: S1 to S3, S8, S9, S22, S29, S30, S35 to S39 in [the source list](../docs/sources.md).*

## The whole board by chance: 100,000 random boards

Now let chance decide **everything**: all 9 squares, the policy set (one or two policies, as the
game allows) and the existing residents.
""",
    ),
    (
        "code",
        r"""
bar = ProgressBar("Random boards")
display(bar)
everything = sweep(random_boards(100_000, seed=6), progress=bar)
""",
    ),
    (
        "code",
        r"""
# NBVAL_CHECK_OUTPUT
import pandas as pd

from housing_lab.north_berkeley import INCOME_NAMES

share = pd.DataFrame({
    INCOME_NAMES[income].capitalize(): {
        "Average housed (of 12)": everything[f"housed_{income}"].mean(),
        "% of boards with all 12 housed": 100 * (everything[f"housed_{income}"] == 12).mean(),
        "Average displaced": everything[f"displaced_{income}"].mean(),
    }
    for income in ("high", "middle", "low")
}).T.rename_axis("Residents")  # a row per income
lesson_table(share, title="Who is housed and displaced on 100,000 random boards")
""",
    ),
    (
        "md",
        r"""
## A policy sweep

The same 100,000 boards, grouped by the policies they drew. A sweep ranks policies **in this
model**: with its fixed demand, its instant filtering and its random boards. A ranking is a
result about those assumptions, not a verdict on the real policies. Before you look, predict.
""",
    ),
    (
        "code",
        r"""
from housing_lab.widgets import PredictThenRun

PredictThenRun("l5-best-single-policy", boards=everything)
""",
    ),
    (
        "md",
        "Now the whole table. Each row is the average over several thousand boards:",
    ),
    (
        "code",
        r"""
# NBVAL_CHECK_OUTPUT
from housing_lab.north_berkeley import policy_set_name
from housing_lab.widgets import after_prediction

sweep_table = (
    everything.groupby("policies", observed=True)[
        ["housed_high", "housed_middle", "housed_low", "displaced_low", "spending"]]
    .mean()
    .rename(index=policy_set_name, columns=MEASURE_NAMES)
    .rename_axis("Policies enacted")
)
averages = lesson_table(sweep_table, money=[MEASURE_NAMES["spending"]], digits=2,
                        title="Averages by policies enacted (residents of 12; spending per board)")
after_prediction("l5-best-single-policy", averages)
""",
    ),
    (
        "code",
        r"""
low_housed = sweep_table[MEASURE_NAMES["housed_low"]].sort_values(ascending=False)
chart = bar_chart(
    list(low_housed.index),
    {"low income": low_housed.tolist()},
    title="Average low income residents housed (of 12), by policies enacted "
    "(100,000 random boards)",
    value_label="average low income residents housed",
    value_max=12,
    whole_numbers=False,
)
after_prediction("l5-best-single-policy", chart)
""",
    ),
    (
        "md",
        r"""
### The ranking under other assumptions

That ranking is a result *in this model*. Score the same 100,000 boards again under each
assumption of the robustness table, one changed at a time (lesson 8 explains each switch; a
city budget leaves out the boards that spend more than it):
""",
    ),
    (
        "code",
        r"""
# NBVAL_CHECK_OUTPUT
from housing_lab.north_berkeley import DEFAULT_ASSUMPTIONS
from housing_lab.widgets import robustness_heat_table

same_boards = random_boards(100_000, seed=6)  # the boards of the sweep above
SINGLE = ["vacancy_control", "adu", "matching_funds", "affordable_100"]  # each enacted alone
ranking = {}
for assumption, model in DEFAULT_ASSUMPTIONS.items():
    scored = sweep(same_boards, model=model)
    if "within_budget" in scored.columns:  # only with a budget
        scored = scored[scored["within_budget"]]
    low = scored.groupby("policies", observed=True)["housed_low"].mean()
    ranking[assumption] = {policy_set_name(p): low[p] for p in SINGLE}
ranking = pd.DataFrame(ranking).rename_axis("Policy enacted alone")
ranking.columns.name = MEASURE_NAMES["housed_low"]
heat = robustness_heat_table(ranking, digits=2,
                             title="Average low income residents housed (of 12), "
                             "by the policy enacted alone, under each assumption")
after_prediction("l5-best-single-policy", heat)
""",
    ),
    (
        "after:l5-best-single-policy",
        r"""
{{claim:ranking-vacancy-control-first}} {{claim:ranking-costa-hawkins}}

A ranking leans on assumptions like any other result: before recommending the winner, ask
which assumption its first place needs, and whether that assumption is one the real policy
can meet.
""",
    ),
    (
        "md",
        r"""
> **What the model leaves out.** Averages over random boards are averages *of the model*:
>
> * **Demand is fixed** at 24 newcomers on every board; real demand responds to what is built.
> * **Filtering is instant:** empty market rate homes go to middle and low income newcomers at
>   no subsidy, which flatters boards with many market rate homes.
> * **Vacancy control is total** here, and not allowed in California for ordinary rentals since
>   Costa-Hawkins (phased in from 1996, vacancy decontrol complete from 1 January 1999; lesson 3).
> * **There is no budget under the rulebook**, so the sweep cannot show the real trade-off of
>   matching funds: more affordable homes for the same money (the budget column of the ranking
>   above, like lesson 8's budget switch, only leaves out the boards that spend too much).
> * **The state's random fill** is a game device; a real state steps in through laws such as
>   AB 2923 (minimum zoning and affordability on BART land) or SB 9, not by drawing tiles.
>
> The full list: [What the model leaves out](../docs/model_limits.md). The ranking leans on
> fixed demand and instant filtering: [Lesson 8, *Question the model*](08_question_the_model.ipynb) shows how
> lesson 3's boards change when either is switched.
""",
    ),
    ("md", "## Check yourself"),
    (
        "code",
        r"""
from housing_lab.widgets import reveal

reveal("l5-call-the-state")
""",
    ),
    (
        "md",
        r"""
### Things to try

The explorer below starts from the lesson's phase 1 (no code needed: choose a tile for each
square and a policy, then press the button).

* Make phase 1 four Low Income Public Housing Towers. How does the distribution move?
* Let the state fill phase 2 under 100% Affordable Housing: the state may then place only low
  or middle income tiles. Does that help low income residents on average?
""",
    ),
    (
        "code",
        """
from housing_lab.widgets import StateFillExplorer

StateFillExplorer(PHASE_1, seed=5)
""",
    ),
    (
        "md",
        r"""
### Going further

`sweep(...)` returns a pandas DataFrame with a column for every square, policy, existing home,
measure and card: `everything.columns` lists them. From a terminal,
`housing-lab nb sample --boards 1000 --seed 1 --out boards.jsonl` writes random boards with
their results.

## What you learned

* Calling the state trades control for a gamble; thousands of fills show the odds.
* A distribution says more than one example: look at the middle *and* the spread.
* A policy sweep compares policies over many boards, not just one.
* The real state steps in by law, not by lottery: targets (RHNA), rules on BART land (AB 2923),
  and approval by right for projects that meet written standards (SB 35, AB 2011, SB 9).

**Next:** [Lesson 6, *Streetcar*](06_streetcar.ipynb): remove single-family limits and connect
the new buildings with transit.
""",
    ),
]
