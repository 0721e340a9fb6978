"""One test per rule of rules/fortress.md; each docstring quotes the rule it checks."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine import (
    AmbiguousOrderError,
    IllegalOrderError,
    MapError,
    NotActingError,
    OptionError,
    StateError,
    find_ruleset,
)
from engine.fortress import KOMI
from engine.fortress.board import LAND, MOUNTAIN, SHIPPED, WATER, generate_map, mirror
from engine.fortress.orders import Build, Pass, Walk, WalkBuild
from engine.fortress.rules import has_legal_turn
from engine.hexgrid import Hex

RS = find_ruleset("fortress")
FIELD = {
    "name": "test",
    "width": 10,
    "height": 8,
    "cities": ["C4", "H5"],
    "mountains": ["E2", "F7"],
    "water": ["E4", "F5"],
}


def H(label: str) -> Hex:
    return Hex.from_label(label)


def game(mode: int = 2, **options):
    """A game on FIELD, without komi unless ``komi`` is given (the rules of territory, plain)."""
    field = FIELD if mode > 1 else {**FIELD, "mountains": [], "water": []}
    return RS.setup(2, {"mode": mode, "map": field, "komi": "0", **options}, seed=1)


def play(state, text: str):
    return RS.resolve(state, {state.to_move: RS.parse_orders(state, state.to_move, text)})


def owned(state, seat: int) -> set[str]:
    return {c.label for c, s in state.owners.items() if s == seat}


# --- Board and start -------------------------------------------------------------------------


def test_start_owns_city_and_its_neighbours():
    """Each player lives in a city that has controlled territory (all cells adjacent to the city)."""
    state = game()
    assert owned(state, 0) == {"C4", *(n.label for n in H("C4").neighbours())}
    assert owned(state, 1) == {"H5", *(n.label for n in H("H5").neighbours())}


def test_turns_alternate_and_player_zero_starts():
    """Players move in turns; player 0 starts."""
    state = game()
    assert RS.acting_players(state) == {0}
    state = play(state, "D3").state
    assert RS.acting_players(state) == {1}
    with pytest.raises(NotActingError, match="not seat 0's move"):
        RS.parse_orders(state, 0, "B2")
    assert not RS.orders_are_secret(state)


def test_game_lasts_the_given_number_of_moves():
    """The game lasts the given number of moves per player (Decision: default 15)."""
    assert game().moves == 15
    state = game(moves=2)
    for text in ("D3", "G6", "B3", "I6"):
        state = play(state, text).state
    assert RS.acting_players(state) == frozenset() and RS.outcome(state) is not None


def test_larger_territory_wins_water_and_mountains_count():
    """After the last move, the larger territory (all owned cells, water and mountains included) wins."""
    state = game(moves=1)
    state = play(state, "D4").state  # claims the water on E4 as well
    assert "E4" in owned(state, 0)
    state = play(state, "pass").state
    result = RS.outcome(state)
    assert state.territory(0) > state.territory(1) and result.winners == (0,) and result.points == {0: 1, 1: 0}


def test_equal_territory_is_a_draw():
    """Equal is a draw."""
    state = game(moves=1, mode=1)
    state = play(state, "C6").state
    state = play(state, str(mirror(H("C6"), 10, 8).label)).state
    assert RS.outcome(state).draw


def test_komi_compensates_the_first_player_for_the_last_move():
    """Balance: seat 0 gets a compensation in territory ("komi"), added to its count at the end: by
    default the measured value of the table for that mode, option komi to set it by hand (0 turns it
    off). Decision: in half cells, so that a half makes a draw impossible."""
    for mode in (1, 2, 3):
        assert RS.setup(2, {"mode": mode}, seed=1).komi == KOMI[mode] > 0
    assert game(komi="4").komi == 4.0 and game(komi="2.5").komi == 2.5 and game().komi == 0
    for wrong in ("-1", "2.25", "13", 2):
        with pytest.raises(OptionError, match="komi"):
            RS.normalize_options({"komi": wrong})
    final = game(moves=1, mode=1)
    final = play(play(final, "C6").state, str(mirror(H("C6"), 10, 8).label)).state
    assert final.territory(0) == final.territory(1) and RS.outcome(final).draw
    with_komi = replace(final, komi=0.5)
    assert with_komi.score(0) == with_komi.territory(0) + 0.5 and with_komi.score(1) == with_komi.territory(1)
    assert RS.outcome(with_komi).winners == (0,) and not RS.outcome(with_komi).draw
    assert RS.standing(with_komi) == ((0,), (1,))
    behind = replace(final, owners={**final.owners, H("A1"): 1}, komi=0.5)
    assert RS.outcome(behind).winners == (1,)
    level = replace(final, owners={**final.owners, H("A1"): 1}, komi=1.0)
    assert RS.outcome(level).draw


def test_games_begun_without_komi_load_and_go_on_without_one():
    """A game stored before the komi existed (state version 2) loads with none."""
    data = RS.to_dict(RS.setup(2, {"mode": 2}, seed=3))
    older = {key: value for key, value in data.items() if key != "komi"} | {"version": 2}
    assert RS.from_dict(older).komi == 0 and RS.to_dict(RS.from_dict(older))["version"] == RS.state_version
    for damaged in (-0.5, 2.25, 12.5, "2", True, None):
        with pytest.raises(StateError, match="damaged: komi "):
            RS.from_dict({**data, "komi": damaged})


# --- Building (modes 1-2) ---------------------------------------------------------------------


def test_build_on_own_cell_claims_cell_and_neighbours():
    """A fortress can be placed on one's own cell ... its cell and all cells adjacent to it become yours."""
    state = play(game(), "D3").state
    assert {"D3", *(n.label for n in H("D3").neighbours())} <= owned(state, 0)
    assert state.fortresses == {H("D3"): 0}


def test_build_adjacent_to_own_cell():
    """Or on a cell adjacent to one's own."""
    state = game()
    assert H("E3") not in state.owners and any(state.owners.get(n) == 0 for n in H("E3").neighbours())
    state = play(state, "build E3").state
    assert state.fortresses[H("E3")] == 0


def test_build_far_from_territory_is_refused():
    """A fortress on a cell that is neither yours nor next to yours is refused, with the reason."""
    with pytest.raises(IllegalOrderError, match="G2 is neither yours nor next to one of your cells"):
        RS.parse_orders(game(), 0, "G2")


def test_no_fortress_on_a_fortress():
    """A fortress cannot be placed where another fortress (own or the opponent's) already stands."""
    state = play(game(), "D3").state
    state = play(state, "I6").state
    with pytest.raises(IllegalOrderError, match="D3 already has a fortress"):
        RS.parse_orders(state, 0, "D3")


def test_claim_takes_enemy_cells_and_enemy_fortress_cells():
    """After a fortress is placed, its cell and all cells adjacent to it become yours, whoever they
    belonged to before and whether or not opponent fortresses stand on them."""
    state = game()
    state = replace(state, owners={**state.owners, H("E5"): 1, H("D5"): 1}, fortresses={H("E5"): 1})
    state = play(state, "D4").state
    assert state.owners[H("E5")] == 0 and state.owners[H("D5")] == 0
    assert state.fortresses[H("E5")] == 1  # the fortress stays; only the cell changes hands


def test_city_never_flips():
    """The only exception is the city: it cannot be captured."""
    state = game()
    state = replace(state, owners={**state.owners, H("G5"): 0, H("G4"): 0})
    state = play(state, "G5").state  # next to the enemy city H5
    assert state.owners[H("H5")] == 1
    with pytest.raises(IllegalOrderError, match="H5 is a city"):
        RS.parse_orders(play(state, "pass").state, 0, "H5")


def test_no_fortress_on_water_or_mountains():
    """Fortresses cannot be built on water and mountains."""
    state = replace(game(), owners={**game().owners, H("E4"): 0, H("E2"): 0})
    with pytest.raises(IllegalOrderError, match="cannot stand on water"):
        RS.parse_orders(state, 0, "E4")
    with pytest.raises(IllegalOrderError, match="cannot stand on mountain"):
        RS.parse_orders(state, 0, "E2")


def test_water_and_mountains_claimed_by_adjacency():
    """They can be captured to enlarge territory, by placing fortresses on cells next to them."""
    state = play(game(), "D2").state
    assert {"E2"} <= owned(state, 0)  # a mountain
    state = play(state, "pass").state
    state = play(state, "D4").state
    assert "E4" in owned(state, 0)  # water


def test_build_next_to_owned_water_counts_as_adjacent():
    """Build on a land cell adjacent to any cell you own, water and mountains included."""
    state = game()
    state = replace(state, owners={**state.owners, H("E4"): 0})
    assert RS.parse_orders(state, 0, "F4") == [Build(H("F4"))]


def test_pass_when_nothing_is_legal():
    """A player with no legal action passes (his move still counts toward the limit)."""
    state = game(moves=3)
    blocked = {c: LAND if c in (H("C4"),) else MOUNTAIN for c in state.terrain}
    boxed = replace(state, terrain=blocked)
    assert not has_legal_turn(boxed, 0)
    state = play(game(moves=3), "pass").state
    assert state.turn == 1
    # a player with nothing to build is passed over automatically
    walled = replace(
        state,
        terrain={**blocked, **{c: LAND for c in state.terrain if state.owners.get(c) == 1}},
        owners={c: s for c, s in state.owners.items()},
    )
    result = RS.resolve(walled, {1: RS.parse_orders(walled, 1, "pass")})
    assert any(e.kind == "passed" and e.data.get("reason") == "no legal action" for e in result.events)
    assert result.state.to_move == 1


def test_a_general_boxed_in_by_his_own_generals_is_not_passed():
    """A player with no legal action passes — and only then: a general whose city is ringed by his
    own generals may leave once one of them makes way (``D4>E3; C4>D4`` is a legal turn)."""
    ring = {n.label: 0 for n in H("C4").neighbours()}
    state = replace(general_game(C4=0, **ring), turn=1)  # player 1 is to move
    assert has_legal_turn(state, 0)
    after = RS.resolve(state, {1: [Pass()]})
    assert after.state.to_move == 0
    assert not any(e.data.get("reason") == "no legal action" for e in after.events)
    assert play(after.state, "D4>E3; C4>D4").state.generals.get(H("D4")) == 0
    bot_turn = RS.ai_orders(after.state, 0, seed=1)
    assert RS.parse_orders(after.state, 0, RS.format_orders(bot_turn)) == bot_turn
    assert H("C4") not in RS.resolve(after.state, {0: bot_turn}).state.generals


def test_a_general_boxed_in_by_enemy_generals_is_passed():
    """A player with no legal action passes (his move still counts toward the limit): enemy generals
    never move on his turn, so a city ringed by them has no way out."""
    ring = {n.label: 1 for n in H("C4").neighbours()}
    state = replace(general_game(C4=0, B2=0, **ring), turn=1)
    assert not has_legal_turn(state, 0)
    after = RS.resolve(state, {1: [Pass()]})
    assert any(e.data.get("reason") == "no legal action" for e in after.events) and after.state.to_move == 1


@pytest.mark.parametrize("mode", [1, 2, 3])
def test_a_pass_order_is_the_empty_turn_in_every_mode(mode):
    """`pass` skips your move: the order object does what the typed word does, and it stands alone."""
    state = game(mode=mode)
    assert RS.parse_orders(state, 0, "pass") == [Pass()]
    passed = RS.resolve(state, {0: [Pass()]})
    assert passed == RS.resolve(state, {0: []})
    assert passed.state.turn == 1 and [e.kind for e in passed.events] == ["passed"]
    with pytest.raises(AmbiguousOrderError, match="cannot be combined"):
        RS.resolve(state, {0: [Pass(), Build(H("D3"))]})


def test_one_fortress_per_turn():
    """Players move in turns: one fortress per move."""
    with pytest.raises(IllegalOrderError, match="one fortress per turn"):
        RS.parse_orders(game(), 0, "D3; B3")


def test_mode_one_has_no_water_or_mountains():
    """Mode 1 "I'm too young to die": field size, city coordinates and moves are given; no water or mountains."""
    state = RS.setup(2, {"mode": 1}, seed=4)
    assert set(state.terrain.values()) == {LAND}
    with pytest.raises(OptionError, match="mode 1 has no water or mountains"):
        RS.setup(2, {"mode": 1, "map": FIELD}, seed=1)


def test_mode_two_has_given_water_and_mountains():
    """Mode 2 "Hey, not too rough!": the coordinates of mountain and water cells are given as well."""
    state = game(mode=2)
    assert state.terrain[H("E2")] == MOUNTAIN and state.terrain[H("E4")] == WATER
    generated = RS.setup(2, {"mode": 2}, seed=4)
    assert {WATER, MOUNTAIN} <= set(generated.terrain.values())


# --- Maps -------------------------------------------------------------------------------------


@pytest.mark.parametrize("mode", [1, 2, 3])
def test_generated_fields_are_point_symmetric(mode):
    """A seeded symmetric generator for each mode: the field looks the same from both cities."""
    field = generate_map(mode, seed=7)
    assert mirror(field.cities[0], field.width, field.height) == field.cities[1]
    assert all(field.terrain[mirror(c, field.width, field.height)] == t for c, t in field.terrain.items())
    assert generate_map(mode, seed=7) == field


@pytest.mark.parametrize("name", SHIPPED.names())
def test_shipped_maps_load_and_are_fair(name):
    """Shipped map files: size, cities, mountains and water, exactly as the modes describe them."""
    field = SHIPPED.load(name)
    assert mirror(field.cities[0], field.width, field.height) == field.cities[1]
    assert all(field.terrain[mirror(c, field.width, field.height)] == t for c, t in field.terrain.items())


def test_cities_are_at_least_three_apart():
    """Cities are at least 3 cells apart, so that no cell is a neighbour of two cities (maps that
    break this are refused with a message)."""
    with pytest.raises(MapError, match="cities C4 and E4 are 2 apart; they must be at least 3 apart"):
        RS.setup(2, {"mode": 1, "map": {**FIELD, "cities": ["C4", "E4"], "mountains": [], "water": []}}, seed=1)
    for width in range(4, 27):
        for height in range(4, 27, 3):
            field = generate_map(1, seed=1, width=width, height=height)
            assert field.cities[0].distance(field.cities[1]) >= 3, (width, height)
    state = RS.setup(2, {"mode": 1, "map": {**FIELD, "cities": ["C4", "F4"], "mountains": [], "water": []}}, seed=1)
    assert len(owned(state, 0)) == len(owned(state, 1)) == 7


def test_bad_maps_are_refused():
    with pytest.raises(MapError, match="must be land"):
        RS.setup(2, {"mode": 2, "map": {**FIELD, "water": ["C5"]}}, seed=1)
    with pytest.raises(MapError, match="not a cell of the field"):
        RS.setup(2, {"mode": 2, "map": {**FIELD, "cities": ["C4", "Z9"]}}, seed=1)


# --- Mode 3: generals -------------------------------------------------------------------------


def general_game(**placements):
    """Mode 3 with player 0 to move and generals placed by hand (label -> seat)."""
    state = game(mode=3)
    return replace(state, generals={H(k): v for k, v in placements.items()})


def test_general_appears_in_the_city_each_turn():
    """A general appears in the city every turn (Decision: skipped if a general stands there)."""
    state = game(mode=3)
    assert state.generals == {H("C4"): 0}
    state = play(state, "C4>D4").state
    assert state.generals == {H("D4"): 0, H("H5"): 1}
    state = play(state, "pass").state  # player 1 leaves his general in the city
    state = play(state, "pass").state
    assert list(state.generals.values()).count(1) == 1  # none added while one stands there


def test_general_may_not_be_left_in_the_city():
    """He may not be left in the city."""
    state = game(mode=3)
    with pytest.raises(IllegalOrderError, match="may not be left in your city C4"):
        RS.parse_orders(replace(state, generals={H("C4"): 0, H("B3"): 0}), 0, "B3>B2")


def test_player_cannot_build_in_mode_three():
    """The player himself cannot build: fortresses are built only by generals."""
    with pytest.raises(IllegalOrderError, match="you have no general on D3"):
        RS.parse_orders(game(mode=3), 0, "build D3; C4>D4")


def test_general_moves_one_or_two_cells():
    """(a) move one or two cells and stop (the cells he passes must be adjacent one to the next)."""
    state = general_game(D3=0)
    assert play(state, "D3>D2").state.generals.get(H("D2")) == 0
    assert play(state, "D3>D2>D1").state.generals.get(H("D1")) == 0
    with pytest.raises(IllegalOrderError, match="not next to"):
        RS.parse_orders(state, 0, "D3>D2>A1")


def test_two_cell_walk_path_inferred_or_ambiguous():
    """(a) a two-cell walk may name only its end when one path is open; otherwise it must name the path."""
    state = general_game(D3=0)
    with pytest.raises(AmbiguousOrderError, match="several ways"):
        RS.parse_orders(state, 0, "D3>D1")
    blocked = replace(state, generals={H("D3"): 0, H("C2"): 1, H("D2"): 1})
    with pytest.raises(IllegalOrderError, match="not within two open steps"):
        RS.parse_orders(blocked, 0, "D3>D1")


def test_general_builds_where_he_stands():
    """(b) build a fortress on his current cell. After building a fortress the general disappears."""
    state = play(general_game(D3=0), "build D3").state
    assert state.fortresses[H("D3")] == 0 and H("D3") not in state.generals


def test_general_moves_one_and_builds():
    """(c) move exactly one cell and build a fortress there at once."""
    state = play(general_game(D3=0), "D3>D2 build").state
    assert state.fortresses[H("D2")] == 0
    assert RS.parse_orders(general_game(D3=0), 0, "D3>D2+") == [WalkBuild(H("D3"), H("D2"))]


def test_general_may_land_on_water_and_leave_it_for_land():
    """He may land on water; (d) leave the water for an adjacent land cell. Decision: entering water
    ends his movement; from water his only action is (d)."""
    state = general_game(D4=0)
    landed = play(state, "D4>E4").state
    assert landed.generals.get(H("E4")) == 0
    with pytest.raises(IllegalOrderError, match="ends the move"):
        RS.parse_orders(state, 0, "D4>E4>F4")
    wet = replace(state, generals={H("E4"): 0})
    with pytest.raises(IllegalOrderError, match="from the water a general can only step onto"):
        RS.parse_orders(wet, 0, "build E4")
    with pytest.raises(IllegalOrderError, match="from the water"):
        RS.parse_orders(wet, 0, "E4>F5")  # water again
    assert RS.parse_orders(wet, 0, "E4>F4") == [Walk((H("E4"), H("F4")))]


def test_general_never_enters_enemy_land_or_mountains():
    """A general cannot move onto cells occupied by the opponent or onto mountains."""
    state = general_game(D3=0)
    with pytest.raises(IllegalOrderError, match="generals cannot climb the mountain on E2"):
        RS.parse_orders(replace(state, generals={H("D2"): 0}), 0, "D2>E2")
    enemy = replace(state, owners={**state.owners, H("E3"): 1})
    with pytest.raises(IllegalOrderError, match="E3 belongs to your opponent"):
        RS.parse_orders(enemy, 0, "D3>E3")


def test_general_never_steps_on_another_general_but_may_enter_fortresses():
    """No general may step onto a cell where any general stands, while a cell with a fortress
    (own or opponent's) may be entered."""
    state = general_game(D3=0, D2=1)
    with pytest.raises(IllegalOrderError, match="another general stands on D2"):
        RS.parse_orders(state, 0, "D3>D2")
    fortified = replace(general_game(D3=0), fortresses={H("D2"): 1})
    assert play(fortified, "D3>D2").state.generals.get(H("D2")) == 0


def test_no_new_fortress_in_place_of_an_existing_one():
    """Building a new fortress in place of an existing one is forbidden."""
    fortified = replace(general_game(D2=0), fortresses={H("D2"): 1})
    with pytest.raises(IllegalOrderError, match="D2 already has a fortress"):
        RS.parse_orders(fortified, 0, "build D2")


def test_each_general_acts_once():
    """Every general of his may take one action (a)-(d) this turn."""
    state = general_game(D3=0, B5=0)
    state_after = play(state, "D3>D2; B5>A5").state
    assert {H("D2"), H("A5")} <= set(state_after.generals)
    with pytest.raises(IllegalOrderError, match="already acted"):
        RS.parse_orders(state, 0, "D3>D2; D2>D1")


def test_general_builds_even_away_from_territory():
    """A general builds only where a fortress may stand (land, not a city, no fortress); the claim is
    the same as a build."""
    state = general_game(G2=0)
    state = play(state, "build G2").state
    assert {"G2", *(n.label for n in H("G2").neighbours() if n in state.terrain)} <= owned(state, 0)


def test_surrender_ends_the_game():
    """Any player may surrender at any time; his holdings become neutral."""
    result = RS.remove_player(game(), 1, "surrender")
    assert RS.outcome(result.state).winners == (0,)
    assert owned(result.state, 1) == set()
