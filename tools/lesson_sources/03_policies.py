CELLS = [
    (
        "md",
        r"""
# Lesson 3 · Policies, side by side

**Learning goals.** By the end of this lesson you can:

1. say what each of the four policies does, in one sentence each;
2. compare who is housed on the same board with and without a policy;
3. name a policy's cost: in money, or in what it no longer allows.

*Time: about 30 minutes.*
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

Here are three boards, from "build big, market rate" to "public housing":
""",
    ),
    (
        "code",
        r"""
import pandas as pd

from housing_lab.errors import HousingLabError
from housing_lab.north_berkeley import make_scenario, score_scenario
from housing_lab.north_berkeley.names import policy_name

BOARDS = {
    "market rate": {"B1": "tower_market", "C1": "tower_inclusionary_25", "B2": "tower_market",
                    "C2": "midrise_market", "A1": "townhouse_market",
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
        })
table = pd.DataFrame(rows).set_index(["Board", "Policy"])
counts = ["High income housed", "Middle income housed", "Low income housed", "Displaced",
          "New homes"]
table[counts] = table[counts].astype("Int64")  # whole numbers
""",
    ),
    (
        "code",
        r"""
# NBVAL_CHECK_OUTPUT
table.astype(object).where(table.notna(), "")  # an empty cell where the policy is not allowed
""",
    ),
    (
        "md",
        r"""
Numbers are easier to compare as a picture. Low income residents housed, per policy and board
(100% Affordable Housing forbids the market rate board's phase-2 buildings, so that board has no
result under it):
""",
    ),
    (
        "code",
        r"""
from housing_lab.widgets.lesson_charts import bar_chart

allowed = table[table["Allowed?"] == "yes"]
policies = [POLICY_LABEL[p] for p in POLICY_SETTINGS]
low = allowed["Low income housed"].unstack("Board").reindex(policies)
refused = {policy: [board for board in BOARDS if pd.isna(low.loc[policy, board])]
           for policy in policies}
labels = [f"{policy} (not allowed on the {', '.join(refused[policy])} board)"
          if refused[policy] else policy for policy in policies]
bar_chart(
    labels,
    {board: low[board].fillna(0).astype(float).tolist() for board in BOARDS},
    title="Low income residents housed (of 12), by policy and board",
    value_label="low income residents housed",
    colours=dict(zip(BOARDS, ["#0072B2", "#E69F00", "#009E73"], strict=True)),
    value_max=12,
)
""",
    ),
    (
        "md",
        r"""
### Things to notice

* **Vacancy control** stops displacement completely. Who pays for it? Look at the high income
  column: the newcomers who cannot displace anyone may not find a home.
* **ADUs** add 6 small homes at no public cost. Who gets them first?
* **Matching funds** change nothing about *who* is housed: they change the **spending**, and
  only when at least 7 low income homes are built.
* **100% affordable** is refused on the market rate board: it works by limiting *what can be
  built* in phase 2, not by changing the move-in.

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
from housing_lab.north_berkeley.names import INCOME_NAMES


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
from housing_lab.widgets.quiz import ChoiceQuestion

public = allowed.loc["public housing"]
best = public["Middle income housed"].idxmax()
ChoiceQuestion(
    "The public housing board has no middle income homes. Which policy houses the most "
    "middle income residents there?",
    list(public.index),
    answer=best,
    explanation=f"{best}: {public.loc[best, 'Middle income housed']} middle income residents "
    f"housed, against {public.loc['No policy', 'Middle income housed']} with no policy.",
    hint="Read the 'Middle income housed' column of the public housing rows.",
)
""",
    ),
    (
        "code",
        r"""
from housing_lab.widgets.quiz import reveal

reveal(
    "Matching funds never changed who was housed. Why would a city want them?",
    "They halve what affordable housing costs the city, so the same budget builds more. In "
    "the game, lower spending keeps cards like Fiscal Conservatives and the Developer happy.",
)
""",
    ),
    (
        "md",
        r"""
### Things to try

* In the lab, press **Reshuffle residents** (a different shuffle of who already lives here). Which
  conclusions still hold?
* Enact two policies at once (the game allows one or two), e.g. Vacancy Control and ADUs.

### Going further

The table above is a small **policy sweep**. Lesson 5 runs thousands of boards.

## What you learned

* Vacancy control protects existing residents and shifts the shortage to newcomers.
* ADUs add homes in existing houses; 100% affordable restricts what can be built;
  matching funds lower the cost.
* Comparing the same board with and without a policy separates the policy's effect from the
  board's.

**Next:** Lesson 4, *Who wants what*: the 22 constituents and what a coalition can agree on.
""",
    ),
]
