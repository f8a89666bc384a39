CELLS = [
    (
        "md",
        r"""
# Lesson 4 · Who wants what

**Learning goals.** By the end of this lesson you can:

1. read the 22 constituent cards and say what each group wants;
2. name who took part in the real North Berkeley BART debate, what they asked for, which cards
   come closest to them and which cards had no real voice;
3. turn a real ask (parking, heights) into a card's condition, and check the approved plan
   against it;
4. find pairs of goals that conflict, using thousands of boards;
5. use an exact search to find the best board a coalition could agree on, and whether every
   member can avoid a loss.

*Time: 45 minutes, with starting up and the exit ticket. Three parts are marked **if you have
time** at the end: the coach's fewest changes, the money-against-homes frontier and asking the
coach yourself.*
""",
    ),
    (
        "md",
        r"""
## What it is: 22 constituents

Each card is a group with a stake in the neighbourhood. It scores **+1** when its goal is met,
**-1** when things go too far the other way, and can score both (net 0).
""",
    ),
    (
        "code",
        r"""
# NBVAL_CHECK_OUTPUT
import pandas as pd

from housing_lab.north_berkeley import cards
from housing_lab.widgets import lesson_table

deck = pd.DataFrame(
    [{"Card": c.name, "+1 when": c.plus_text, "-1 when": c.minus_text} for c in cards().values()]
)
lesson_table(deck, index="Card", title=f"The {len(deck)} constituent cards")
""",
    ),
    (
        "md",
        r"""
## The real debate: who wanted what

The cards are the game designers' sketches of positions. The real plan for the North Berkeley
BART parking lots (2018 to 2024) had real participants, and each asked for something specific.
Before you read the table, predict who asked for what:
""",
    ),
    (
        "code",
        r"""
from housing_lab.widgets import ChoiceQuestion

ChoiceQuestion("l4-real-asks")
""",
    ),
    (
        "after:l4-real-asks",
        r"""
| Who | What they asked for | Cards closest to them |
|---|---|---|
| **The state and BART**: the Legislature's AB 2923 (2018), BART's affordable housing policy (2016) | Dense housing on BART's lots: zoning for at least 7 stories and 75 homes per acre, at most one parking space for two homes, at least 20% of the homes affordable | Urbanists, Inclusionary Housing for All |
| **Neighbours wary of the project** (the first public meeting, 2018, and the hearings after it) | Buildings in scale with the low-rise streets, stepping down towards the houses across the street; worries about parking, traffic and the neighbourhood's character; doubt that new for-profit housing lowers housing costs | Stop the Shadows, Save Our Views, Friends of Neighborhood Character, Save Our Parking |
| **Residents and groups for more housing** | Homes for people priced out ("our kids who can't afford to live here") and for commuters who would not need to drive; in 2022 many speakers urged 12 stories rather than 7 | Urbanists, Middle Class Millennials, The Bike Lobby |
| **Riders who drive to the station** | Keeping parking (the approved plan keeps a garage; a council member saw less parking as a step towards fewer cars) | East Bay Park and Ride Coalition, Save Our Parking |
| **The builders, as one team**: BRIDGE Housing, East Bay Asian Local Development Corporation and Insight Housing (affordable), AvalonBay (market rate) | 739 homes, more than half affordable to households at 20% to 70% of area median income, 358 market-rate; looser design rules so the project could be financed | Affordable Housing Organizations, Developer |
| **The city**: the council and the area's council member | Zoning for 7 stories (up to 12 with the state density bonus), buildings stepping down at the edges towards the houses across the street | Urbanists (height), Stop the Shadows (stepping down) |
| **The voters of Measure O** (2018) | $135 million of city bonds for affordable homes for low and middle income households, passed with 77.5% yes; the station's affordable homes would use it | No card fits: no card asks for public money. Closest in what the money is for: Affordable Housing Organizations, Middle Class Millennials. Not Fiscal Conservatives, who want spending low |
| **Construction workers** | AB 2011, under which the plan was approved, requires prevailing wages and other labour standards | Labor Unions |

**Cards with no real voice.** In the sources we found no organised group speaking as **Refuse
Capitalism**, **Eco-Primitivists**, **Tech Corporations**, **Real Estate Speculators**,
**Landlords**, **People Concerned About Property Values** or the **North Berkeley Business
Improvement District** in this debate: treat them as "what if someone argued this?". And the
people with the most at stake had no card and rarely a voice: the future residents of the 739
homes, the game's 24 newcomers.

### Real asks as card conditions, and the approved plan

A card is a yes-or-no condition on the board. Here are three real asks written as conditions the
game can check, the cards that come closest, and the approved plan (739 homes in 13 buildings
of three to eight stories, 381 of them affordable, a parking garage) against the real ask:

| Real ask | As a card condition | Closest cards | Does the approved plan meet it? |
|---|---|---|---|
| At most **one parking space for two homes** (AB 2923) | A game garage has no number of spaces, so no card can count them. Nearest: "at most 1 garage" (the Bike Lobby and the Eco-Primitivists lose a point with more than 1) | The Bike Lobby, Eco-Primitivists (a cap); Save Our Parking wants the opposite, a minimum of 1 garage for every 6 new homes | One garage, so the card version holds; the number of spaces is not in our sources, so the real 1-for-2 cap cannot be checked from them |
| **7 stories** (the council's zoning) **or 12** (many speakers in 2022, allowed with the density bonus) | The game has three heights and no story counts. Reading a tower as the 12-story side and a midrise as the 7-story side: "12" is towers allowed anywhere; "7, stepping down" is no tower, and no tower or midrise next to Virginia Street | Urbanists (at least 6 squares with a midrise or tower); Save Our Views (no tower); Stop the Shadows (nothing tall next to Virginia Street) | Three to eight stories: at its tallest one story above the 7-story zoning, four below 12, so closer to the 7-story side. Where the low buildings stand is not in our sources |
| At least **20% affordable** (AB 2923, BART) | At least one home in five low or middle income | Inclusionary Housing for All (every housing square has a low or middle income home) | Yes: all but AvalonBay's 358 market-rate homes, 381 of 739 (52%), are affordable |

*Sources: S1 to S3, S25 to S27, S29, S31, S36 and S39 in [the source list](../docs/sources.md).*
""",
    ),
    (
        "md",
        r"""
## How it works: which goals conflict?

We score **200,000 random boards** (every square filled at random, a random policy set, random
existing residents) in one go. For every pair of cards we count how often **both** score +1.
A pair that almost never does is a real conflict.
""",
    ),
    (
        "code",
        r"""
from IPython.display import display

from housing_lab.north_berkeley import CARD_IDS, random_boards, sweep
from housing_lab.widgets import ProgressBar

bar = ProgressBar("Scoring boards")
display(bar)
boards = sweep(random_boards(200_000, seed=4), progress=bar)
plus = (boards[list(CARD_IDS)] == 1).to_numpy()
both = (plus.T.astype(float) @ plus.astype(float)) / len(boards)
""",
    ),
    (
        "md",
        r"""
### Predict first

The Developer wants market rate homes and low spending; Affordable Housing Organizations want
every low income resident housed. Before the table below shows which pairs can both win, commit
to a prediction about these two. The model answers when you press **Run the model**.
""",
    ),
    (
        "code",
        r"""
from housing_lab.widgets import PredictThenRun

PredictThenRun("l4-developer-and-affordable")
""",
    ),
    (
        "code",
        r"""
import numpy as np

from housing_lab.widgets import after_prediction, bar_chart, heat_table

names = [cards()[c].name for c in CARD_IDS]
heat = heat_table(
    np.round(both * 100),
    names,
    names,
    title="How often do two constituents both score +1?",
    unit="% of 200,000 random boards; darker means more often",
)
after_prediction("l4-developer-and-affordable", heat)
""",
    ),
    ("md", "Pairs that **never** both won on those 200,000 boards:"),
    (
        "code",
        r"""
# NBVAL_CHECK_OUTPUT
never = [
    (names[i], names[j])
    for i in range(len(CARD_IDS)) for j in range(i + 1, len(CARD_IDS))
    if both[i, j] == 0
]
pairs_count = len(CARD_IDS) * (len(CARD_IDS) - 1) // 2
never_table = lesson_table(pd.DataFrame(never, columns=["Card", "and card"]),
                           title=f"{len(never)} of {pairs_count} pairs never both scored +1")
after_prediction("l4-developer-and-affordable", never_table)
""",
    ),
    (
        "md",
        r"""
Random boards can miss a rare board where both win. The **exact solver** searches *every*
board (15 tiles on 9 squares: about 38 billion, times the policy sets) by grouping boards that
the cards cannot tell apart. It answers in well under a second:
""",
    ),
    (
        "code",
        r"""
# NBVAL_CHECK_OUTPUT
from housing_lab.north_berkeley import solve

pairs = [("developer", "refuse_capitalism"), ("save_our_views", "urbanists"),
         ("property_values", "affordable_housing_orgs"), ("developer", "labor_unions")]
rows = []
for a, b in pairs:
    best = solve([a, b], seed=0)
    rows.append({"Cards": f"{cards()[a].name} + {cards()[b].name}",
                 "Best total": best.score,
                 "Both +1 possible?": "yes" if best.cards[a] == best.cards[b] == 1 else "no"})
pairs_table = lesson_table(rows, title="The exact solver's best board for four pairs")
after_prediction("l4-developer-and-affordable", pairs_table)
""",
    ),
    (
        "md",
        r"""
## How to use it: the coalition explorer

Choose some cards (Ctrl- or Cmd-click for several) and press **Find the best board**. The
explorer shows the best board for your coalition, each card's score, and whether there is a
board where **no** card of yours loses a point. It starts with a coalition about *place*:
Stop the Shadows, the Urbanists and Neighbors for More Parks. (Try the Developer and
Affordable Housing Organizations too: the prediction above asked about them.) The
**Assumption** list solves again under one of the model's switches; leave it at *The rulebook*
for now.
""",
    ),
    (
        "code",
        r"""
from housing_lab.widgets import CoalitionExplorer, after_prediction

explorer = CoalitionExplorer(["stop_the_shadows", "urbanists", "more_parks"])
explorer.find()
after_prediction("l4-developer-and-affordable", explorer)
""",
    ),
    (
        "md",
        r"""
### Things to notice

* Some conflicts are about **money**: Fiscal Conservatives want low spending, and public housing
  costs money, so they pull against boards built mostly of public housing. Whether a money goal
  really conflicts with a goal about **who is housed** depends on the model's assumptions: the
  prediction at the start of the lesson asked about one such pair.
* Some conflicts are about **place**, not money: Stop the Shadows and Urbanists disagree about
  tall buildings.
* A coalition that looks impossible can sometimes be satisfied by a clever board: the exact
  search finds it.
* The coach (under *If you have time*) shows that the smallest change for one card often
  costs another card a point: small changes have winners and losers too.
""",
    ),
    ("md", "## Check yourself"),
    (
        "code",
        r"""
from housing_lab.widgets import reveal

reveal("l4-all-22")
""",
    ),
    (
        "after:l4-developer-and-affordable",
        r"""
> **What the model leaves out.** The coalitions above are coalitions *in the model*:
>
> * **Instant filtering** lets market rate homes house low income newcomers at no cost, {{claim:l4-box-both-win}}
>   Real studies find a slower, partial filtering: the cell after this box switches to it.
> * **Fixed demand and no budget:** spending is the game's tile prices (the frontier at the end
>   uses them too), and any board can be paid for; a real city chooses under a budget and a changing demand.
> * **Cards score yes or no:** real groups care about degrees (how many homes, how tall, how much
>   parking), negotiate and change their minds; a card at +1 is not a satisfied person.
> * **The coach's residents never move:** a real change to a plan also changes who applies, who
>   sells and who objects.
>
> The full list: [What the model leaves out](../docs/model_limits.md). [Lesson 8, *Question the model*](08_question_the_model.ipynb)
> solves the Developer-and-Affordable coalition again under every switch.

### One assumption switched: partial filtering

Suppose new market rate homes go to high and middle income newcomers only, as real studies
suggest (they reach low income households slowly and partly). The cell scores the board above
again with that switch, then asks the exact solver again:
""",
    ),
    (
        "code",
        """
# NBVAL_CHECK_OUTPUT
from housing_lab.north_berkeley import (
    default_catalogue,
    make_scenario,
    policy_set_name,
    score_scenario,
)

PARTIAL_FILTERING = {"market_homes_for": ["high", "middle"]}  # new market homes: high, middle
PAIR = ["developer", "affordable_housing_orgs"]
catalogue = default_catalogue()


def in_words(scenario) -> str:
    tiles = pd.Series([catalogue[t].name for t in scenario.tiles.values()]).value_counts()
    return ", ".join(f"{n} {name}{'s' if n > 1 else ''}" for name, n in tiles.items())


rulebook_best = solve(PAIR, seed=0).scenario
rows = []
for label, scenario in [
    ("The rulebook's best board, scored with partial filtering",
     make_scenario(rulebook_best.tiles, rulebook_best.policies, rulebook_best.existing,
                   model=PARTIAL_FILTERING)),
    ("Solved again with partial filtering", solve(PAIR, seed=0, model=PARTIAL_FILTERING).scenario),
]:
    out = score_scenario(scenario).to_dict()
    rows.append({"": label, "Board": in_words(scenario),
                 "Policies": policy_set_name(sorted(scenario.policies)),
                 "Developer": out["constituents"]["developer"]["score"],
                 "Affordable Housing Organizations":
                     out["constituents"]["affordable_housing_orgs"]["score"],
                 "Low income housed": out["housed"]["low"],
                 "Spending ($)": float(out["spending"])})
switched = lesson_table(pd.DataFrame(rows).set_index(""), money=["Spending ($)"],
                        signed=["Developer", "Affordable Housing Organizations"],
                        title="The Developer and Affordable Housing Organizations, "
                        "partial filtering")
after_prediction("l4-developer-and-affordable", switched)
""",
    ),
    (
        "after:l4-developer-and-affordable",
        r"""
{{claim:l4-partial-filtering-board}} {{claim:l4-partial-filtering-solved}} So the conclusion
"both can win" survives this switch, but the board that carries it changes: with slower
filtering it takes inclusionary buildings, not market rate homes alone.

### One policy taken away: no Vacancy Control

Every board above that pleases the pair enacts **Vacancy Control**, and California law
(Costa-Hawkins, lesson 3) forbids vacancy control for ordinary rentals: a real city could not
enact that board. The cell asks the exact solver again, with every policy set that holds Vacancy
Control left out:
""",
    ),
    (
        "code",
        r"""
# NBVAL_CHECK_OUTPUT
import itertools

from housing_lab.north_berkeley import POLICIES

legal_sets = [list(s) for k in (1, 2) for s in itertools.combinations(POLICIES, k)
              if "vacancy_control" not in s]
legal = solve(PAIR, seed=0, policy_sets=legal_sets)
out = score_scenario(legal.scenario).to_dict()
legal_table = lesson_table(
    pd.DataFrame([{"Board": in_words(legal.scenario),
                   "Policies": policy_set_name(sorted(legal.scenario.policies)),
                   "Developer": out["constituents"]["developer"]["score"],
                   "Affordable Housing Organizations":
                       out["constituents"]["affordable_housing_orgs"]["score"],
                   "Low income housed": out["housed"]["low"],
                   "Spending ($)": float(out["spending"])}]),
    money=["Spending ($)"], signed=["Developer", "Affordable Housing Organizations"],
    title="The Developer and Affordable Housing Organizations, without Vacancy Control")
after_prediction("l4-developer-and-affordable", legal_table)
""",
    ),
    ("after:l4-developer-and-affordable", "{{claim:l4-without-vacancy-control}}"),
    (
        "md",
        r"""
### Things to try

* In the explorer, add cards one by one to a coalition. When does "every card at least 0"
  become impossible?
* Find the best board for **Urbanists + Stop the Shadows**. Where did the tall buildings go?
* In the coach (under *If you have time*), choose the Urbanists, then switch the goal to **Avoid losing**. How many
  fewer changes does that need?
* In the explorer, choose the Developer and Affordable Housing Organizations and pick another
  **Assumption** (for example *More newcomers*). Can both score +1 under it? On which board?

### Going further

From a terminal: `housing-lab nb solve --cards developer,urbanists --fix A1=park` prints the
best board with one square fixed, and `housing-lab nb coach board.json --card urbanists`
asks the coach about a board saved from the lab.
""",
    ),
    (
        "md",
        r"""
## If you have time

### Money against homes

Some boards house more low income residents, others cost less. Suppose phase 1 went to open
space: parks on B1, C1 and C2 and a garage on B2 {{claim:l4-frontier-phase-1}}. The **Pareto frontier**
lists, over every way to build phase 2 and every policy set, the cheapest board for each number
of low income residents housed; nothing cheaper houses as many:
""",
    ),
    (
        "code",
        r"""
# NBVAL_CHECK_OUTPUT
from housing_lab.north_berkeley import pareto_frontier

open_space = {"B1": "park", "C1": "park", "B2": "garage", "C2": "park"}
frontier = pareto_frontier(fixed=open_space, seed=0)
table = pd.DataFrame([{"Low income housed": p.low_housed,
                       "Cheapest spending": float(p.spending)} for p in frontier])
lesson_table(table, money=["Cheapest spending"],
             title="The cheapest board for each number of low income residents housed")
""",
    ),
    (
        "code",
        r"""
from housing_lab.widgets import INCOME_COLOURS

bar_chart(
    [f"{low} low income housed" for low in table["Low income housed"]],
    {"cheapest spending": table["Cheapest spending"].tolist()},
    title="The cheapest board for each number of low income residents housed "
    "(phase 1: open space)",
    value_label="spending ($)",
    colours={"cheapest spending": INCOME_COLOURS["low income"]},
    whole_numbers=all(float(v).is_integer() for v in table["Cheapest spending"]),
)
""",
    ),
    (
        "md",
        r"""
### The coach: what would win a card over?

The solver answers "what is the best board?". A student at a real board asks something else:
**what is the smallest thing I could change here so that this group stops losing, or wins?**
The **coach** answers exactly. A *change* is one square set to a tile or emptied, or one policy
enacted or repealed; the residents who already live here stay. The coach finds the **fewest
changes** that reach the goal (and, among those, the cheapest board).

Below, phase 1 has been built and Vacancy Control is in force. For a few cards the coach says
what to change; the computer then makes those changes and scores the board again, to check.
It also tries **every single change** (each square set to each tile or emptied, each policy
switched): when none of them reaches the goal, no answer with fewer changes was missed.
""",
    ),
    (
        "code",
        r"""
# NBVAL_CHECK_OUTPUT
from housing_lab.errors import HousingLabError
from housing_lab.north_berkeley import (
    POLICIES,
    apply_changes,
    changes_words,
    coach,
    coach_sentence,
    default_catalogue,
    make_scenario,
    score_scenario,
)

built = {"A1": "tower_market", "B1": "park", "C1": "park",
         "A2": "townhouse_market", "B2": "garage", "C2": "park"}
street = make_scenario(built, ["vacancy_control"], seed=4)  # seed 4 places the residents


def score_of(scenario, card: str) -> int:
    return score_scenario(scenario).to_dict()["constituents"][card]["score"]


def single_changes(scenario):
    # every board one change away: a square set to another tile or emptied, a policy switched
    for square in scenario.layout.squares:
        for tile in [*default_catalogue(), None]:
            if scenario.tiles.get(square) != tile:
                tiles = {q: t for q, t in scenario.tiles.items() if q != square}
                if tile is not None:
                    tiles[square] = tile
                yield tiles, set(scenario.policies)
    for policy in POLICIES:
        yield dict(scenario.tiles), set(scenario.policies) ^ {policy}


one_away = []
for tiles, policies in single_changes(street):
    try:
        one_away.append(make_scenario(tiles, [p for p in POLICIES if p in policies], seed=4))
    except HousingLabError:  # a tile that 100% Affordable refuses where it stands
        pass

print(coach_sentence(coach(street, "stop_the_shadows", "win")))
rows = []
for card in ["stop_the_shadows", "landlords", "affordable_housing_orgs", "urbanists"]:
    answer = coach(street, card, "win")
    after = score_of(apply_changes(street, answer.changes), card)
    rows.append({"Card": cards()[card].name, "Score now": answer.now,
                 "The coach's fewest changes": changes_words(answer.changes),
                 "Score after them": after,
                 "Single changes that win it": sum(score_of(s, card) == 1 for s in one_away)})
coached = pd.DataFrame(rows).set_index("Card")
assert (coached["Score after them"] == 1).all()
print(f"{len(one_away)} single changes tried")
lesson_table(coached, signed=["Score now", "Score after them"],
             title="What the coach says for four cards, checked")
""",
    ),
    (
        "md",
        r"""
{{claim:l4-coach-changes}}
""",
    ),
    (
        "md",
        r"""
### Ask the coach yourself

Pick a card and a goal, press **Ask the coach**, then **Apply** to make the changes on the
board and watch the card's score flip. **Undo** puts the board back. After applying, ask about
another card: did winning one group over cost another a point?
""",
    ),
    (
        "code",
        r"""
from housing_lab.widgets import CoachPanel

panel = CoachPanel(street, "stop_the_shadows")
panel.ask()
panel
""",
    ),
    (
        "md",
        r"""
## What you learned

* Constituents want different things: money, who is housed, what is built where.
* Thousands of random boards show which goals conflict; an exact search proves what is possible.
* A coalition's best board is a compromise you can look at and argue about.
* If you had time: the coach finds the fewest changes that win one group over, exactly.
* The real debate had real groups with specific asks (heights, parking, the affordable share);
  some cards had no real voice, and the future residents had none at all. Written as card
  conditions, the approved plan meets the 20% share, sits closer to 7 stories than 12, and keeps
  one garage.
""",
    ),
    ("after:l4-developer-and-affordable", "* {{claim:l4-learned-without-vacancy-control}}"),
    (
        "md",
        r"""
**Next:** [Lesson 5, *When the state steps in*](05_state_steps_in.ipynb): the state steps in,
thousands of times in the game and, in real life, through laws such as AB 2011.
""",
    ),
]
