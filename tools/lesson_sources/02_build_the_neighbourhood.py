CELLS = [
    (
        "md",
        r"""
# Lesson 2 · Build the neighbourhood

**Learning goals.** By the end of this lesson you can:

1. read a building tile: how many homes it has, who may live in them, what it costs;
2. explain the move-in order step by step;
3. say who stays, who is displaced and who cannot move in, for any board;
4. name the ways real tenants lose their homes (rent rises, no-fault evictions, the Ellis Act,
   sales) and compare them with the model's one-day move-in.

*Time: 40 minutes, with starting up and the exit ticket.*
""",
    ),
    (
        "md",
        r"""
## What it is

Each of the 9 squares can take one **tile**. A tile's homes are its quadrants:

* a blank quadrant is a **market rate** home: anyone may rent it;
* **M** is a **middle income** home: middle or low income residents only;
* **L** is a **low income** home: low income residents only.

Some tiles cost public money (in $). Here is the whole catalogue:
""",
    ),
    (
        "code",
        r"""
# NBVAL_CHECK_OUTPUT
import pandas as pd

from housing_lab.north_berkeley import load_catalogue
from housing_lab.widgets import lesson_table

tiles = pd.DataFrame(
    [
        {
            "Building": t.name,
            "Market rate homes": t.count("market"),
            "Middle income homes": t.count("middle"),
            "Low income homes": t.count("low"),
            "Cost ($)": int(t.cost) if t.cost.denominator == 1 else float(t.cost),
        }
        for t in load_catalogue().values()
    ]
).set_index("Building")
lesson_table(tiles, money=["Cost ($)"], title=f"The {len(tiles)} tiles: homes and cost")
""",
    ),
    (
        "md",
        r"""
## How it works: the move-in

When the board is finished, 24 newcomers arrive: 8 high, 8 middle and 8 low income.

1. **High income** newcomers take new market rate homes; then (with the ADU policy) ADUs;
   then they **displace** low, then middle, income residents of existing houses, then of
   existing apartments.
2. **Middle income** newcomers, plus any middle income residents who were displaced, take new
   middle income homes, then vacant market homes, then ADUs; then they displace low income
   residents of existing houses and apartments.
3. **Low income** newcomers, plus the displaced, take any vacant new home.
4. Anyone still without a home leaves the neighbourhood.

With **vacancy control** nobody can be displaced.

Let's follow one board. First, who lives in the 12 existing homes (seed 1)?
""",
    ),
    (
        "code",
        r"""
# NBVAL_CHECK_OUTPUT
from housing_lab.north_berkeley import INCOME_NAMES, describe_home, make_scenario, score_scenario

example = make_scenario(
    {"B1": "tower_market", "C1": "tower_inclusionary_25", "B2": "midrise_workforce",
     "C2": "park"},
    policies=[],
    seed=1,
)
lesson_table(
    [{"Home": describe_home(home, example), "Who lives there": INCOME_NAMES[income]}
     for home, income in example.existing.items()],
    index="Home", title="Who lives in the 12 existing homes (seed 1)",
)
""",
    ),
    (
        "code",
        r"""
# NBVAL_CHECK_OUTPUT
from housing_lab.north_berkeley import outcome_rows

result = score_scenario(example)
outcomes = pd.DataFrame(outcome_rows(result.to_dict()["outcomes"])).T
outcomes["housed in the end"] = outcomes.iloc[:, :3].sum(axis=1)
lesson_table(outcomes.rename_axis("Residents"), title="What happened to each income group")
""",
    ),
    (
        "md",
        r"""
The column *newcomers who found no home* counts the newcomers turned away. The other
side of the ledger is the homes nobody lives in: the engine counts them by kind.
""",
    ),
    (
        "code",
        r"""
# NBVAL_CHECK_OUTPUT
from housing_lab.north_berkeley import vacant_rows

lesson_table(pd.DataFrame(vacant_rows(result.to_dict()["vacant"]),
                          index=pd.Index(["Homes left empty"], name="")),
             title="Homes nobody lives in after the move-in")
""",
    ),
    (
        "md",
        r"""
In the outcomes, each row (without *housed in the end*) adds up to 12: each resident is housed or not. The **move-in log** tells the
story in order. The first 12 events:
""",
    ),
    (
        "code",
        r"""
# NBVAL_CHECK_OUTPUT
from housing_lab.north_berkeley import event_rows

events = pd.DataFrame(event_rows(result.move_in, example))
events.insert(0, "Order", range(1, len(events) + 1))
lesson_table(events.head(12), title=f"The first 12 of {len(events)} move-in events")
""",
    ),
    ("md", "## Check yourself: predict, then run"),
    (
        "code",
        r"""
from housing_lab.widgets import PredictThenRun

PredictThenRun("l2-swap-b1")
""",
    ),
    (
        "md",
        r"""
Now watch it happen. The board below shows this example: press **« Before move-in**, then
**Step ▸** (or **▶ Play move-in**) and follow the residents.
""",
    ),
    (
        "code",
        r"""
from housing_lab.widgets import NorthBerkeleyBoard

NorthBerkeleyBoard(result)
""",
    ),
    (
        "md",
        r"""
### Things to notice

* {{claim:l2-example-high-income}}
* Whom do they displace first: a low or a middle income resident? In a house or an apartment?
* A low income resident who was displaced may still find a home later, in a vacant new home.

## How to use it: build your own

Use the lab below. Try to build a board where **all 12 low income residents are housed**.
""",
    ),
    (
        "code",
        r"""
from housing_lab.widgets import NorthBerkeleyLab

lab = NorthBerkeleyLab(seed=1)
lab
""",
    ),
    (
        "md",
        r"""
> **What the model leaves out.** The move-in is a sorting rule, not a housing market. Here:
>
> * **Demand is fixed.** Exactly 24 newcomers come whatever is built: the rulebook's "if you
>   don't build it, they'll still come". Real demand depends on rents, jobs and transport.
> * **Everyone rents.** Every existing resident, in a house too, can be displaced in one step.
>   Many real residents own their homes; renters are displaced over years (rent rises,
>   evictions, sales), not on one day.
> * **Empty market rate homes go to whoever is next**, at no extra cost, so a middle or low
>   income newcomer can rent a brand-new market rate home. Real new homes rent at high prices.
>
> The full list, with what real cities do instead: [What the model leaves out](../docs/model_limits.md).

## Displacement in the real world

In the model, displacement happens in one step: a newcomer who can pay more takes a resident's
home on move-in day. Real displacement is slower, and it has names:

* **Rent increases.** The rent rises until the tenant cannot pay and moves out. Since 2020,
  California's **AB 1482** caps the yearly rise for most rentals older than 15 years at 5% plus
  inflation (never more than 10%); Berkeley's own rent control, since 1980, limits rises for a
  sitting tenant in older apartments. Between tenants the rent resets to the market
  (**Costa-Hawkins**, lesson 3): a tenant who leaves loses the old rent for good.
* **No-fault evictions.** Under AB 1482 a landlord may end a tenancy of a year or more only for a
  *just cause*: the tenant's fault (not paying the rent, for example) or a *no-fault* reason:
  the owner or a relative moving in, taking the home off the rental market, demolishing or
  substantially remodelling it. A no-fault eviction owes the tenant relocation help of one
  month's rent. Berkeley has required good cause for evictions since 1980.
* **The Ellis Act** (1985): an owner may evict every tenant of a building to go out of the
  rental business. A city may regulate how (notice, relocation payments) but cannot make an
  owner stay a landlord.
* **Sales and conversions.** Selling to an owner-occupant or redeveloping removes rental homes:
  in San Francisco, landlords of buildings newly covered by rent control in 1994 cut the rental
  housing they offered by 15% this way.

The model's "outbid" story is closest to the first: someone who can pay more. The others are
decisions by owners, and the model has no owners, only tenants. Ask of any real case: who
decided, how fast did it happen, and what did the law require before the tenant had to go?

*Sources: S13, S14, S17, S33 and S40 in [the source list](../docs/sources.md).*
""",
    ),
    (
        "code",
        r"""
from housing_lab.widgets import ChoiceQuestion

ChoiceQuestion("l2-workforce-midrise")
""",
    ),
    (
        "md",
        r"""
### Things to try

* Build a board with no market homes at all. Where do the high income newcomers go?
  {{claim:l2-try-no-market-homes}}
* Fill all 9 squares with Low Income Public Housing Towers. How much does it cost?
  *Look for:* the spending, and how many of the new low income homes stay empty: there are only
  12 low income residents in the model.

### Going further

**Save board** downloads your board as a file. Your teacher can score it again later, or compare
boards from the whole class.

## What you learned

* A tile's homes decide **who may live there**; its cost is public spending.
* Move-in goes **high, then middle, then low income**, and high income residents displace the
  others when there are not enough homes.
* Every resident ends up **stayed, newcomer housed, displaced and rehoused, displaced and
  left, or unable to move in**.
* Real tenants are displaced over months and years, by rent rises, no-fault evictions, the Ellis
  Act and sales; state law (AB 1482) and Berkeley's ordinance cap the first and set rules for
  the second, while going out of the rental business and selling stay the owner's choice.

**Next:** [Lesson 3, *Policies, side by side*](03_policies.ipynb) compares the four policies on
the same boards.
""",
    ),
]
