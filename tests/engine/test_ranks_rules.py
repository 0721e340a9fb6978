"""Ranks rule cases, one per rule of rules/ranks.md; each docstring quotes the rule it tests."""

from __future__ import annotations

import json

import pytest

from engine import IllegalOrderError, MapError, NotActingError, OptionError, OrderSyntaxError, StateError
from engine.ranks import HEAD_START
from engine.ranks.board import SHIPPED, RanksMap, generate_map, groups
from engine.squaregrid import SquareGrid
from engine.standings import Status
from tests.engine.ranks_helpers import RS, army, guarded, play, position, sq

# --- board ----------------------------------------------------------------------------------


def test_a_city_is_a_four_connected_group_of_city_cells():
    """ "a 4-connected group of city cells is a **city**" — diagonal neighbours are separate cities."""
    assert groups([sq("B2"), sq("C2"), sq("C3"), sq("E5"), sq("F6")]) == (
        (sq("B2"), sq("C2"), sq("C3")),
        (sq("E5"),),
        (sq("F6"),),
    )


def test_each_player_starts_with_one_pawn_on_his_capital():
    """ "Each player has a **capital** cell (a city cell of his home city; he starts with one pawn on it)." """
    for name in SHIPPED.names():
        board = SHIPPED.load(name)
        state = RS.setup(board.players, {"map": name, "head_start": 0}, seed=1)
        assert {c: (a.seat, a.kind) for c, a in state.armies.items()} == {
            capital: (seat, "pawn") for seat, capital in enumerate(board.capitals)
        }
        assert all(board.city_of(capital) for capital in board.capitals)
        assert state.exp == (0,) * board.players and state.npcs == board.npcs


def test_in_a_two_player_game_the_weaker_seat_begins_with_the_measured_head_start():
    """rules/fortress.md, Balance: "where one seat wins more than 55% of decisive strongest-vs-strongest
    games, a measured compensation is added the same way and stated in that game's /rules text" —
    in ranks the second player won 75% on a generated board and 73% on nine-cities, so the first
    begins with exp there; on duel the first player won 63%, so the second begins with a second pawn
    on his home city's first empty cell (exp was too coarse there)."""
    generated, nine, duel = HEAD_START["generated"], HEAD_START["nine-cities"], HEAD_START["duel"]
    assert generated.seat == nine.seat == 0 and min(generated.exp, nine.exp) > 0
    assert duel == (1, 0, 1)
    assert RS.setup(2, {}, seed=3).exp == (generated.exp, 0)
    assert RS.setup(2, {"size": 9}, seed=3).exp == (generated.exp, 0)  # a generated board of any size
    assert RS.setup(2, {"map": "nine-cities"}, seed=3).exp == (nine.exp, 0)
    on_duel = RS.setup(2, {"map": "duel"}, seed=3)
    assert on_duel.exp == (0, 0)
    assert {c.label: (a.seat, a.kind) for c, a in on_duel.armies.items()} == {
        "B2": (0, "pawn"),
        "G7": (1, "pawn"),
        "F6": (1, "pawn"),  # the first empty cell of the home city F6 G6 F7 G7, where a spawn puts it
    }
    assert (
        f"the first player with {generated.exp} exp on a generated board and {nine.exp} on nine-cities, the second "
        "player with a second pawn on duel" in " ".join(RS.rules_text.split())
    )


def test_the_head_start_option_sets_it_and_bigger_tables_have_none_by_default():
    """Option ``head_start``: the weaker seat's exp at the start instead of the measured head start
    (0 turns it off); three and four players were not measured, so nobody begins ahead unless the
    option says so (the first player)."""
    assert RS.setup(2, {"head_start": 0}, seed=3).exp == (0, 0)
    duel = RS.setup(2, {"map": "duel", "head_start": 3}, seed=3)
    assert duel.exp == (0, 3) and len(duel.armies) == 2  # exp instead of the second pawn
    assert len(RS.setup(2, {"map": "duel", "head_start": 0}, seed=3).armies) == 2
    assert RS.setup(2, {"head_start": 3}, seed=3).exp == (3, 0)
    assert RS.setup(4, {}, seed=3).exp == (0, 0, 0, 0)
    assert RS.setup(4, {"head_start": 1}, seed=3).exp == (1, 0, 0, 0)
    with pytest.raises(OptionError, match="between 0 and 5"):
        RS.setup(2, {"head_start": 6}, seed=3)


def test_shipped_maps_load_and_cover_two_three_and_four_players():
    """ "Maps are data files (cities, tracks, NPCs, capitals, size), several shipped" — one of them the
    notes' example with its 9 cities."""
    boards = {name: SHIPPED.load(name) for name in SHIPPED.names()}
    assert len(boards) >= 4
    assert {board.players for board in boards.values()} == {2, 3, 4}
    assert len(boards["nine-cities"].cities) == 9
    for board in boards.values():
        assert RanksMap.from_dict(json.loads(json.dumps(board.to_dict()))) == board


@pytest.mark.parametrize(
    "change, message",
    [
        ({"width": 3}, "width must be a whole number from 5 to 26"),
        ({"cities": "B2"}, "cities must be a list"),
        ({"tracks": ["B2"]}, "B2 is both a city cell and a track cell"),
        ({"npcs": ["D4"]}, "NPC D4 is not on a track cell"),
        ({"npcs": ["Z9"]}, "NPC 'Z9' is not a cell of the map"),
        ({"capitals": ["B2"]}, "one city cell per player, 2 to 4"),
        ({"capitals": ["B2", "D4"]}, "capital D4 is not a city cell"),
        ({"capitals": ["B2", "C2"]}, "capital C2 shares a city with another capital"),
        ({"tracks": ["D4", "D4"]}, "track cell D4 is listed twice"),
        ({"name": ""}, "name must be a non-empty text"),
        ({"name": "x" * 61}, "at most 60 characters"),
    ],
)
def test_a_bad_map_is_refused_with_what_is_wrong(change, message):
    """Maps are "validated on load with clear messages" (the issue; MapError)."""
    data = {"name": "t", "width": 8, "height": 8, "cities": ["B2", "C2", "G7"], "tracks": ["D5"], "npcs": ["D5"]}
    data = {**data, "capitals": ["B2", "G7"], **change}
    with pytest.raises(MapError, match=message):
        RanksMap.from_dict(data)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_generator_is_seeded_and_symmetric(players):
    """ "**Decision**: a seeded symmetric generator as well" — a quarter turn maps the board onto itself."""
    board = generate_map(players, 5, 11)
    assert board == generate_map(players, 5, 11) and board != generate_map(players, 6, 11)
    grid = SquareGrid(11, 11)
    cells = {c for city in board.cities for c in city}
    for kind in (cells, board.tracks, board.npcs):
        assert {grid.rotate(c) for c in kind} == set(kind)
    assert len(board.capitals) == players
    assert RS.setup(players, {}, seed=5).board == board


def test_two_to_four_players_and_a_map_plays_its_own_table():
    """ "2 to 4 players." A shipped map is played by as many players as it has capitals."""
    with pytest.raises(OptionError, match="2 to 4 players, not 5"):
        RS.setup(5, {}, seed=1)
    with pytest.raises(MapError, match="four-corners is for 4 players, not 2"):
        RS.setup(2, {"map": "four-corners"}, seed=1)
    assert RS.setup(4, {"map": "four-corners"}, seed=1).board.players == 4


# --- spawn ----------------------------------------------------------------------------------


def test_spawn_puts_a_pawn_in_every_controlled_city_on_its_first_empty_cell():
    """ "Spawn: for each city you control, spawn a pawn on an empty cell of that city" — default
    "the city's first empty cell in reading order"."""
    state = guarded({"C3": (0, "archer")}, cities=["A2", "C3", "D3", "C4", "F6"])
    after, events = play(state, "spawn")
    assert army(after, "A2") == (0, "pawn") and army(after, "D3") == (0, "pawn")
    assert army(after, "F6") is None
    assert [e.data["cells"] for e in events if e.kind == "spawned"] == [["A2", "D3"]]


def test_spawn_on_chosen_cells():
    """ "(you choose the cell; none if the city is full)" — cities not named use the default."""
    state = guarded({"C3": (0, "archer")}, cities=["A2", "A3", "C3", "D3", "C4"])
    after, _ = play(state, "spawn C4")
    assert army(after, "C4") == (0, "pawn") and army(after, "D3") is None and army(after, "A2") == (0, "pawn")
    full = guarded({"C3": (0, "archer")}, cities=["C3"])
    assert play(full, "spawn")[1][0].data["cells"] == []


def test_you_control_a_city_only_without_other_players_in_it():
    """ "You control a city when at least one of its cells holds your army and no cell of it holds
    another player's army." """
    state = guarded({"C3": (0, "pawn"), "D3": (1, "pawn")}, cities=["C3", "D3", "E3"])
    after, _ = play(state, "spawn")
    assert army(after, "E3") is None
    with pytest.raises(IllegalOrderError, match="you do not control the city of E3"):
        RS.parse_orders(state, 0, "spawn E3")


@pytest.mark.parametrize(
    "text, message",
    [
        ("spawn B5", "B5 is not a city cell"),
        ("spawn A2 A3", "A2 and A3 are in the same city"),
        ("spawn C3", "C3 is not empty"),
    ],
)
def test_spawn_cells_must_be_empty_cells_of_controlled_cities(text, message):
    """ "spawn a pawn on an empty cell of that city" — one per city."""
    state = guarded({"C3": (0, "pawn")}, cities=["A2", "A3", "C3", "D3"])
    with pytest.raises(IllegalOrderError, match=message):
        RS.parse_orders(state, 0, text)


def test_a_turn_is_exactly_one_of_spawn_or_move():
    """ "Turn (players alternate; each turn is exactly one of) 1. Spawn 2. Move" """
    state = guarded({"C3": (0, "pawn")}, cities=["C3", "D3"])
    for text in ("spawn; C3>C4", "C3>C4; spawn", "spawn; spawn"):
        with pytest.raises(IllegalOrderError, match="either one spawn or some moves"):
            RS.parse_orders(state, 0, text)


# --- moves and captures ---------------------------------------------------------------------


def test_any_number_of_armies_move_each_at_most_once():
    """ "Move: move any number of your armies, each at most once." """
    state = guarded({"C3": (0, "pawn"), "E5": (0, "archer")})
    after, _ = play(state, "C3>C4; E5>F6")
    assert army(after, "C4") == (0, "pawn") and army(after, "F6") == (0, "archer")
    with pytest.raises(IllegalOrderError, match="the army on C4 already acted this turn"):
        RS.parse_orders(state, 0, "C3>C4; C4>C5")


@pytest.mark.parametrize(
    "victim, exp",
    [((1, "pawn"), 1), ((1, "archer"), 1), ((1, "knight"), 2), ((1, "tank"), 2), ((0, "pawn"), 1), ((0, "knight"), 2)],
)
def test_moving_onto_an_army_eliminates_it_and_earns_exp(victim, exp):
    """ "Moving onto a cell that holds another army — anyone's, even your own — eliminates that army and
    gives you exp: 1 for a pawn or archer, 2 for a knight or tank" """
    state = guarded({"C3": (0, "pawn"), "C4": victim})
    after, events = play(state, "C3>C4")
    assert army(after, "C4") == (0, "pawn") and army(after, "C3") is None
    assert after.exp == (exp, 0)
    assert events[0].data["captured"] == {"cell": "C4", "seat": victim[0], "rank": victim[1], "exp": exp}


def test_an_npc_counts_as_a_pawn():
    """ "(NPC pawns count as pawns)" — taking one earns 1 exp and removes it from the track."""
    state = guarded({"C3": (0, "pawn")}, tracks=["C4", "C5"], npcs=["C4"])
    after, _ = play(state, "C3>C4")
    assert after.exp == (1, 0) and after.npcs == frozenset() and army(after, "C4") == (0, "pawn")


@pytest.mark.parametrize(
    "rank, legal, illegal",
    [
        ("pawn", ["D3", "D5", "C4", "E4"], ["C3", "E5", "D6"]),
        ("archer", ["C3", "E3", "C5", "E5"], ["D3", "C4", "D6"]),
        ("knight", ["E6", "F5", "F3", "E2", "C2", "B3", "B5", "C6"], ["D3", "E5", "D6"]),
        ("tank", ["D3", "D5", "C4", "E4"], ["C3", "E5", "D6"]),
    ],
)
def test_each_rank_moves_its_own_way(rank, legal, illegal):
    """ "Pawn: one step up/down/left/right. Archer: one step diagonally. Knight: a chess knight's jump.
    Tank: one step up/down/left/right" """
    state = guarded({"D4": (0, rank)}, exp=[5, 0])
    for target in legal:
        assert army(play(state, f"D4>{target}")[0], target) == (0, rank)
    for target in illegal:
        with pytest.raises(IllegalOrderError, match=f"D4>{target}"):
            RS.parse_orders(state, 0, f"D4>{target}")


def test_a_knight_jumps_over_pieces_and_captures_npcs():
    """ "A knight jumps (pieces on the way do not block it) and captures what stands on its target,
    NPCs included." """
    state = guarded({"D4": (0, "knight"), "D5": (1, "pawn"), "E5": (1, "pawn")}, tracks=["E6"], npcs=["E6"])
    after, _ = play(state, "D4>E6")
    assert army(after, "E6") == (0, "knight") and after.npcs == frozenset() and after.exp == (1, 0)


def test_a_tank_pays_one_exp_per_move_and_cannot_move_without_exp():
    """ "Tank: one step up/down/left/right, paying 1 exp per move (no exp, no move)." """
    state = guarded({"D4": (0, "tank")}, exp=[1, 0])
    after, events = play(state, "D4>D5")
    assert after.exp == (0, 0) and events[0].data["paid"] == 1
    with pytest.raises(IllegalOrderError, match="moving a tank costs 1 exp and you have none"):
        RS.parse_orders(guarded({"D4": (0, "tank")}), 0, "D4>D5")


def test_a_tank_may_spend_exp_earned_earlier_in_the_turn():
    """ "paying 1 exp per move" — exp from a capture made by an earlier move of the turn pays for it."""
    state = guarded({"C3": (0, "pawn"), "C4": (1, "pawn"), "F4": (0, "tank"), "F5": (1, "knight")})
    after, _ = play(state, "C3>C4; F4>F5")
    assert army(after, "F5") == (0, "tank") and after.exp == (2, 0)  # +1, -1, +2


def test_a_tank_blast_clears_the_eight_cells_around_it_of_others_and_npcs():
    """ "Instead of moving, a tank may stay and eliminate every non-own army (NPCs included) in its 8
    surrounding cells, earning their exp." It costs no exp."""
    around = {"C3": (1, "pawn"), "D3": (1, "knight"), "E5": (1, "tank"), "C5": (0, "pawn"), "E3": (0, "archer")}
    state = guarded({"D4": (0, "tank"), "D6": (1, "pawn"), **around}, tracks=["E4", "E2"], npcs=["E4", "E2"])
    after, events = play(state, "blast D4")
    assert army(after, "D4") == (0, "tank")
    assert [army(after, c) for c in ("C3", "D3", "E5")] == [None, None, None]
    assert army(after, "C5") == (0, "pawn") and army(after, "E3") == (0, "archer") and army(after, "D6") == (1, "pawn")
    assert after.npcs == frozenset({sq("E2")})
    assert after.exp == (1 + 2 + 2 + 1, 0)
    assert sorted(v["cell"] for v in events[0].data["captured"]) == ["C3", "D3", "E4", "E5"]


def test_a_blast_is_the_tanks_action_and_only_tanks_blast():
    """ "A tank's blast is that tank's action for the turn (it then does not move)" """
    state = guarded({"D4": (0, "tank"), "C4": (0, "knight")}, exp=[3, 0])
    with pytest.raises(IllegalOrderError, match="the army on D4 already acted"):
        RS.parse_orders(state, 0, "blast D4; D4>D5")
    with pytest.raises(IllegalOrderError, match="already acted"):
        RS.parse_orders(state, 0, "D4>D5; blast D5")
    with pytest.raises(IllegalOrderError, match="only a tank blasts; the army on C4 is a knight"):
        RS.parse_orders(state, 0, "blast C4")


def test_moves_are_applied_in_the_order_given():
    """ "Moves are applied in the order the player gives them." """
    state = guarded({"C3": (0, "pawn"), "C4": (0, "pawn")})
    after, _ = play(state, "C4>C5; C3>C4")
    assert army(after, "C5") == (0, "pawn") and army(after, "C4") == (0, "pawn") and after.exp == (0, 0)
    with pytest.raises(IllegalOrderError, match="the army on C4 already acted"):  # C3's pawn took C4's
        RS.parse_orders(state, 0, "C3>C4; C4>C5")


def test_only_your_own_armies_move():
    """ "move any number of your armies" — naming an empty cell or an opponent's army is refused."""
    state = guarded({"C3": (0, "pawn"), "E5": (1, "pawn")})
    with pytest.raises(IllegalOrderError, match="you have no army on E5; your armies: A1, C3"):
        RS.parse_orders(state, 0, "E5>E6")
    with pytest.raises(IllegalOrderError, match="I4 is not on the board"):
        RS.parse_orders(guarded({"H4": (0, "pawn")}), 0, "H4>I4")


# --- upgrades -------------------------------------------------------------------------------


def test_upgrades_spend_exp_from_one_pool_one_rank_each():
    """ "spend exp (**Decision**: a pool per player) to raise armies one level per exp: pawn → archer →
    knight." """
    state = guarded({"C3": (0, "pawn"), "E5": (0, "archer")}, exp=[2, 0])
    after, events = play(state, "pass; up C3; up E5")
    assert army(after, "C3") == (0, "archer") and army(after, "E5") == (0, "knight") and after.exp == (0, 0)
    assert [(e.data["from"], e.data["to"]) for e in events if e.kind == "upgraded"] == [
        ("pawn", "archer"),
        ("archer", "knight"),
    ]
    with pytest.raises(IllegalOrderError, match="needs 1 exp and you have 0"):
        RS.parse_orders(state, 0, "up C3; up E5; up C3")


def test_a_tank_is_made_from_a_pawn_by_three_upgrades_in_one_phase():
    """ "A tank is made only from a pawn by three upgrades in a row in one upgrade phase (3 exp):
    pawn → archer → knight → tank." """
    state = guarded({"C3": (0, "pawn"), "D3": (0, "pawn")}, exp=[6, 0])
    after, _ = play(state, "up C3 3; up D3; up D3; up D3")
    assert army(after, "C3") == (0, "tank") and army(after, "D3") == (0, "tank") and after.exp == (0, 0)


def test_a_knight_or_archer_from_before_the_phase_never_becomes_a_tank():
    """ "A knight or archer that started the phase as such cannot become a tank." """
    state = guarded({"C3": (0, "knight"), "D3": (0, "archer")}, exp=[5, 0])
    with pytest.raises(
        IllegalOrderError, match="only from a pawn by three upgrades in one phase; this army was a knight"
    ):
        RS.parse_orders(state, 0, "up C3")
    with pytest.raises(IllegalOrderError, match="was an archer"):
        RS.parse_orders(state, 0, "up D3 2")
    assert army(play(state, "up D3")[0], "D3") == (0, "knight")


def test_spawned_and_moved_pawns_may_be_upgraded_the_same_turn():
    """ "Pawns spawned or moved this turn may be upgraded in the same upgrade phase." Upgrades name the
    cell where the army stands after the moves."""
    state = guarded({"C3": (0, "pawn")}, cities=["A2"], exp=[4, 0])
    after, _ = play(state, "spawn; up A2 3")
    assert army(after, "A2") == (0, "tank")
    after, _ = play(state, "C3>C4; up C4")
    assert army(after, "C4") == (0, "archer")


def test_upgrades_come_after_the_action():
    """ "3. Then the **upgrade phase** of the same turn" — an upgrade before a move is refused."""
    state = guarded({"C3": (0, "pawn")}, exp=[1, 0])
    with pytest.raises(IllegalOrderError, match="the upgrade phase comes after the spawn or moves"):
        RS.parse_orders(state, 0, "up C3; C3>C4")
    with pytest.raises(IllegalOrderError, match="a tank cannot rise"):
        RS.parse_orders(guarded({"C3": (0, "tank")}, exp=[1, 0]), 0, "up C3")


# --- NPCs -----------------------------------------------------------------------------------


def test_an_npc_takes_an_army_on_a_neighbouring_track_cell():
    """ "each NPC that is orthogonally adjacent to a player's army on a track cell moves onto it and
    eliminates it" — nobody earns exp for it."""
    state = guarded({"C3": (0, "pawn")}, tracks=["C5", "C6"], npcs=["C6"])
    after, events = play(state, "C3>C4")
    assert after.npcs == frozenset({sq("C6")})  # C4 is not a track cell
    after, events = play(after, "pass")
    after, events = play(after, "C4>C5")
    assert army(after, "C5") is None and after.npcs == frozenset({sq("C5")}) and after.exp == (0, 0)
    assert [e.data for e in events if e.kind == "npc_captured"] == [
        {"source": "C6", "target": "C5", "seat": 0, "rank": "pawn"}
    ]


def test_npcs_never_leave_the_tracks():
    """ "NPCs never leave the tracks." An army next to an NPC but off the track is safe."""
    state = guarded({"D4": (0, "pawn")}, tracks=["C4", "C3"], npcs=["C4"])
    after, _ = play(state, "pass")
    assert army(after, "D4") == (0, "pawn") and after.npcs == frozenset({sq("C4")})


def test_npc_priority_is_up_down_left_right():
    """ "With several possible moves the priority is up, down, left, right" """
    tracks = ["D3", "D4", "D5", "C4", "E4"]
    for armies, target in [
        ({"D3": (1, "pawn"), "D5": (1, "pawn"), "C4": (1, "pawn"), "E4": (1, "pawn")}, "D3"),
        ({"D5": (1, "pawn"), "C4": (1, "pawn"), "E4": (1, "pawn")}, "D5"),
        ({"C4": (1, "pawn"), "E4": (1, "pawn")}, "C4"),
        ({"E4": (1, "pawn")}, "E4"),
    ]:
        after, _ = play(guarded(armies, tracks=tracks, npcs=["D4"]), "pass")
        assert after.npcs == frozenset({sq(target)}), target
        assert len(after.armies) == len(armies) + 1  # one move per NPC per step


def test_npcs_act_in_reading_order_one_move_each():
    """ "NPCs act one at a time in reading order (top row first, then left to right) ... (one move per
    NPC per step)." The first NPC's move changes what the second one sees."""
    state = guarded({"C4": (1, "pawn"), "C5": (1, "pawn")}, tracks=["B4", "C4", "C5", "C6"], npcs=["B4", "C6"])
    after, events = play(state, "pass")
    moves = [(e.data["source"], e.data["target"]) for e in events if e.kind == "npc_captured"]
    assert moves == [("B4", "C4"), ("C6", "C5")]
    assert after.npcs == frozenset({sq("C4"), sq("C5")})


def test_an_npc_never_moves_onto_another_npc():
    """ "An NPC never moves onto another NPC." """
    state = guarded(tracks=["C3", "C4", "C5"], npcs=["C3", "C4"])
    after, events = play(state, "pass")
    assert after.npcs == state.npcs and not [e for e in events if e.kind == "npc_captured"]


def test_the_npc_step_follows_every_turn_of_every_player():
    """ "After every player's turn, each NPC ... moves" — the second player's turn too."""
    state = guarded({"F6": (1, "pawn")}, tracks=["F5", "F4"], npcs=["F4"], to_move=1)
    after, events = play(state, "F6>F5")
    assert army(after, "F5") is None and after.npcs == frozenset({sq("F5")})


# --- the capital check and the end ----------------------------------------------------------


def test_a_player_without_an_army_on_his_capital_loses_after_any_turn():
    """ "The capital check runs after the NPC step, for every player (not only the one who moved): a
    player with no army on his capital then loses." His armies are removed; the last player wins."""
    state = guarded({"G8": (0, "pawn"), "B2": (1, "pawn")})
    after, events = play(state, "G8>H8")
    assert [e.data for e in events if e.kind == "capital_lost"] == [{"seat": 1, "capital": "H8"}]
    assert army(after, "B2") is None and after.players[1].status == Status.ELIMINATED
    assert RS.outcome(after).winners == (0,) and RS.outcome(after).reason == "the last player standing won"


def test_leaving_your_own_capital_empty_loses():
    """ "After a player's turn, if none of his armies stands on his capital, he loses" """
    after, _ = play(guarded(), "A1>A2")
    assert not after.players[0].playing and RS.outcome(after).winners == (1,)
    swapped, _ = play(guarded({"B1": (0, "pawn")}), "A1>A2; B1>A1")
    assert swapped.players[0].playing


def test_turns_alternate_and_skip_eliminated_players():
    """ "players alternate" — and an eliminated player is skipped."""
    state = position(
        {"A1": (0, "pawn"), "H1": (1, "pawn"), "H8": (2, "pawn"), "G1": (0, "pawn")}, capitals=["A1", "H1", "H8"]
    )
    after, _ = play(state, "G1>H1")
    assert not after.players[1].playing and RS.acting_players(after) == frozenset({2})
    after, _ = play(after, "pass")
    assert RS.acting_players(after) == frozenset({0})
    with pytest.raises(NotActingError, match="seat 2's turn"):
        RS.parse_orders(after, 2, "pass")


def test_the_turn_limit_ranks_by_armies_then_exp():
    """ "a turn limit (default 300 turns in all) ends the game; then the most armies, then the most exp,
    wins; equal is a draw." """
    assert RS.setup(2, {}, seed=1).turn_limit == 300
    more = guarded({"C3": (1, "pawn")}, exp=[5, 0], turn_limit=1)  # armies count before exp
    assert RS.outcome(play(more, "pass")[0]).winners == (1,)
    richer = guarded(exp=[3, 2], turn_limit=1)
    result = RS.outcome(play(richer, "pass")[0])
    assert result.winners == (0,) and result.reason == "the turn limit was reached"
    assert RS.outcome(play(guarded(turn_limit=1), "pass")[0]).draw


def test_surrender_removes_the_armies_and_the_game_goes_on():
    """ "Surrender and missed-turn removal as in every ruleset" — holdings vanish, the turn moves on."""
    state = position({"A1": (0, "pawn"), "H1": (1, "pawn"), "H8": (2, "pawn")}, capitals=["A1", "H1", "H8"])
    after = RS.remove_player(state, 0, "surrender").state
    assert after.players[0].status == Status.SURRENDERED and army(after, "A1") is None
    assert RS.acting_players(after) == frozenset({1}) and RS.outcome(after) is None
    done = RS.remove_player(after, 2, "missed turns")
    assert RS.outcome(done.state).winners == (1,) and done.events[-1].kind == "game_over"


def test_a_missed_deadline_is_a_turn_without_action():
    """ "Decision": default orders pass; the NPCs and the capital check still follow."""
    state = guarded({"C5": (0, "pawn")}, tracks=["C5", "C6"], npcs=["C6"])
    assert RS.default_orders(state, 0) == []
    after = RS.resolve(state, {}).state
    assert army(after, "C5") is None and after.to_move == 1


# --- notation, errors and serialization -----------------------------------------------------


def test_orders_print_and_parse_back():
    """The notation of the rules text: `spawn C4 F7`, `C4>C5; D2>E3; up D2`."""
    state = guarded({"C4": (0, "pawn"), "D2": (0, "pawn"), "F7": (0, "tank")}, cities=["C3", "C4"], exp=[2, 0])
    for text in ("C4>C5; D2>E2; up E2", "blast F7; up C4 2", "spawn C3"):
        orders = RS.parse_orders(state, 0, text)
        assert RS.format_orders(orders) == text and RS.parse_orders(state, 0, RS.format_orders(orders)) == orders


def test_a_refused_turn_says_which_part_is_wrong_and_why():
    """Bad input raises an OrderError naming the order and the reason; several bad lines together."""
    state = guarded({"C4": (0, "pawn")})
    with pytest.raises(OrderSyntaxError, match="'walk north' is not an order; write `spawn`"):
        RS.parse_orders(state, 0, "walk north")
    with pytest.raises(OrderSyntaxError, match="2 problems") as caught:
        RS.parse_orders(state, 0, "C4>C5; jump; fly")
    assert len(caught.value.problems) == 2
    with pytest.raises(
        IllegalOrderError, match="'C4>D5': a pawn moves one step up, down, left or right; from C4: C3, C5, B4, D4"
    ):
        RS.parse_orders(state, 0, "C4>D5")


def test_state_survives_json_and_damage_is_refused():
    state, _ = play(guarded({"C3": (0, "pawn"), "C4": (1, "knight")}, tracks=["E5"], npcs=["E5"]), "C3>C4")
    data = json.loads(json.dumps(RS.to_dict(state)))
    assert RS.from_dict(data) == state
    with pytest.raises(StateError, match="damaged"):
        RS.from_dict({**data, "armies": {"C4": [5, 1]}})
    with pytest.raises(StateError, match="damaged"):
        RS.from_dict({**data, "npcs": ["A1"]})


def test_every_event_reads_as_a_sentence():
    state = guarded({"C3": (0, "pawn"), "C4": (1, "knight"), "F5": (0, "tank"), "F6": (1, "pawn")}, exp=[1, 0])
    names = {0: "Ann", 1: "Bo"}.get
    _, events = play(state, "C3>C4; blast F5; up C4")
    lines = [RS.describe_event(e, names) for e in events]
    assert lines == [
        "Ann's pawn C3→C4, taking Bo's knight on C4 (+2 exp).",
        "Ann's tank on F5 blasted: Bo's pawn on F6 (+1 exp).",
        "Ann upgraded the pawn on C4 to an archer.",
    ]


def test_the_npc_spawn_pass_and_capital_events_read_as_sentences():
    state = guarded({"G8": (0, "pawn"), "C5": (1, "pawn")}, cities=["A2"], tracks=["C5", "C6"], npcs=["C6"])
    names = {0: "Ann", 1: "Bo"}.get
    lines = [RS.describe_event(e, names) for e in play(state, "spawn")[1]]
    assert lines == ["Ann spawned pawns on A2.", "An NPC stepped C6→C5 and took Bo's pawn."]
    lines = [RS.describe_event(e, names) for e in play(state, "G8>H8")[1]]
    assert lines[-2:] == ["Bo has no army on the capital H8 and is out.", "Game over."]
    assert RS.describe_event(play(state, "pass")[1][0], names) == "Ann neither spawned nor moved."


def test_autocomplete_offers_legal_orders_that_extend_the_text():
    """Orders are "autocompleted via suggest_orders (e.g. `spawn C4 F7`, `C4>C5; D2>E3; up D2`)"."""
    state = guarded({"C3": (0, "pawn"), "C4": (1, "pawn")}, cities=["A2"], exp=[1, 0])
    first = RS.suggest_orders(state, 0, "")
    assert first[0] == "spawn A2" and first[1] == "C3>C4"  # the capture before other moves
    assert set(RS.suggest_orders(state, 0, "C3")) == {"C3>C2", "C3>C4", "C3>B3", "C3>D3"}
    assert "C3>C4; up C4" in RS.suggest_orders(state, 0, "C3>C4; up")
    assert RS.suggest_orders(state, 0, "c3>c4;up c") == ["c3>c4; up C4"]  # earlier lines stay as typed
    assert not [line for line in RS.suggest_orders(state, 0, "spawn; ") if "spawn" in line.split("; ")[-1]]
    assert RS.suggest_orders(state, 0, "spawn a") == ["spawn A2"]
    assert set(RS.suggest_orders(state, 0, "spawn")) == {"spawn A2", "spawn"}
    for line in first + RS.suggest_orders(state, 0, "C3>C4; "):
        RS.parse_orders(state, 0, line)
    assert RS.suggest_orders(state, 1, "") == [] and RS.suggest_orders(state, 0, "fly; ") == []


def test_orders_that_lose_at_once_come_last_and_warn():
    """After a player's turn, if none of his armies stands on his capital, he loses: autocomplete
    never offers such an order before the others (a second move off the capital would otherwise come
    before the upgrades), and the engine warns of it before the order is final."""
    state = guarded({"A2": (1, "pawn"), "D4": (0, "pawn")}, exp=[5, 0])
    offered = RS.suggest_orders(state, 0, "D4>D5; ")
    losing = [line for line in offered if line.split("; ")[-1].startswith("A1>")]
    assert "D4>D5; A1>A2" in losing and "D4>D5; up D5" in offered
    assert offered[-len(losing) :] == losing
    assert RS.order_warnings(state, 0, RS.parse_orders(state, 0, "D4>D5; A1>A2")) == [
        "these orders leave your capital A1 empty: you would be out"
    ]
    assert RS.order_warnings(state, 0, RS.parse_orders(state, 0, "D4>D5")) == []
