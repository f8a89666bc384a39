CELLS = [
    (
        "md",
        r"""
# Lesson 3 · Policies, side by side

**Learning goals.** By the end of this lesson you can:

1. say what each of the four policies does, in one sentence each;
2. compare who is housed on the same board with and without a policy;
3. name a policy's cost: in money, or in what it no longer allows.

*Time: 50 minutes, with starting up and the exit ticket.*
""",
    ),
    (
        "md",
        r"""
## What it is: the four policies

| policy | what it does |
|---|---|
| **Vacancy control** | Residents in existing apartments and houses cannot be displaced. |
| **100% affordable** | Every building placed in phase 2 may contain only low or middle income homes. |
| **Accessory dwelling units (ADUs)** | Each existing house can hold one more resident. |
| **Matching funds** | If at least 7 low income homes are built, housing costs half (parks and garages still $1). |

In the game, two policy cards are drawn and the table enacts one or both.

## How it works: the same boards, every policy

Here are three boards, from "build big, mostly market rate" to "public housing". The mostly
market rate board has five market rate buildings, two 25% inclusionary towers and a 50%
inclusionary midrise:
""",
    ),
    (
        "code",
        r"""
import pandas as pd

from housing_lab.errors import HousingLabError
from housing_lab.north_berkeley import INCOMES, make_scenario, policy_name, score_scenario

BOARDS = {
    "mostly market rate": {"B1": "tower_market", "C1": "tower_inclusionary_25",
                           "B2": "tower_market", "C2": "midrise_market", "A1": "townhouse_market",
                           "A2": "midrise_inclusionary_50", "A3": "tower_inclusionary_25",
                           "B3": "midrise_market", "C3": "park"},
    "mixed income": {"B1": "tower_inclusionary_50", "C1": "tower_social",
                     "B2": "tower_inclusionary_50", "C2": "midrise_inclusionary_50",
                     "A1": "townhouse_middle", "A2": "midrise_workforce",
                     "A3": "tower_workforce", "B3": "midrise_public", "C3": "garage"},
    "public housing": {"B1": "tower_public", "C1": "tower_public", "B2": "midrise_public",
                       "C2": "townhouse_low", "A1": "park", "A2": "midrise_public",
                       "A3": "tower_public", "B3": "townhouse_low", "C3": "park"},
}
POLICY_SETTINGS = ["none", "vacancy_control", "adu", "matching_funds", "affordable_100"]
POLICY_LABEL = {"none": "No policy", **{p: policy_name(p) for p in POLICY_SETTINGS[1:]}}

rows = []
for board, tiles in BOARDS.items():
    for policy in POLICY_SETTINGS:
        policies = [] if policy == "none" else [policy]
        row = {"Board": board, "Policy": POLICY_LABEL[policy]}
        try:
            out = score_scenario(make_scenario(tiles, policies, seed=3)).to_dict()
        except HousingLabError:
            rows.append({**row, "Allowed?": "no"})  # market homes in phase 2
            continue
        rows.append({
            **row, "Allowed?": "yes",
            "High income housed": out["housed"]["high"],
            "Middle income housed": out["housed"]["middle"],
            "Low income housed": out["housed"]["low"],
            "Displaced": sum(out["displaced"].values()), "Spending ($)": out["spending"],
            "New homes": out["new_homes"]["total"],
            "Homes left empty": sum(out["vacant"].values()),
            "Turned away: high, middle, low": ", ".join(
                str(out["outcomes"][income]["newcomer_left"]) for income in INCOMES),
        })
table = pd.DataFrame(rows).set_index(["Board", "Policy"])
""",
    ),
    (
        "md",
        r"""
### Predict first

Before you look at the table, commit to two predictions. The model answers when you press
**Run the model**.
""",
    ),
    (
        "code",
        r"""
from housing_lab.widgets import PredictThenRun

PredictThenRun("l3-vacancy-control")
""",
    ),
    (
        "code",
        r"""
PredictThenRun("l3-market-or-public")
""",
    ),
    (
        "code",
        r"""
# NBVAL_CHECK_OUTPUT
from housing_lab.widgets import after_prediction, lesson_table

# an empty cell where the policy is not allowed
after_prediction(
    ("l3-vacancy-control", "l3-market-or-public"),
    lesson_table(table, money=["Spending ($)"], title="Four policies on three boards (seed 3)"),
)
""",
    ),
    (
        "md",
        r"""
Numbers are easier to compare as a picture. Low income residents housed, per policy and board
(100% Affordable Housing forbids the mostly market rate board's phase-2 buildings, so that board
has no result under it):
""",
    ),
    (
        "code",
        r"""
from housing_lab.widgets import after_prediction, bar_chart

allowed = table[table["Allowed?"] == "yes"]
policies = [POLICY_LABEL[p] for p in POLICY_SETTINGS]
low = allowed["Low income housed"].unstack("Board").reindex(policies)
refused = {policy: [board for board in BOARDS if pd.isna(low.loc[policy, board])]
           for policy in policies}
labels = [f"{policy} (not allowed on the {', '.join(refused[policy])} board)"
          if refused[policy] else policy for policy in policies]
chart = bar_chart(
    labels,
    {board: low[board].fillna(0).astype(float).tolist() for board in BOARDS},
    title="Low income residents housed (of 12), by policy and board",
    value_label="low income residents housed",
    colours=dict(zip(BOARDS, ["#0072B2", "#E69F00", "#009E73"], strict=True)),
    value_max=12,
)
after_prediction(("l3-vacancy-control", "l3-market-or-public"), chart)
""",
    ),
    (
        "after:l3-vacancy-control+l3-market-or-public",
        r"""
### Things to notice

* {{claim:l3-vacancy-control-stops-displacement}} Who pays for it?
  {{claim:l3-vacancy-control-high-income}}
* **ADUs** add 6 small homes at no public cost, but in these rules only high and middle
  income residents may live in an ADU: the printed rulebook's low income step lists new
  buildings only. ADUs help low income residents only indirectly, when a newcomer who takes an
  ADU does not displace anyone. {{claim:l3-adus-not-for-low-income}} Real ADUs are rented to
  whoever the owner chooses.
* {{claim:l3-matching-funds-change-no-one}}
* {{claim:l3-affordable-100-refused}} it works by limiting *what can be
  built* in phase 2, not by changing the move-in.

> **What the model leaves out.** Read the table with these in mind:
>
> * **Instant filtering.** Empty market rate homes go to middle and low income newcomers at no
>   subsidy, {{claim:l3-box-market-board}}
> * **Empty restricted homes.** The column *Homes left empty* counts income-restricted homes (and
>   ADUs) nobody in the model may fill. Real affordable homes are open to any eligible household.
> * **Vacancy control is total.** Here it forbids every displacement. Real rent control limits
>   rent rises and evictions, and in California vacancy control itself is not allowed (below).
> * **ADUs on every house, at once, for free**; real ADUs are each a homeowner's choice.
> * **No budget under the rulebook.** Spending is counted but never runs out, so matching funds
>   cannot "build more": they only lower the bill (lesson 8 adds a budget as a switch).
>
> The full list: [What the model leaves out](../docs/model_limits.md). Prediction 2's answer
> depends on instant filtering: [Lesson 8, *Question the model*](08_question_the_model.ipynb) switches it off and
> shows what is left. It depends on demand too: the next cell changes that one assumption.

### One assumption switched: demand

The rulebook sends 8 high income newcomers whatever is built. The model can be told otherwise
(`make_scenario(..., model=...)`; lesson 8 explains every switch). Here are prediction 2's two
boards again, with 14 high income newcomers (new jobs nearby) and with 4 (the others go
elsewhere):
""",
    ),
    (
        "code",
        """
# NBVAL_CHECK_OUTPUT
DEMAND = {
    "Rulebook: 8 high income newcomers": None,
    "More: 14 high income newcomers": {"newcomers": {"high": 14}},
    "Fewer: 4 high income newcomers": {"newcomers": {"high": 4}},
}
demand_rows = []
for setting, model in DEMAND.items():
    market, public = (score_scenario(make_scenario(BOARDS[board], [], seed=3, model=model))
                      .to_dict() for board in ["mostly market rate", "public housing"])
    demand_rows.append({
        "Demand": setting,
        "Mostly market rate board: low income housed": market["housed"]["low"],
        "Public housing board: low income housed": public["housed"]["low"],
        "Market rate homes left empty (mostly market rate board)": market["vacant"]["market"],
    })
demand = lesson_table(pd.DataFrame(demand_rows).set_index("Demand"),
                      title="Prediction 2's boards when demand changes (seed 3, no policy)")
after_prediction(("l3-vacancy-control", "l3-market-or-public"), demand)
""",
    ),
    (
        "after:l3-vacancy-control+l3-market-or-public",
        r"""
{{claim:l3-about-the-same}} {{claim:l3-about-the-same-demand}} A conclusion of the model holds
only as long as the assumptions it needs: "about the same" needs instant filtering *and* the
rulebook's demand.

### The policies in the real world

* **Rent control in Berkeley** began with a 1980 voter-passed ordinance that limits rent rises
  and requires a good cause for eviction. Berkeley also had *vacancy control*: the rent stayed
  controlled when a tenant moved out.
* **Costa-Hawkins** is the state law that ended that. Passed in 1995, it was phased in from
  1996 to 1998, and vacancy decontrol was complete from **1 January 1999**: when a unit becomes
  vacant, the owner may set a new rent, and single-family houses, condominiums and newer
  buildings are exempt from rent control. The game's *Vacancy Control* card is a policy
  California cities cannot enact today.
* **AB 1482 (2019)**, the Tenant Protection Act, added a *statewide* cap from 2020: for most
  rental homes older than 15 years, rent may rise by at most 5% plus inflation (never more
  than 10%) a year, and a tenant of a year or more can be evicted only for a "just cause".
  Rents still reset between tenants: it limits rises, it does not forbid displacement.
* **What rent control does:** a study of San Francisco's 1994 expansion of rent control
  (published in the *American Economic Review*) found that it limited renters' moves by about
  20% and lowered displacement from the city, but landlords of covered buildings cut their
  rental housing by 15% (selling to owner-occupants or redeveloping), which likely drove market
  rents up in the long run. The game shows the first effect and leaves out the second.
* **ADUs:** state laws in force since 2020 limit the rules (size, number, setbacks, parking)
  a California city may put on accessory dwelling units and allow an ADU and a smaller "junior"
  ADU on one lot; the legislature calls ADUs an essential part of meeting the state's housing
  needs. Each one is still built only if a homeowner decides to.
* **New market rate housing:** an economist followed the previous addresses of 52,000 people who
  moved into new buildings, back through six rounds of moves; the chain reached lower-income
  neighbourhoods quickly. In the published study, a new market rate building housing 100
  people ultimately leads 45 to 70 people to move out of below-median-income neighbourhoods,
  most of them within three years. That is real but slower and smaller than the game's instant
  filtering, where every empty market rate home goes to a lower income newcomer the same day.
* **Matching funds in real life:** Berkeley's voters passed **Measure O** in 2018, a $135
  million bond for affordable housing. That is the city's own, local money; affordable builders
  use it as the local share that county, state, federal and tax-credit funds then match, so each
  local dollar builds more homes. That outside match is what the game's *Matching Funds* card
  stands for, and why it cannot show much here: under the rulebook the model has no budget.
* **Inclusionary and 100% affordable:** cities ask new buildings to include a share of
  affordable homes (AB 2923 asks at least 20% on BART land); the approved North Berkeley plan
  is more than half subsidised affordable homes.

*Sources: S2, S3, S10 to S19, S31 and S33 in [the source list](../docs/sources.md).*

## How to use it: compare in the lab

Build a board, press **Keep a snapshot to compare**, then tick a policy. The two charts appear
side by side, with a table of what changed.

Which board and policy show the biggest change? The computer tries every board with every
policy and picks the pair that moves the most residents:
""",
    ),
    (
        "code",
        r"""
# NBVAL_CHECK_OUTPUT
from housing_lab.north_berkeley import INCOME_NAMES


def housed(board, policies):
    return score_scenario(make_scenario(BOARDS[board], policies, seed=3)).to_dict()["housed"]


changes = []
for board in BOARDS:
    before = housed(board, [])
    for policy in POLICY_SETTINGS[1:]:
        try:
            after = housed(board, [policy])
        except HousingLabError:
            continue  # not allowed on this board
        moved = sum(abs(after[income] - before[income]) for income in before)
        changes.append((moved, board, policy, before, after))
moved, demo_board, demo_policy, before, after = max(changes, key=lambda change: change[0])
assert before != after  # the demo below must show a difference
print(f"On the {demo_board} board, {policy_name(demo_policy)} changes who is housed:")
for income in before:
    print(f"  {INCOME_NAMES[income]}: {before[income]} without it, {after[income]} with it")
""",
    ),
    (
        "md",
        r"""
Here is that board in the lab, with a snapshot kept before the policy was enacted. Compare the
two charts, then try the other policies yourself.
""",
    ),
    (
        "code",
        r"""
from housing_lab.widgets import NorthBerkeleyLab

lab = NorthBerkeleyLab(seed=3)
lab.load_scenario({"tiles": BOARDS[demo_board], "seed": 3})
lab.keep_snapshot(f"{demo_board} board, no policy")
lab.set_policy(demo_policy, True)
lab
""",
    ),
    ("md", "## Check yourself"),
    (
        "code",
        r"""
from housing_lab.widgets import ChoiceQuestion

ChoiceQuestion("l3-why-empty")
""",
    ),
    (
        "code",
        r"""
from housing_lab.widgets import reveal

reveal("l3-matching-funds")
""",
    ),
    (
        "md",
        r"""
### Things to try

* In the lab, press **Reshuffle residents** (a different shuffle of who already lives here). Which
  conclusions still hold? *Look for:* whether each policy still moves the counts the same way.
* Enact two policies at once (the game allows one or two), e.g. Vacancy Control and ADUs.
  *Look for:* whether the ADUs go to the newcomers vacancy control would otherwise turn away.

### Going further

The table above is a small **policy sweep**. Lesson 5 runs thousands of boards.

## What you learned

* Vacancy control protects existing residents and shifts the shortage to newcomers.
* ADUs add homes in existing houses; 100% affordable restricts what can be built;
  matching funds lower the cost.
* Comparing the same board with and without a policy separates the policy's effect from the
  board's.

**Next:** [Lesson 4, *Who wants what*](04_who_wants_what.ipynb): the 22 constituents and what a
coalition can agree on.
""",
    ),
]
