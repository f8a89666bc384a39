"""Answer keys and rubrics for the exit tickets and the policy memo: what `housing-lab
worksheets` prints in answer-key.html, and what the teacher's guide lists
(tests/test_assessment.py checks that the two say the same).

The notebooks' questions (predict-then-run and check-yourself) keep their answers in the
lessons' data files (housing_lab/questions); these keys are words, because the questions ask
for reasons, not numbers."""

from __future__ import annotations

# One rubric for every exit-ticket answer: short enough to mark 25 tickets in ten minutes.
TICKET_RUBRIC = (
    (
        "2",
        "correct, and gives the reason or mechanism (a number or a source where the question "
        "asks for one)",
    ),
    ("1", "correct claim without the reason, or a reason with one slip"),
    ("0", "wrong, missing, or restates the question"),
)

# Exit-ticket model answers, in the order of each worksheet's exit_ticket questions.
TICKET_KEYS: dict[int, tuple[str, ...]] = {
    1: (
        "A resident losing their home because someone who can pay more takes it (or a rent "
        "rise pushes them out).",
        "Homes, jobs and shops within a short walk (about a quarter to half a mile) of a "
        "station, so people can live without driving everywhere; a station is already served "
        "by fast transit, and North Berkeley's lot was car parking.",
    ),
    2: (
        "High income newcomers first (empty market rate homes, then ADUs, then existing homes, "
        "displacing low income residents first); then middle income (M homes, market rate "
        "homes left, ADUs, then displacing low income residents); then low income, into any "
        "home still open to them.",
        "Any line of the model-limits box with its effect, e.g. fixed demand: if fewer "
        "newcomers came when fewer market homes were built, fewer residents would be displaced.",
    ),
    3: (
        "The newcomers: high and middle income newcomers who would have displaced someone find "
        "no home and are turned away, and income-restricted homes can stay empty because "
        "nobody else in the model may fill them.",
        "Costa-Hawkins (passed 1995, phased in from 1996, vacancy decontrol complete from "
        "1 January 1999) lets owners reset the rent when a tenant leaves, so a city may not "
        "keep the rent controlled between tenants; the card goes further still: it forbids "
        "every displacement.",
    ),
    4: (
        "Money: Fiscal Conservatives against public housing (it costs money). Who is housed: "
        "People Concerned About Property Values against Affordable Housing Organizations. "
        "Place: Stop the Shadows against the Urbanists (tall buildings). On random boards "
        "they rarely both score +1 (0.6% of 200,000), but placement solves it: the exact "
        "solver finds a board where both score +1, with the towers and midrises kept off the "
        "two squares next to Virginia Street.",
        "Full marks for naming a card, what its goal needs (a tile, a square or a policy), what "
        "the coalition gives up for it, and a check (explorer or coach) that no card of the "
        "coalition drops below 0.",
        "A card and its row of the table, e.g. Labor Unions: construction workers, whose "
        "prevailing wages AB 2011 requires; Stop the Shadows: neighbours wary of the project, who "
        "asked for buildings stepping down towards the houses across the street; the Urbanists: "
        "residents who in 2022 urged 12 stories rather than 7; Affordable Housing Organizations: "
        "BRIDGE Housing, East Bay Asian Local Development Corporation and Insight Housing, the "
        "affordable builders of the approved plan; or one of the seven cards with no real voice, "
        "named as such.",
    ),
    5: (
        "When the table's best deal is worse for your cards than what the state's random fill "
        "gives on average; the spread of the fills shows the risk of that gamble.",
        "Under the rulebook the model has no budget: any board can be paid for, so matching "
        "funds only lower the bill (a budget, as in lesson 8's switch, only rules boards out). "
        "Real matching funds (county and state money that matches local money such as "
        "Berkeley's Measure O bond, $135 million, 2018) let a limited local budget build more "
        "affordable homes.",
    ),
    6: (
        "It allowed only one home per lot (single-family houses, first in the Elmwood "
        "neighbourhood), with the stated aim of keeping out 'the less desirable and floating "
        "renter class'; in February 2021 the council voted 9-0 to state its intent to end it by "
        "the end of 2022 (a resolution: no rule changed at once).",
        "Because the score multiplies houses removed by the cubes your lines connect: an "
        "unconnected building scores nothing. For real cities that is an assumption, not a "
        "result: evidence on who rides transit from new homes near stations, and how much less "
        "they drive, would tell you.",
        "About 1%: Pew credits about 1% of the new homes to that change; most came where larger "
        "buildings were allowed near transit and parking minimums ended (S42, S44). Allowing "
        "more homes on a lot does not make its owner build them: building must pay (rents or "
        "prices high enough to cover land, money and construction), the owner must want to "
        "build or sell (a lot is also a home its owner may want to keep), and the plan must "
        "stand (a court paused Minneapolis's plan in 2022).",
    ),
    7: (
        "No: in the model it houses fewer low income residents on average. Without market rate "
        "homes in phase 2 the high income newcomers, who come anyway, displace existing "
        "residents, low income residents first, and the subsidised homes cost more. It rests on "
        "instant filtering (an empty market rate home is also a home a low income newcomer may "
        "take) and fixed demand; a real all-affordable building also needs money, which the "
        "model never runs out of.",
        "The 24 newcomers and the residents who were displaced: future residents rarely speak "
        "at hearings, so a board argued over at the table can leave out the people who will "
        "live in it.",
    ),
    8: (
        "Lesson 3's 'the mostly market rate board houses about as many low income residents as the "
        "public housing board' rested on instant filtering: with new market rate homes for high "
        "income newcomers only, the mostly market rate board houses far fewer, the public housing "
        "board the same. (Or lesson 5's ranking, whose first place under the rulebook, Vacancy "
        "Control, goes to ADUs once vacancy control covers apartments only.)",
        "One assumption with its evidence and source: filtering is real but slower and partial "
        "(45 to 70 people leave below-median-income neighbourhoods per new building housing "
        "100, mostly within three years, S19, the published study), so partial filtering is "
        "closer than instant or "
        "none; demand follows jobs (about 277,000 jobs against 45,000 homes permitted in two "
        "Bay Area counties, S34), so fixed demand understates it in a boom and overstates it in "
        "a slump; Costa-Hawkins forbids vacancy control for ordinary rentals and exempts houses "
        "(S13), so even the apartments-only switch is generous: the legal reading is no vacancy "
        "control; "
        "budgets are limited (Measure O, $135 million, S31), so the budget switch is the "
        "realistic one.",
    ),
}

# The policy memo (guide, Extensions): one page to the council recommending one policy.
MEMO_RUBRIC = (
    (
        "Recommendation",
        "one policy, for whom, and where (2); a policy without who gains (1); "
        "no clear recommendation (0)",
    ),
    (
        "Evidence from the model",
        "one number from lesson 3, stated as a result in the model "
        "with its board (2); a number without saying it is the model's (1); none (0)",
    ),
    (
        "Evidence from the real world",
        "one source from the list, cited and described accurately "
        "(2); a source named but misread, or a fact without a source (1); none (0)",
    ),
    (
        "Assumptions and trade-offs",
        "names the assumption the model's number depends on (e.g. "
        "instant filtering) and one group that loses under the policy (2); one of the two (1); "
        "neither (0)",
    ),
)
MEMO_TOTAL = 2 * len(MEMO_RUBRIC)

# Keys to the written tasks some worksheets carry (worksheets.Worksheet.tasks), in their order.
TASK_KEYS: dict[int, tuple[str, ...]] = {
    8: (
        "High income only: 3 low income residents housed (the rulebook: 11), and 12 new market "
        "rate homes left empty.",
        "12 low income residents housed with 4 high income newcomers, and 5 with 14: demand cuts "
        "both ways.",
        "Apartments only: 4 residents of the houses are displaced on the public housing board (0 "
        "under the rulebook's total ban).",
        "The tiles that would take the board's spending over the budget turn grey, the most "
        "expensive first; clicking one, the lab says in one line that the board would spend that "
        "much, over the city budget. A budget below what the board already spends is refused in "
        "one line naming both (Not changed: the board already spends ..., more than ...).",
        "Answer 1 (no filtering) changes it most: the mostly market rate board no longer houses "
        "nearly as many low income residents as the public housing board, so the conclusion "
        "rested on instant filtering; answer 2 shows it also rests on fixed demand. Answer 3 "
        "changes what vacancy control can promise, not lesson 3's comparison of the boards; full "
        "marks for one "
        "changed answer with its assumption.",
    ),
    5: (
        "Full marks for a rule that acts by law and in advance, not by random tiles, tied to "
        "one real tool, e.g. SB 35: when the timer ends with the table behind its target, any "
        "proposal that meets written standards (a minimum height, a share of affordable homes, "
        "prevailing wages) is approved without a vote; or AB 2923: a minimum density and "
        "affordable share fixed before the table sits down; and for naming, from the cards' "
        "printed goals, one card it pleases (e.g. the Urbanists, who want midrises and towers) "
        "and one it does not (e.g. Stop the Shadows), with the reason.",
    ),
    7: (
        "The group whose cards' final scores add up highest, and the one lowest, quoting the "
        "scores from the table's final screen and naming what on the board caused them (a "
        "tile, a square, a policy).",
        "A name from the table for each card, e.g. the Developer: AvalonBay, the market-rate "
        "builder in the approved team; Affordable Housing Organizations: BRIDGE Housing, East "
        "Bay Asian Local Development Corporation and Insight Housing; Labor Unions: construction "
        "workers, whose prevailing wages AB 2011 requires; Stop the Shadows: neighbours asking "
        "for buildings that step down towards the houses. For a card with no real voice (Refuse "
        "Capitalism, Eco-Primitivists, Tech Corporations, Real Estate Speculators, Landlords, "
        "People Concerned About Property Values, the North Berkeley Business Improvement "
        "District), a statement a hearing could hear: the card's goal, who gains from it and "
        "who pays.",
        "Like: someone outside the table decides, and the table loses control over what is "
        "built. Unlike: the real state acted by law, in advance and for every such site (AB "
        "2923's zoning for at least 7 stories and 75 homes per acre, at most one parking space "
        "for every two homes and 20% affordable; AB 2011's approval by right "
        "against written standards), not by drawing random tiles after a deadline; real "
        "preemption is predictable, the game's is a gamble.",
        "The real plan: 52% affordable, three to eight stories, a garage. Lesson 4's solver "
        "board is its opposite on all three (no affordable home, towers, no garage), although "
        "in the model it pleases both cards: instant filtering houses the low income residents "
        "in market rate homes. The table's board: the low and middle income homes among its new "
        "homes, its tallest tile (tower, midrise or townhouse) and its garages, counted from "
        "the final screen. Then any card whose goal matches a feature of the real plan, e.g. "
        "one that wants affordable homes or kept parking, and any card whose goal the plan goes "
        "against, e.g. one that wants no tall buildings or no public spending; full marks for "
        "the three numbers for each board and for naming the feature of the plan that decides "
        "each card.",
    ),
}
