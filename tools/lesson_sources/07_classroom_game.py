CELLS = [
    (
        "md",
        r"""
# Lesson 7 · A classroom game of North Berkeley

**Learning goals.** By the end of this lesson your class will have:

1. played a whole game of North Berkeley, 2 to 6 teams on one screen;
2. negotiated a board under a timer, with the state stepping in if you cannot agree;
3. seen who moves in, who is displaced, and which team's constituents are happiest.

*Time: 60 minutes: 5 to start up and set up, 35 for the game (two 8-minute negotiations, the
draft, policies, move-in and scoring), 15 for the debrief and 5 for the exit ticket.
For the teacher: see `TEACHER_GUIDE.md`; use a projector and zoom the browser to 125-150 %.*
""",
    ),
    (
        "md",
        r"""
## What it is

The **game table** runs the real game, step by step. Each team holds constituent cards (+1 and
-1 goals). In each building phase the class negotiates which tiles go on the squares; after the
timer, anyone may **call the state**, which fills the empty squares at random. Then come the
draft of constituents (lowest current score first), two policy cards (enact one or both), the
second phase, the move-in, and the final scores.

## How to use it

1. Set the teams, a seed and the negotiation timer on the setup screen: **8 minutes** (the
   default is 10), so the game fits in 35 minutes.
2. Follow the steps along the top: the panel always says what the table must decide now.
3. **Undo** takes back the last decision; **Save game** downloads the game so you can resume
   next lesson with **Load game**.
4. With **hidden hands**, print the team handouts first (buttons under the panel).
""",
    ),
    (
        "code",
        r"""
from housing_lab.widgets import GameTable

table = GameTable(teams=["Red", "Blue", "Green"], seed=7)
table
""",
    ),
    (
        "md",
        r"""
## Things to notice

* In the draft, the team with the **lowest current score picks first**: who is behind gets help.
* Some cards *sound* opposed (the **Developer** wants market homes and low spending;
  **Affordable Housing Organizations** want every low income resident housed). {{claim:l7-lesson-4-found}} Finding such a board at the table, under a timer, with other teams' cards
  in play, is the negotiation.
* When the state steps in, the random tiles may please nobody. Is an imperfect deal better than
  no deal?

## A game played by the computer

Here is the same game played to the end with random (but legal) choices, so you can see what a
finished game looks like: the board, who is housed, and the scores.
""",
    ),
    (
        "code",
        r"""
# NBVAL_CHECK_OUTPUT
from housing_lab.north_berkeley import play_random_game, policy_name

game = play_random_game(["Red", "Blue", "Green"], seed=7)
log = game.game_log()
housed = log["result"]["housed"]
print("Enacted:", ", ".join(policy_name(p) for p in log["policies_enacted"]))
print(f"Housed: {housed['high']} high, {housed['middle']} middle, {housed['low']} low income")
print("Scores:", ", ".join(f"{team} {score:+d}" for team, score in log["scores"].items()))
print(log["tie_break"])
""",
    ),
    ("md", "## Check yourself: predict, then run"),
    (
        "code",
        r"""
from housing_lab.widgets import PredictThenRun

PredictThenRun("l7-affordable-100", game=game)
""",
    ),
    (
        "after:l7-affordable-100",
        r"""
**And in the real world?** The model's answer rests on its assumptions, and it leaves out
three facts. All-affordable buildings need public money: Berkeley's Measure O bonds ($135
million) are the local share that state, county and tax-credit funds then match (S31), and the
money runs out, project by project. Real demand is not fixed: it follows jobs (about 277,000
jobs against 45,000 homes permitted in two Bay Area counties, S34), so it can be larger or
smaller than the game's 24 newcomers. And the real plan chose neither extreme: more than half
of its 739 homes affordable, with market rate homes beside them (S3).

*Discuss (3 min):* Which assumption would have to change for 100% Affordable to house more, and
is it true of Berkeley?
""",
    ),
    (
        "md",
        r"""
## Debrief: who are these constituents in real life? (15 minutes)

Most cards stand for people who spoke, wrote or built in the real North Berkeley BART debate
(lesson 4's table *The real debate* says who asked for what). Seven are the game designers'
exaggerations of a position rather than real participants: in the sources we found no organised
group speaking as **Refuse Capitalism**, **Eco-Primitivists**, **Tech Corporations**, **Real
Estate Speculators**, **Landlords**, **People Concerned About Property Values** or the **North
Berkeley Business Improvement District** (marked *no real voice* below). Treat them as "what if
someone argued this?".

| Group | Cards in the game | Who that was in the real debate |
|---|---|---|
| **Homes for people who need them** | Affordable Housing Organizations, Anti-Gentrification Activists, Inclusionary Housing for All, Middle Class Millennials; *no real voice:* Refuse Capitalism | The voters of Measure O (2018), whose city bonds pay the local share of the affordable homes (no card asks for public money: these cards are the nearest, in what the money is for); the non-profit builders in the team that won approval (BRIDGE Housing, East Bay Asian Local Development Corporation, Insight Housing), whose homes are affordable to households at 20% to 70% of area median income; residents who made their support depend on how affordable the homes would be; residents speaking for people priced out ("our kids who can't afford to live here") |
| **Builders and money** | Developer, Labor Unions, Fiscal Conservatives; *no real voice:* Tech Corporations, Real Estate Speculators, Landlords, North Berkeley Business Improvement District | AvalonBay, the market-rate builder in the same team (358 market-rate homes); construction workers, whose prevailing wages AB 2011 requires; BART, which owns the land. Fiscal Conservatives stand for a real argument about who pays, but the one vote on paying in our sources went the other way: Berkeley's voters approved Measure O's $135 million of bonds for affordable homes, 77.5% yes |
| **Neighbours and the place** | Stop the Shadows, Save Our Views, Friends of Neighborhood Character, Neighbors for More Parks; *no real voice:* People Concerned About Property Values, Eco-Primitivists | Neighbours wary of the project (the first public meeting, 2018, and the hearings after it), who asked for buildings in scale with the low-rise streets, stepping down towards the houses across the street, and for open space |
| **Getting around** | East Bay Park and Ride Coalition, Save Our Parking, The Bike Lobby, Urbanists | BART riders who drive to the station (the plan keeps a smaller garage for them; a council member saw less parking as a step towards fewer cars); residents who wanted more homes by transit, in 2022 up to 12 stories rather than 7 |

Run the debrief in four steps, with your team; write your answers on worksheet 7.

1. **Sort the cards (3 min).** Sort your team's cards into the four groups of the table. Which
   group did your table's board serve best, and which worst? Quote the final scores.
2. **Map to real people (3 min).** For two of your cards, name who stood for them in the real
   debate (the table's last column). If a card had no real voice, what would a real group with
   that view have said at a hearing?
3. **The state (3 min).** In real life the state stepped in twice: AB 2923 (2018) required zoning
   for at least 7 stories and 75 homes per acre, at most one parking space for every two homes
   and 20% of the homes affordable, before any plan was drawn, and AB 2011 (2022) let the city
   approve the project without a public hearing (lesson 5). How is that like, and unlike,
   "calling the state" in the game?
4. **The real plan in numbers (6 min).** Compare your table's final board with the real plan
   (739 homes, 381 of them (52%) affordable, three to eight stories, a parking garage) and with
   {{claim:l7-debrief-solver-board}}: for each, the share of the new homes that are affordable
   (low or middle income), the tallest building, and the garages. Then name one card whose goal
   the real plan would meet, and one it would not, with the feature of the plan that decides
   each.

Keys to the four steps are in the teacher's guide (*Debrief for the classroom game*).

*Sources: S1 to S4, S25 to S27, S29, S31, S34, S36 and S39 in [the source list](../docs/sources.md).*
""",
    ),
    (
        "code",
        r"""
from housing_lab.widgets import reveal

reveal("l7-opposite-directions")
""",
    ),
    (
        "md",
        r"""
> **What the model leaves out.** A classroom game is a model of a negotiation, not of a city:
>
> * **Teams are not constituents:** a team holds several unrelated cards and wins on their sum;
>   real groups have one interest, unequal power and unequal time to attend hearings.
> * **"Calling the state" draws random tiles;** the real state stepped in with a law (AB 2923:
>   zoning on BART land for at least 7 stories and 75 homes per acre, at most one parking space
>   for every two homes, 20% affordable), years before any
>   plan was approved. The variant below plays the state as a law.
> * **The move-in is one day, demand is fixed and empty market rate homes fill at once,** as in
>   every lesson: a board's low income count leans on those assumptions.
> * **No money runs out:** real affordable homes need public funds such as Measure O, competed
>   for project by project.
>
> The full list: [What the model leaves out](../docs/model_limits.md).

## Things to try

* Play again with **hidden hands**: do teams negotiate differently when they cannot see each
  other's goals?
* Change the negotiation timer to 5 minutes. Does the state step in more often?
* **A variant: the state as a law.** Before the game, write one fixed rule on the board, and when
  a timer runs out do not press **Call the state**: the teacher places the rule's tiles on the
  empty squares, as the table would. *AB 2923 rule:* AB 2923 sets what zoning must allow (buildings of at least 7 stories,
  at most one parking space for two homes) and asks for affordable homes; it does not choose the
  buildings. So write the standard, not the buildings: the teacher may fill an empty square only
  with a tile that has at least 20% low or middle income homes, and the board may have at most
  one garage (the law caps parking; it does not ban garages, and the approved plan kept one). *AB 2011 rule:* when a timer runs out, any team may
  place, without the table's agreement, tiles that meet a standard written before the game (for
  example, at least one low or middle income home in every tile) on the empty squares, as the
  real law approves a project that meets written standards without a hearing. Does the table negotiate differently when it knows what the state will do?
  (The game table has no button for this: the rule is played by hand.)

## Going further

Lesson 4 shows, for any set of cards, the best board a coalition could agree on, computed
exactly: ask it for your own team's cards and compare with your board.

## What you learned

* A policy game is a negotiation between goals that conflict.
* The rules (who picks first, when the state steps in) shape the outcome as much as the players.
* In the model, displacement follows from what is built (the move-in shows it resident by
  resident); in reality it also follows rents, evictions and sales (lesson 2).
* Most cards stand for real stakeholders: the debrief maps them onto the real debate, and
  names the seven that do not.

**Next:** [Lesson 8, *Question the model*](08_question_the_model.ipynb): change the model's assumptions one at a
time and see which conclusions survive. Or read
[What the model leaves out](../docs/model_limits.md) and ask which simplification changed your
game the most.
""",
    ),
]
