CELLS = [
    (
        "md",
        r"""
# Lesson 1 · Start here

**Learning goals.** By the end of this lesson you can:

1. say in two sentences what each of the two games, *North Berkeley* and *Streetcar*, is about;
2. run a notebook cell and use a widget (click, choose, toggle);
3. find the rules when you are unsure.

*Time: about 15 minutes. Run each cell with **Shift + Enter**, from top to bottom.*
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
from housing_lab.widgets import NorthBerkeleyLab

lab = NorthBerkeleyLab(seed=1)
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

* A market rate tower has **4 homes anyone may rent**. The 8 high income newcomers move in
  first, so they take those homes.
* The other 4 high income newcomers still need homes: they **displace** low and middle income
  residents from the existing houses and apartments.
* The lab's scoreboard shows every constituent card and whether it scores now.

### Things to try

* Click **Reset board**, then put a **Low Income Public Housing Tower** on B1. Who is housed now?
* Tick the **Vacancy Control** policy. What happens to displacement?
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
    ("md", "## Check yourself"),
    (
        "code",
        r"""
from housing_lab.widgets.quiz import ChoiceQuestion, reveal

ChoiceQuestion(
    "When newcomers move in, which income group looks for a home first?",
    ["High income", "Middle income", "Low income", "Everyone at the same time"],
    answer="High income",
    explanation="The 8 high income newcomers move in first, then middle, then low income. "
    "That order is why displacement hits low and middle income residents.",
    hint="Look at what happened when you placed the market rate tower.",
)
""",
    ),
    (
        "code",
        r"""
reveal(
    "Why would a city care how many low income residents are housed, not just how many homes "
    "are built?",
    "Because new homes can all go to the people who can pay most. A neighbourhood can grow and "
    "still push out the residents it had: that is displacement.",
)
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

**Next:** Lesson 2, *Build the neighbourhood*, looks closely at how move-in and displacement work.
""",
    ),
]
