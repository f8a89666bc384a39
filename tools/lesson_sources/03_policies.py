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

rows = []
for board, tiles in BOARDS.items():
    for policy in POLICY_SETTINGS:
        policies = [] if policy == "none" else [policy]
        row = {"board": board, "policy": policy}
        try:
            out = score_scenario(make_scenario(tiles, policies, seed=3)).to_dict()
        except HousingLabError:
            rows.append({**row, "allowed": False})  # market homes in phase 2
            continue
        rows.append({
            **row, "allowed": True,
            "high housed": out["housed"]["high"], "middle housed": out["housed"]["middle"],
            "low housed": out["housed"]["low"],
            "displaced": sum(out["displaced"].values()), "spending $": out["spending"],
            "new homes": out["new_homes"]["total"],
        })
table = pd.DataFrame(rows).set_index(["board", "policy"])
counts = ["high housed", "middle housed", "low housed", "displaced", "new homes"]
table[counts] = table[counts].astype("Int64")  # whole numbers; <NA> where not allowed
""",
    ),
    (
        "code",
        r"""
# NBVAL_CHECK_OUTPUT
table
""",
    ),
    (
        "md",
        r"""
Numbers are easier to compare as a picture. Low income residents housed, per policy and board
(a missing bar means the policy is not allowed on that board):
""",
    ),
    (
        "code",
        r"""
import bqplot.pyplot as plt

allowed = table[table["allowed"]]
low = allowed["low housed"].unstack("policy").reindex(columns=POLICY_SETTINGS)
figure = plt.figure(title="Low income residents housed (of 12)",
                    layout={"width": "720px", "height": "380px"})
plt.bar(POLICY_SETTINGS, low.fillna(0).astype(int).to_numpy(), type="grouped",
        labels=list(low.index), display_legend=True, colors=["#8da0cb", "#f2c14e", "#c0392b"])
plt.ylim(0, 12)
plt.show()
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
""",
    ),
    (
        "code",
        r"""
from housing_lab.widgets import NorthBerkeleyLab

lab = NorthBerkeleyLab(seed=3)
lab.load_scenario({"tiles": BOARDS["market rate"], "seed": 3})
lab.keep_snapshot("market rate, no policy")
lab.set_policy("vacancy_control", True)
lab
""",
    ),
    ("md", "## Check yourself"),
    (
        "code",
        r"""
from housing_lab.widgets.quiz import ChoiceQuestion

public = allowed.loc["public housing"]
best = public["middle housed"].idxmax()
ChoiceQuestion(
    "The public housing board has no middle income homes. Which policy houses the most "
    "middle income residents there?",
    [p for p in POLICY_SETTINGS if p in public.index],
    answer=best,
    explanation=f"{best}: {public.loc[best, 'middle housed']} middle income residents housed, "
    f"against {public.loc['none', 'middle housed']} with no policy.",
    hint="Read the 'middle housed' column of the public housing rows.",
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

* Change `seed=3` to another number: the existing residents are shuffled differently. Which
  conclusions still hold?
* Combine two policies (the game allows one or two): `["vacancy_control", "adu"]`.

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
