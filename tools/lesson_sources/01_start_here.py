CELLS = [
    (
        "md",
        r"""
# Lesson 1 · Start here

**Learning goals.** By the end of this lesson you can:

1. say in two sentences what each of the two games, *North Berkeley* and *Streetcar*, is about;
2. run a notebook cell and use a widget (click, choose, toggle);
3. find the rules when you are unsure.

*Time: 30 minutes, with starting up and the exit ticket. In JupyterLab, run each cell with **Shift + Enter**, from top to
bottom; opened as an app (no code on the page), it has already run: start with the widgets.*
""",
    ),
    (
        "md",
        r"""
## What it is: two games in two minutes

**North Berkeley.** Next to a BART station there are 9 empty squares. Your team negotiates
which buildings go there: towers, midrises, townhouses, a garage or a park. Some buildings have
homes only low or middle income residents may rent; some cost public money. You also pick
policies such as *vacancy control* or *accessory dwelling units (ADUs)*. Then 24 newcomers
(8 high, 8 middle, 8 low income) move in, and where there are not enough homes, high income
residents **displace** the others. Each team holds *constituent* cards (the Developer, Labor
Unions, Affordable Housing Organizations, ...) that score +1 or -1 depending on what was built
and who is housed.

**Streetcar.** A neighbourhood of 52 hexes is all single-family houses. Each turn a player
removes one house (a "single-family housing limit"); wherever an empty space is surrounded by
exactly 3 houses, a new apartment building appears. Players draw streetcar lines, and score
for the buildings their lines connect.
""",
    ),
    (
        "md",
        r"""
## The real place behind the game

North Berkeley BART is a real station, and the game's streets (Sacramento, Delaware, Acton and
Virginia) are the edges of its real parking lots, about 8 acres in all. In 2018 California passed
**AB 2923**, which lets BART build housing on land it owns next to its stations and sets minimum
zoning there: at North Berkeley, room for at least 7 stories and 75 homes per acre, at most one
parking space for every two homes, and a share of the homes (20%) affordable. Five
years of planning followed: public meetings, the city's zoning for the site and its design
rules. Then the builders applied under another state law, **AB 2011** (2022), which makes such
housing a use "by right": in 2024 the city approved a plan of 739 homes in 13
buildings of 3 to 8 stories, more than half of them subsidised affordable homes, with a parking
garage, by a staff review against written standards (*ministerial* approval), without a public
hearing on the project. BART's own policy since 2016 asks for affordable homes on its land, and
the affordable buildings draw on public money such as Berkeley's **Measure O** bond ($135
million, passed by voters in 2018). The game asks the question those years of planning asked:
*what* should be built, and *for whom*?

**Words you will meet**

* **Transit-oriented development (TOD):** putting homes, jobs and shops within walking distance
  (about a quarter to half a mile) of a station, so people can live without driving everywhere.
* **Area median income (AMI):** the middle household income of a region. Housing programmes
  define groups by it: a household under 80% of AMI counts as *low income*. The game's "low",
  "middle" and "high income" are simplified versions of these bands.
* **Inclusionary housing:** a rule or deal that makes a share of the homes in a new building
  affordable (the game's *Inclusionary* towers have 25% or 50% income-restricted homes).
* **Displacement:** a resident losing their home because someone who can pay more takes it.

*Sources: [the project's source list](../docs/sources.md) (S1 to S4, S29, S31 and S32 for the
station, S20 to S23 for the definitions).*
""",
    ),
    (
        "md",
        r"""
## How to use it: your first widget

Below is the **North Berkeley lab**. It shows the 9 squares (A1 to C3), the streets,
the station and the 12 existing homes with their residents:
**H** = high income, **M** = middle income, **L** = low income (letters *and* colours).

Try it: click square **B1**, then click **Market Rate Tower** in the list of tiles.
Watch the chart *Who is housed?* change. Write down how many residents of each income are housed.
""",
    ),
    (
        "code",
        r"""
from housing_lab.north_berkeley import default_catalogue
from housing_lab.widgets import NorthBerkeleyLab

# the Low Income Public Housing Tower waits for the prediction below (a full lab is there)
tiles = {key: tile for key, tile in default_catalogue().items() if key != "tower_public"}
lab = NorthBerkeleyLab(seed=1, catalogue=tiles)
lab
""",
    ),
    (
        "md",
        r"""
Everything you can click can also be done in code (open this lesson in JupyterLab to see it).
Here the computer builds the same board on its own, a Market Rate Tower on B1 with the same
**seed**, and counts the residents housed out of 12 of each income. Does it agree with the numbers
you wrote down? Because of the seed, everyone in the class gets the same answer.
""",
    ),
    (
        "code",
        r"""
# NBVAL_CHECK_OUTPUT
from housing_lab.north_berkeley import make_scenario, score_scenario

board = make_scenario({"B1": "tower_market"}, seed=1)
housed = score_scenario(board).to_dict()["housed"]
print(f"Housed: {housed['high']} high, {housed['middle']} middle, {housed['low']} low income")
""",
    ),
    (
        "md",
        r"""
### Things to notice

* {{claim:l1-market-tower}}
* {{claim:l1-market-tower-displace}}
* The lab's scoreboard shows every constituent card and whether it scores now.
""",
    ),
    ("md", "## Predict, then run"),
    (
        "code",
        r"""
from housing_lab.widgets import PredictThenRun

PredictThenRun("l1-swap-tower")
""",
    ),
    (
        "after:l1-swap-tower",
        r"""
### Things to try

* Click **Reset board**, then put a **Low Income Public Housing Tower** on B1. Who is housed now?
  Compare the lab's numbers with what the model said in the prediction above.
* Tick the **Vacancy Control** policy. What happens to displacement?
  {{claim:l1-try-vacancy-control}}

**Is that how it works in reality?** The prediction's answer comes from one assumption of the
game: the high income newcomers arrive whether or not homes are built for them (*fixed
demand*), so every home closed to them pushes them into the existing homes. In a real city some
of them would look elsewhere, and the pressure on the existing residents would be smaller.
{{claim:l1-fewer-newcomers}} {{claim:l1-same-gap}} But demand is not made by building: it
follows jobs. From 2008 to 2019 San Francisco and San Mateo counties added about 277,000 jobs
while permitting about 45,000 homes (2010 to 2019, S34): demand grew while homes lagged. *Discuss:* Who would
really come if nothing were built? Real cities also rarely choose one tower or
the other: North Berkeley's plan mixes market rate and affordable homes (more than half
affordable, well above the 20% minimum of BART's affordable housing policy, S39) and pays for
the affordable ones with public money. Lessons 3 and 8 look at what studies find
when market rate homes are built, and lesson 8 lets you change the demand yourself.
""",
    ),
    (
        "code",
        r"""
from housing_lab.widgets import after_prediction

after_prediction("l1-swap-tower", NorthBerkeleyLab(seed=1))
""",
    ),
    (
        "md",
        r"""
## Where the rules are

* **[How to play](how_to_play.md)**, in this folder, explains both games in plain words: the
  buildings, the policies, the order in which people move in, and how cards score. The computer
  follows exactly those rules.
* The games were first printed as board games; where their rulebooks leave a detail open, the
  project's documentation for teachers says what we chose.
""",
    ),
    (
        "md",
        r"""
> **What the model leaves out.** This first board already rests on choices the game makes for
> you. Keep them in mind before reading any number as a fact about Berkeley:
>
> * **Demand is fixed:** exactly 24 newcomers arrive whatever is built ("if you don't build it,
>   they'll still come"). Real demand depends on rents, jobs and transport.
> * **Everyone rents:** all 12 existing residents can be displaced, even in the houses. Many
>   real residents own their homes.
> * **Empty market rate homes fill at once:** a market rate home nobody richer takes goes to a
>   middle or low income newcomer the same day. Real new homes rent at high prices, and the
>   benefit reaches lower incomes slowly, through chains of moves.
> * **Nine squares, one day:** the real plan has 739 homes in 13 buildings, built over years.
>
> The full list: [What the model leaves out](../docs/model_limits.md). [Lesson 8, *Question the model*](08_question_the_model.ipynb)
> changes these assumptions one at a time.
""",
    ),
    ("md", "## Check yourself"),
    (
        "code",
        r"""
from housing_lab.widgets import reveal

reveal("l1-why-low-income")
""",
    ),
    (
        "md",
        r"""
## What you learned

* **North Berkeley** is about *what* gets built next to transit and *who* ends up living there.
* **Streetcar** is about removing single-family limits and connecting new buildings with transit.
* Widgets respond to clicks, and the same actions work from code with the same results.
* The rules are on the **How to play** page, in plain words.

**Next:** [Lesson 2, *Build the neighbourhood*](02_build_the_neighbourhood.ipynb) looks closely at how
move-in and displacement work.
""",
    ),
]
