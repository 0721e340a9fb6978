"""One test per rule of rules/conquest.md; each docstring quotes the rule it checks."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine import AmbiguousOrderError, IllegalOrderError, MapError, OptionError, OrderSyntaxError
from engine.conquest.board import SHIPPED, CellType, generate_map
from engine.conquest.orders import Auto, Move, StopAuto
from engine.hexgrid import DIRECTIONS, Hex
from tests.engine.conquest_helpers import RS, before_production, cell, play, position, symmetries_mapping

# --- Board ---------------------------------------------------------------------------------


def test_hex_cells_have_six_neighbours_and_labels():
    """Hex cells (6 neighbours), axial coordinates internally; players see labels like C4."""
    c4 = Hex.from_label("C4")
    assert c4.label == "C4"
    assert len(set(c4.neighbours())) == 6
    assert sorted(n.label for n in c4.neighbours()) == ["B4", "C3", "C5", "D3", "D4", "D5"]
    assert all(c4.distance(n) == 1 for n in c4.neighbours())


@pytest.mark.parametrize("players", [2, 3, 4, 6])
@pytest.mark.parametrize("size", ["small", "medium", "large"])
def test_generated_maps_are_symmetric(players, size):
    """Maps are point- or mirror-symmetric so that "all players start from a symmetrical point of view".

    For every player there is a symmetry of the board taking player 0's start to his start and
    preserving every cell's type and garrison."""
    board = generate_map(players, size, seed=11)
    starts = board.starts[players]
    for start in starts:
        assert any(_preserves(board, move) for move in symmetries_mapping(starts[0], start)), start.label


@pytest.mark.parametrize("size", ["small", "medium", "large"])
def test_five_player_starts_are_balanced(size):
    """Every start has the same surroundings wherever the hex grid allows a symmetric layout; where it
    does not (5 players), never 6 corners with one left empty next to two lucky seats — the generator
    balances the starts.

    Every start is as far from the centre, its two neighbours are 6 steps away and the other two 9
    or 10, it is nearer than any other start to as many cells as each other start, its own cell and
    neighbours are plain and empty; and the seed turns the ring, so a seat does not keep the same
    spot on the grid (bench/bench_fairness.py measures the wins)."""
    spots = set()
    for seed in range(40):
        board = generate_map(5, size, seed)
        starts = board.starts[5]
        center = next(c for c in board.types if all(c.distance(start) == 5 for start in starts))
        for start in starts:
            assert sorted(start.distance(o) for o in starts if o != start)[:2] == [6, 6]
            assert all(9 <= start.distance(o) <= 10 for o in starts if start.distance(o) > 6)
            around = (start, *start.neighbours())
            assert all(board.types[c] is CellType.NORMAL and not board.garrisons.get(c) for c in around)
        spots.add(starts[0].distance(min(_ring_corners(center), key=starts[0].distance)))
        nearest = [sorted((c.distance(start), k) for k, start in enumerate(starts))[:2] for c in board.types]
        owned = [sum(1 for (d, k), (e, _) in nearest if k == seat and d < e) for seat in range(5)]
        assert len(set(owned)) == 1, owned
    assert spots == {0, 1, 2}


def _ring_corners(center: Hex) -> list[Hex]:
    return [Hex(center.q + 5 * dq, center.r + 5 * dr) for dq, dr in DIRECTIONS]


def _preserves(board, move) -> bool:
    return all(
        move(c) in board.types
        and board.types[move(c)] == t
        and board.garrisons.get(move(c), 0) == board.garrisons.get(c, 0)
        for c, t in board.types.items()
    )


@pytest.mark.parametrize("name", SHIPPED.names())
def test_shipped_maps_load_and_are_symmetric(name):
    """Shipped maps live as data files; they too give every player a symmetrical start."""
    board = SHIPPED.load(name)
    assert board.starts
    for starts in board.starts.values():
        for start in starts:
            assert any(_preserves(board, move) for move in symmetries_mapping(starts[0], start)), (name, start.label)


def test_at_least_two_shipped_maps():
    """Shipped maps live as data files (at least two)."""
    assert len(SHIPPED.names()) >= 2


def test_cell_production_by_type():
    """Cell types and production per round: normal +1, bronze +2, silver +5, gold +10."""
    state = position(
        {"A1": (0, 0), "B1": (0, 0), "C1": (0, 0), "D1": (0, 0), "D3": (1, 0)},
        types={"B1": "bronze", "C1": "silver", "D1": "gold"},
    )
    after = play(state, {}).state
    assert [cell(after, x).units for x in ("A1", "B1", "C1", "D1")] == [1, 2, 5, 10]
    assert [t.production for t in CellType] == [1, 2, 5, 10]


def test_neutral_units_never_move_but_fight():
    """A cell is neutral (may still hold units; neutral units never move but always fight)."""
    state = position({"A1": (0, 3), "B1": (None, 2), "D3": (1, 5)})
    after = play(state, {0: "A1>B1 3"}).state
    assert before_production(after, "B1") == (0, 1)
    state = position({"A1": (0, 1), "B1": (None, 2), "D3": (1, 5)})
    after = play(state, {}).state
    assert cell(after, "B1") == cell(state, "B1")  # never moves, never grows


def test_two_to_six_players():
    """Colours: red, blue, green, orange, purple, brown — so 2 to 6 players."""
    for count in (2, 6):
        assert len(RS.setup(count, {}, seed=1).players) == count
    for count in (1, 7):
        with pytest.raises(OptionError, match="2 to 6"):
            RS.setup(count, {}, seed=1)


def test_generator_is_seeded_and_sized():
    """Maps: a seeded generator (size small/medium/large, number of players)."""
    assert generate_map(3, "medium", 5) == generate_map(3, "medium", 5)
    assert generate_map(3, "medium", 5) != generate_map(3, "medium", 6)
    sizes = [len(generate_map(2, size, 1).types) for size in ("small", "medium", "large")]
    assert sizes == sorted(sizes) and len(set(sizes)) == 3


def test_explicit_map_as_data():
    """Explicit maps given as data (cells, types, neutral garrisons, start cells)."""
    data = {"name": "tiny", "layout": ["n g", "b s"], "garrisons": {"B1": 7}, "starts": {"2": ["A1", "B2"]}}
    state = RS.setup(2, {"map": data}, seed=1)
    assert state.map_name == "tiny"
    assert state.types[Hex.from_label("B1")] is CellType.GOLD
    assert cell(state, "B1").units == 7 and cell(state, "B1").owner is None
    assert cell(state, "A1").owner == 0 and cell(state, "B2").owner == 1


@pytest.mark.parametrize(
    "bad, message",
    [
        ({"layout": ["n x"], "starts": {"2": ["A1", "B1"]}}, "'x' is not one of"),
        ({"layout": ["n n"], "starts": {"2": ["A1", "C1"]}}, "'C1' is not a cell"),
        ({"layout": ["n . n"], "starts": {"2": ["A1", "C1"]}}, "cut off"),
        ({"layout": ["n n"], "garrisons": {"A1": 3}, "starts": {"2": ["A1", "B1"]}}, "cannot hold a neutral garrison"),
        ({"layout": ["n n"], "starts": {"2": ["A1"]}}, "must list 2 cells"),
        ({"layout": ["n"] * 27, "starts": {"2": ["A1", "A2"]}}, "27 rows; a conquest map has at most 26"),
        ({"layout": ["n " * 27], "starts": {"2": ["A1", "B1"]}}, "27 columns; a conquest map has at most 26"),
        ({"layout": ["n " * 20] * 21, "starts": {"2": ["A1", "B1"]}}, "420 cells; a conquest map has at most 400"),
        ({"layout": ["n n"], "starts": {"٢": ["A1", "B1"]}}, "must be a player count"),
        ({"layout": ["n n"], "starts": {" 2": ["A1", "B1"]}}, "must be a player count"),
        ({"layout": ["n n"], "starts": {"2": ["A1", "B١"]}}, "is not a cell"),
    ],
)
def test_bad_explicit_maps_are_refused(bad, message):
    """Explicit maps are validated: every problem names the bad entry."""
    with pytest.raises(MapError, match=message):
        RS.setup(2, {"map": bad}, seed=1)


# --- Start ---------------------------------------------------------------------------------


def test_every_player_starts_with_one_cell_and_equal_units():
    """Every player owns one start cell with the same number of units (default 10, an option)."""
    state = RS.setup(4, {}, seed=3)
    for seat in range(4):
        assert len(state.cells_of(seat)) == 1
        assert state.units_of(seat) == 10
    state = RS.setup(2, {"start_units": 25}, seed=3)
    assert state.units_of(0) == state.units_of(1) == 25


def test_other_cells_neutral_some_garrisoned():
    """All other cells are neutral, some with neutral garrisons."""
    state = RS.setup(3, {}, seed=3)
    owned = [h for h, c in state.cells.items() if c.owner is not None]
    assert len(owned) == 3
    neutral_units = [c.units for c in state.cells.values() if c.owner is None]
    assert any(neutral_units) and not all(neutral_units)


# --- Orders --------------------------------------------------------------------------------


def test_no_order_is_allowed():
    """For a cell he owns, a player may give no order."""
    state = position({"A1": (0, 4), "D3": (1, 4)})
    assert RS.parse_orders(state, 0, "") == []
    assert before_production(play(state, {0: ""}).state, "A1") == (0, 4)


def test_several_fixed_moves_from_one_cell():
    """Move a fixed number of units to an adjacent cell; several such orders from one cell are allowed
    (to different or the same neighbours)."""
    state = position({"B2": (0, 9), "D3": (1, 4)})
    orders = RS.parse_orders(state, 0, "B2>B1 2; B2>C2 3; B2>B1 1")
    assert orders == [
        Move(Hex.from_label("B2"), Hex.from_label("B1"), 2),
        Move(Hex.from_label("B2"), Hex.from_label("C2"), 3),
        Move(Hex.from_label("B2"), Hex.from_label("B1"), 1),
    ]
    after = RS.resolve(state, {0: orders}).state
    assert before_production(after, "B1") == (0, 3)
    assert before_production(after, "C2") == (0, 3)
    assert before_production(after, "B2") == (0, 3)


def test_orders_over_start_of_round_units_rejected():
    """Their total at most the units in the cell at the start of the round — an order asking for more
    is rejected when given, with a clear message."""
    state = position({"B2": (0, 5), "D3": (1, 4)})
    with pytest.raises(IllegalOrderError, match="B2 has 5 units at the start of the round, these orders move 7"):
        RS.parse_orders(state, 0, "B2>B1 4; B2>C2 3")


def test_only_adjacent_targets_and_own_cells():
    """For a cell he owns, a player may move units to an adjacent cell."""
    state = position({"A1": (0, 5), "D3": (1, 4)})
    with pytest.raises(IllegalOrderError, match="C1 is not adjacent to A1; neighbours: A2, B1"):
        RS.parse_orders(state, 0, "A1>C1 2")
    with pytest.raises(IllegalOrderError, match="D3 belongs to blue, not to you"):
        RS.parse_orders(state, 0, "D3>C3 1")


@pytest.mark.parametrize("target", [Hex.from_label("A4"), Hex.from_label("E1"), Hex(-1, 1), Hex(0, -1)])
def test_resolve_refuses_targets_off_the_map(target):
    """A player may move a fixed number of units to an adjacent cell — a cell of the map: orders
    handed to the engine as objects are checked as typed ones are, and the units never vanish."""
    state = position({"A1": (0, 5), "D3": (1, 4)})
    for order in (Move(Hex.from_label("A1"), target, 3), Auto(Hex.from_label("A1"), target)):
        with pytest.raises(IllegalOrderError, match="is not a cell of this map; neighbours: A2, B1"):
            RS.resolve(state, {0: [order]})


def test_auto_move_takes_what_fixed_orders_leave():
    """Auto-move to an adjacent cell: every round, all units remaining after the fixed orders move there."""
    state = position({"B2": (0, 10), "D3": (1, 4)})
    after = play(state, {0: "B2>B1 3; auto B2>C2"}).state
    assert before_production(after, "B1") == (0, 3)
    assert before_production(after, "C2") == (0, 7)
    assert before_production(after, "B2") == (0, 0)
    assert after.autos == {Hex.from_label("B2"): Hex.from_label("C2")}


def test_auto_move_is_standing_and_runs_without_pass():
    """It is a standing order: it stays until cancelled ... and it runs in later rounds even if the
    player does not pass."""
    state = position({"B2": (0, 4), "D3": (1, 4)})
    after = play(state, {0: "auto B2>C2"}).state
    assert before_production(after, "C2") == (0, 4)
    later = RS.resolve(after, {}).state  # seat 0 did not pass: only the standing order runs
    assert cell(later, "B2").units == 1  # its production moved on, then it produced again
    assert cell(later, "C2").units == 4 + 1 + 1 + 1
    stopped = play(later, {0: "stop B2"}).state
    assert stopped.autos == {}
    assert cell(stopped, "B2").units == 2


def test_auto_move_ends_when_cell_lost():
    """It stays until cancelled or the cell is lost."""
    state = position({"B2": (0, 2), "C2": (1, 9), "D3": (1, 1)})
    state = play(state, {0: "auto B2>B1"}).state
    assert state.autos
    result = play(state, {1: "C2>B2 5"})
    assert cell(result.state, "B2").owner == 1
    assert result.state.autos == {}
    assert any(e.kind == "auto_cancelled" and e.data["cell"] == "B2" for e in result.events)


def test_standing_orders_stay_secret_after_they_ran():
    """Orders (programmed during a round, secret until the round resolves) — a standing auto-move
    included: once it ran, everybody sees the units that moved, but only its owner sees that it
    will run again."""
    state = position({"B2": (0, 4), "D3": (1, 4)})
    after = play(state, {0: "auto B2>C2"}).state
    assert [(t.source.label, t.target.label, t.units, t.auto) for t in RS.view(after, None).last_moves] == [
        ("B2", "C2", 4, True)
    ]
    autos = {seat: {c.label: c.auto for c in RS.view(after, seat).cells if c.auto} for seat in (0, 1, None)}
    assert autos == {0: {"B2": Hex.from_label("C2")}, 1: {}, None: {}}


def test_review_replace_cancel_orders_round_trip():
    """A player can review, replace and cancel his programmed orders until he passes: the notation
    prints back what it parses."""
    state = position(
        {"B2": (0, 4), "D3": (1, 4)},
    )
    state = play(state, {0: "auto B2>C2"}).state
    orders = RS.parse_orders(state, 0, "b2 > b1 x1; auto B2-C3; ")
    assert RS.format_orders(orders) == "B2>B1 1; auto B2>C3"
    assert RS.parse_orders(state, 0, RS.format_orders(orders)) == orders
    assert RS.parse_orders(state, 0, "stop b2") == [StopAuto(Hex.from_label("B2"))]
    assert RS.parse_orders(state, 0, "auto B2 off") == [StopAuto(Hex.from_label("B2"))]


def test_order_errors_are_specific_and_collected():
    """Bad input gets syntax, illegal and ambiguous errors quoting the input; several are reported together."""
    state = position({"B2": (0, 4), "D3": (1, 4)})
    with pytest.raises(OrderSyntaxError, match="'hello' is not an order"):
        RS.parse_orders(state, 0, "hello")
    with pytest.raises(AmbiguousOrderError, match="one auto-move order per round"):
        RS.parse_orders(state, 0, "auto B2>C2; auto B2>B1")
    with pytest.raises(IllegalOrderError, match="B2 has no auto-move to stop"):
        RS.parse_orders(state, 0, "stop B2")
    with pytest.raises(OrderSyntaxError) as caught:
        RS.parse_orders(state, 0, "B2>B1 1; foo; bar")
    assert "2 problems" in str(caught.value) and len(caught.value.problems) == 2


# --- Passing -------------------------------------------------------------------------------


def test_unpassed_orders_discarded_but_autos_run():
    """Otherwise it resolves when the round timeout fires: then the programmed but un-passed orders of a
    player are discarded (his standing auto-moves still run)."""
    state = position({"B2": (0, 4), "C3": (0, 5), "D3": (1, 4)})
    state = play(state, {0: "auto B2>C2"}).state
    assert RS.default_orders(state, 0) == []
    after = RS.resolve(state, {0: RS.default_orders(state, 0)}).state
    assert before_production(after, "C3") == (0, 6)  # no fixed order ran from C3
    assert cell(after, "C2").units == 4 + 1 + 1 + 1


def test_everyone_acts_in_every_round():
    """When every remaining player has passed, the round resolves: every remaining player is asked."""
    state = RS.setup(3, {}, seed=1)
    assert RS.acting_players(state) == {0, 1, 2}
    assert RS.orders_are_secret(state)
    state = RS.remove_player(state, 1, "surrender").state
    assert RS.acting_players(state) == {0, 2}


# --- Round update --------------------------------------------------------------------------


def test_moves_use_start_of_round_counts():
    """All ordered units move at once (amounts from the start-of-round counts)."""
    state = position({"A1": (0, 3), "B1": (0, 2), "D3": (1, 4)})
    with pytest.raises(IllegalOrderError):
        RS.parse_orders(state, 0, "A1>B1 3; B1>C1 4")  # B1 cannot forward what arrives this round
    after = play(state, {0: "A1>B1 3; B1>C1 2"}).state
    assert before_production(after, "B1") == (0, 3)
    assert before_production(after, "C1") == (0, 2)


def test_crossing_units_do_not_fight():
    """Units crossing each other on an edge do not fight."""
    state = position({"B2": (0, 5), "C2": (1, 3), "D3": (1, 1)})
    after = play(state, {0: "B2>C2 5", 1: "C2>B2 3"}).state
    assert before_production(after, "C2") == (0, 5)
    assert before_production(after, "B2") == (1, 3)


def test_arrivals_and_stayers_add_up():
    """A player's arriving units and his units that stayed add up."""
    state = position({"B2": (0, 5), "C2": (0, 4), "D3": (1, 1)})
    after = play(state, {0: "B2>C2 2; C2>C3 1"}).state
    assert before_production(after, "C2") == (0, 5)


def test_single_party_holds_and_mover_captures():
    """One party only: it holds the cell (a player who moved in captures it)."""
    state = position({"B2": (0, 5), "D3": (1, 1)})
    result = play(state, {0: "B2>C2 2"})
    assert before_production(result.state, "C2") == (0, 2)
    assert any(e.kind == "captured" and e.data == {"cell": "C2", "seat": 0, "from": None} for e in result.events)


def test_only_two_largest_parties_count():
    """Otherwise only the two largest parties count; all units of the others are lost."""
    layout = {"name": "tri", "layout": ["n n n", "n n n", "n n n"], "starts": {"3": ["A1", "C1", "B3"]}}
    state = position({"A2": (0, 6), "B1": (1, 4), "B3": (2, 3)}, players=3, layout=layout)
    after = play(state, {0: "A2>B2 6", 1: "B1>B2 4", 2: "B3>B2 3"}).state
    assert before_production(after, "B2") == (0, 2)  # 6 - 4; the 3 are simply lost


def test_larger_wins_and_keeps_difference():
    """The larger of the two wins and keeps (its units − the other's units); the loser's are lost."""
    state = position({"B2": (0, 7), "C2": (1, 3), "D3": (1, 1)})
    result = play(state, {0: "B2>C2 7"})
    assert before_production(result.state, "C2") == (0, 4)
    battle = next(e for e in result.events if e.kind == "battle")
    assert battle.data["winner"] == 0 and battle.data["units_left"] == 4


def test_tie_makes_cell_neutral_with_zero():
    """If the two largest are equal, all units there are lost and the cell becomes neutral with 0."""
    state = position({"B2": (0, 3), "C2": (1, 3), "D3": (1, 1)})
    result = play(state, {0: "B2>C2 3"})
    assert cell(result.state, "C2").owner is None and cell(result.state, "C2").units == 0
    assert any(e.kind == "neutralized" and e.data["cell"] == "C2" for e in result.events)


def test_neutral_garrison_winning_stays_neutral():
    """A winning neutral garrison leaves the cell neutral."""
    state = position({"B2": (0, 3), "C2": (None, 5), "D3": (1, 1)})
    after = play(state, {0: "B2>C2 3"}).state
    assert cell(after, "C2").owner is None and cell(after, "C2").units == 2


def test_emptied_cell_kept_if_no_enemy_arrives():
    """A player who moves every unit out of a cell keeps it if no enemy moves in."""
    state = position({"B2": (0, 4), "D3": (1, 1)})
    after = play(state, {0: "B2>C2"}).state
    assert before_production(after, "B2") == (0, 0)


def test_single_enemy_unit_captures_empty_owned_cell():
    """A single enemy unit moving into an empty owned cell captures it."""
    state = position({"B2": (0, 4), "C2": (1, 1), "D3": (1, 1)})
    after = play(state, {0: "B2>B1 4", 1: "C2>B2 1"}).state
    assert before_production(after, "B2") == (1, 1)


def test_production_after_battles_for_owned_cells_only():
    """Production: every cell owned by a player gains its type's units. Neutral cells gain nothing."""
    state = position({"B2": (0, 4), "C2": (None, 1), "B1": (None, 3), "D3": (1, 1)}, types={"C2": "silver"})
    after = play(state, {0: "B2>C2 3"}).state
    assert cell(after, "C2") == type(cell(after, "C2"))(0, 2 + 5)  # captured this round, produced this round
    assert cell(after, "B1").units == 3


# --- Elimination, end, points --------------------------------------------------------------


def test_player_without_cells_is_eliminated_and_game_ends():
    """A player with no cells is eliminated. The game ends when one player is left."""
    state = position({"C3": (0, 5), "D3": (1, 1)})
    result = play(state, {0: "C3>D3 5"})
    assert [e.kind for e in result.events if e.kind in ("eliminated", "game_over")] == ["eliminated", "game_over"]
    assert result.state.players[1].status == "eliminated"
    assert RS.acting_players(result.state) == frozenset()
    assert RS.outcome(result.state).winners == (0,)


def test_round_limit_ranks_by_cells_then_units():
    """Or at an optional round limit (then ranked by cells, then units)."""
    state = position({"A1": (0, 1), "B1": (0, 1), "D3": (1, 9), "D2": (2, 1), "C2": (2, 3)}, players=3)
    state = replace(state, round_limit=1)  # the last round: a game reaches it after 10 at least
    after = RS.resolve(state, {}).state
    result = RS.outcome(after)
    assert result.ranking == ((2,), (0,), (1,))
    assert result.winners == (2,) and not result.draw


def test_round_limit_tie_is_a_draw():
    """Ranked by cells, then units: equal on both shares the place."""
    state = replace(position({"A1": (0, 1), "D3": (1, 1)}), round_limit=1)
    result = RS.outcome(RS.resolve(state, {}).state)
    assert result.draw and result.winners == (0, 1)


def test_removed_player_cells_turn_neutral_keeping_units():
    """A removed or surrendered player's cells become neutral and keep their units."""
    state = position({"A1": (0, 6), "D3": (1, 4), "D1": (2, 3)}, players=3)
    result = RS.remove_player(state, 1, "missed turns")
    assert cell(result.state, "D3").owner is None and cell(result.state, "D3").units == 4
    assert result.state.players[1].status == "removed"
    assert result.events[0].kind == "player_removed"


def test_surrender_at_any_time_with_points_then():
    """Surrender: at any time; removed at once, with the points of his position then."""
    state = position({"A1": (0, 6), "D3": (1, 4), "D1": (2, 3)}, players=3)
    state = RS.resolve(state, {}).state
    state = RS.resolve(state, {}).state
    state = RS.remove_player(state, 2, "surrender").state  # in round 3, after 2 complete rounds
    assert state.players[2].status == "surrendered" and state.players[2].left == 3
    state = RS.resolve(state, {}).state
    state = RS.remove_player(state, 1, "surrender").state  # in round 4
    result = RS.outcome(state)
    assert result.ranking == ((0,), (1,), (2,))
    assert result.points == {0: 2 + 3, 1: 1 + 3, 2: 0 + 2}


def test_points_position_plus_rounds_survived():
    """Points: final position plus one point per round survived; position points = number of players
    ranked below him (the winner of an N-player game gets N−1); players removed earlier rank below
    those removed later."""
    state = position({"A1": (0, 9), "B1": (1, 1), "D3": (2, 1)}, players=3)
    state = RS.resolve(state, {}).state  # round 1 complete
    state = RS.remove_player(state, 2, "missed turns").state  # out in round 2, after 1 round
    state = RS.resolve(state, {}).state
    state = play(state, {0: "A1>B1 9"}).state  # seat 1 eliminated in round 3, after 2 rounds
    result = RS.outcome(state)
    assert result.ranking == ((0,), (1,), (2,))
    assert result.points == {0: 2 + 3, 1: 1 + 2, 2: 0 + 1}


def test_departures_in_one_round_share_a_place():
    """Players removed earlier rank below those removed later; players who leave in the same round
    share a place (rules/gra.md: "as in every ruleset"), however each of them left."""
    state = position({"A1": (0, 4), "B1": (1, 1), "A2": (2, 1)}, players=3)
    state = play(state, {0: "A1>B1 2; A1>A2 2"}).state
    assert state.players[1].status == state.players[2].status == "eliminated"
    result = RS.outcome(state)
    assert result.ranking == ((0,), (1, 2))
    assert result.points == {0: 2 + 1, 1: 0, 2: 0}
    state = position({"A1": (0, 4), "B1": (1, 1), "D3": (2, 1)}, players=3)
    state = RS.remove_player(state, 2, "surrender").state  # during round 1 ...
    state = play(state, {0: "A1>B1 2"}).state  # ... at whose end seat 1 is eliminated
    result = RS.outcome(state)
    assert result.ranking == ((0,), (1, 2))
    assert result.points == {0: 2 + 1, 1: 0, 2: 0}


def test_unknown_ruleset_and_options_are_clear():
    """Unknown names and options get clear errors listing what exists."""
    from engine import UnknownRulesetError, find_ruleset

    with pytest.raises(UnknownRulesetError, match="available: conquest"):
        find_ruleset("chess")
    with pytest.raises(OptionError, match="unknown option colour"):
        RS.setup(2, {"colour": "red"}, seed=1)
    with pytest.raises(OptionError, match="start_units=0 must be between 1 and 100"):
        RS.setup(2, {"start_units": 0}, seed=1)
    with pytest.raises(MapError, match="unknown map 'nowhere'"):
        RS.setup(2, {"map": "nowhere"}, seed=1)
