"""Siege rules, one test per rule of rules/siege.md, each quoting the rule it checks."""

from __future__ import annotations

import json
import re
from dataclasses import replace

import pytest

from engine import IllegalOrderError, MapError, OptionError, OrderSyntaxError, StateError, find_ruleset
from engine.siege import KOMI
from engine.siege.board import SHIPPED, SiegeMap, capitals, generate_map
from engine.siege.orders import Action
from engine.siege.tactics import winning_line
from engine.squaregrid import Square, SquareGrid
from service.gameoptions import creation_options, settle

RS = find_ruleset("siege")


def sq(label: str) -> Square:
    return Square.from_label(label)


def board(
    p0=(), p1=(), *, owned0=(), owned1=(), rivers=(), mountains=None, walls=None, towers=(), turn=0, size=10, **options
):
    """A board without terrain (10x10: capitals E1 and F10, owned), the given tokens (each on a
    square of its player) and owned squares, then the terrain and fortifications given; no komi
    unless ``komi`` is given (the rules of territory, plain)."""
    state = RS.setup(2, {"map": {"name": "plain", "size": size}, "komi": "0", **options}, seed=1)
    owners = {state.capitals[0]: 0, state.capitals[1]: 1}
    tokens = {}
    for seat, labels, owned in ((0, p0, owned0), (1, p1, owned1)):
        owners.update({sq(label): seat for label in (*labels, *owned)})
        tokens.update({sq(label): seat for label in labels})
    return replace(
        state,
        owners=owners,
        tokens=tokens,
        rivers=frozenset(map(sq, rivers)),
        mountains={sq(label): level for label, level in (mountains or {}).items()},
        walls={sq(label): count for label, count in (walls or {}).items()},
        towers=frozenset(map(sq, towers)),
        turn=turn,
    )


def play(state, text: str):
    """The position after the player to move plays ``text`` (parsed and validated as players type it)."""
    seat = state.to_move
    return RS.resolve(state, {seat: RS.parse_orders(state, seat, text)})


def after(state, text: str):
    return play(state, text).state


def refused(state, text: str, reason: str) -> None:
    with pytest.raises(IllegalOrderError, match=reason):
        RS.parse_orders(state, state.to_move, text)


# --- board and setup ------------------------------------------------------------------------


def test_board_sizes_labels_and_orthogonal_adjacency():
    """10×10 (default) or 12×12 square grid; columns A–J (or A–L), rows 1–10 (or 1–12); adjacency is
    orthogonal (4 neighbours) for every action."""
    assert RS.setup(2, {}, seed=1).size == 10
    big = RS.setup(2, {"size": 12}, seed=1)
    assert big.size == 12 and big.capitals[1] == sq("G12")
    refused(board(["C3"]), "expand D4", "not next to one of your tokens")
    refused(board(["C3"]), "expand K3", "K3 is not on the board")
    assert sq("L12") in after(board(["L11"], size=12), "expand L12").tokens


def test_generated_maps_are_seeded_symmetric_and_clear_around_capitals():
    """Random rivers and mountains (mountain level 1–3, default 1), seeded. **Decision**: the map is
    point-symmetric for fairness. Capitals and their immediate neighbours are always clear."""
    for size in (10, 12):
        grid = SquareGrid(size, size)
        for seed in range(12):
            for level in (1, 3):
                field = generate_map(seed, size, level)
                assert field == generate_map(seed, size, level)
                assert field.rivers and field.mountains
                assert set(field.mountains.values()) == {level}
                assert {grid.mirror(s) for s in field.rivers} == field.rivers
                assert {grid.mirror(s): v for s, v in field.mountains.items()} == field.mountains
                for capital in capitals(size):
                    for near in (capital, *capital.orthogonal()):
                        assert near not in field.rivers and near not in field.mountains
    assert generate_map(1) != generate_map(2)
    assert set(RS.setup(2, {"mountain_level": 2}, seed=4).mountains.values()) == {2}


def test_capitals_and_starting_tokens():
    """Each capital sits at the centre of its back row (**Decision**: player 0 on row 1 at column E of
    10 / F of 12; player 1 on the last row at the point-mirrored column). 3 starting tokens stand
    orthogonally adjacent to each capital. Player 0 starts. The capital square is owned."""
    state = RS.setup(2, {}, seed=3)
    assert state.capitals == (sq("E1"), sq("F10"))
    assert capitals(12) == (sq("F1"), sq("G12"))
    assert {s.label: seat for s, seat in state.tokens.items()} == {
        "D1": 0, "F1": 0, "E2": 0, "E10": 1, "G10": 1, "F9": 1,
    }  # fmt: skip
    assert state.owners[sq("E1")] == 0 and state.owners[sq("F10")] == 1
    assert RS.acting_players(state) == {0}


def test_tokens_are_unlimited_and_squares_are_owned_or_neutral():
    """Tokens are unlimited. A square is owned by a player, or neutral."""
    snake = [
        f"{col}{row}"
        for col, rows in zip("ABCD", (range(2, 11), range(10, 0, -1), range(1, 11), range(10, 0, -1)))
        for row in rows
    ]
    state = board(["A1"], ["J10"])
    for turn in range(10):
        state = after(after(state, "; ".join(f"expand {label}" for label in snake[3 * turn : 3 * turn + 3])), "end")
    assert sum(1 for seat in state.tokens.values() if seat == 0) == 31  # more than a box's 25
    assert sq("H5") not in state.owners  # neutral: owned by nobody


# --- the turn -------------------------------------------------------------------------------


def test_six_ep_a_turn_that_do_not_carry_over():
    """Turn: 6 EP to spend on any mix of actions; EP does not carry over."""
    state = board(["C3"], ["H8"])
    refused(state, "expand C4; expand C5; expand C6; expand C7", "costs 2 EP, but only 0 of your 6 EP are left")
    state = after(state, "expand C4")  # 4 EP unspent
    state = after(state, "end")
    refused(state, "expand C5; expand C6; expand C7; expand C8", "only 0 of your 6 EP are left")
    assert len(after(state, "expand C5; expand C6; expand C7").tokens) == 6


def test_expand():
    """Expand (2): Place a new token on an empty square orthogonally adjacent to one of your tokens;
    not river or mountain; not enemy-owned. The capital cannot expand."""
    state = board(["C3"], ["C5"], owned1=["D3"], rivers=["B3"], mountains={"C2": 1})
    new = after(state, "expand C4")
    assert new.tokens[sq("C4")] == 0 and new.owners[sq("C4")] == 0 and new.tokens[sq("C3")] == 0
    refused(state, "expand B3", "B3 is a river")
    refused(state, "expand C2", "C2 is a mountain")
    refused(state, "expand D3", "belongs to your opponent")
    refused(state, "expand C3", "C3 is not empty")
    refused(board(), "expand E2", "not next to one of your tokens \\(the capital cannot expand\\)")
    with pytest.raises(IllegalOrderError, match="C6 is not next to one of your tokens") as far:
        RS.parse_orders(state, 0, "expand C6")
    assert "capital" not in str(far.value), "the capital's excuse belongs only next to the capital"


def test_move():
    """Move (2): Move one non-capital token to an adjacent empty square you already own (not into
    neutral). The square left stays yours."""
    state = board(["C3"], owned0=["C4"])
    new = after(state, "move C3>C4")
    assert sq("C3") not in new.tokens and new.tokens[sq("C4")] == 0 and new.owners[sq("C3")] == 0
    refused(state, "move C3>B3", "B3 is not yours")
    refused(board(["E2"]), "move E1>D1", "the capital cannot move")
    refused(board(["C3", "C4"]), "move C3>C4", "C4 is not empty")


def test_deploy():
    """Deploy (3): Place a new token on an empty, non-terrain, not enemy-owned square in your back two
    rows."""
    state = board(["E2"], owned1=["H2"], mountains={"A2": 1})
    new = after(state, "deploy A1")
    assert new.tokens[sq("A1")] == 0 and new.owners[sq("A1")] == 0
    refused(state, "deploy A3", "not in your back two rows \\(1 and 2\\)")
    refused(state, "deploy A2", "A2 is a mountain")
    refused(state, "deploy H2", "belongs to your opponent")
    refused(state, "deploy E1", "E1 is not empty")
    refused(state, "deploy A1; deploy B1; deploy C1", "costs 3 EP, but only 0")
    assert sq("A10") in after(after(state, "end"), "deploy A10").tokens


def test_attack_costs_and_targets():
    """Attack (2 + 2 per Wall layer + 4 if a Tower): From one of your tokens into an adjacent enemy
    square (not river or mountain). The capital cannot attack."""
    state = board(["C3", "E2"], ["C4", "D2"], owned1=["B3"], walls={"C4": 2})
    assert play(state, "attack C3>C4").events[0].data["cost"] == 6
    refused(state, "attack C3>C4; attack C3>B3", "costs 2 EP, but only 0")
    refused(state, "attack C3>D3", "D3 is not your opponent's")
    refused(state, "attack E1>D1", "the capital cannot attack")
    towered = board(["C3"], ["C4"], towers=["C4"])
    assert play(towered, "attack C3>C4").events[0].data["cost"] == 6
    assert play(board(["C3"], ["C4"], walls={"C4": 1}), "attack C3>C4").events[0].data["cost"] == 4


def test_cross():
    """Cross (2): From one of your tokens into an adjacent river square (neutral or yours); it becomes
    yours. Cannot capture."""
    state = board(["C3"], ["D4"], rivers=["C4", "B3", "D3"], owned0=["B3"], owned1=["D3"])
    new = after(state, "cross C3>C4")
    assert new.owners[sq("C4")] == 0 and new.tokens[sq("C4")] == 0 and new.owners[sq("C3")] == 0
    assert after(state, "cross C3>B3").tokens[sq("B3")] == 0
    refused(state, "cross C3>D3", "belongs to your opponent; it cannot be captured")
    refused(state, "cross C3>C2", "C2 is not a river")


def test_climb():
    """Climb (2): From one of your tokens onto an adjacent mountain square (neutral or yours) of any
    level; it becomes yours; the mountain stays."""
    state = board(["C3"], ["D4"], mountains={"C4": 3, "D3": 1}, owned1=["D3"])
    new = after(state, "climb C3>C4")
    assert new.owners[sq("C4")] == 0 and new.tokens[sq("C4")] == 0 and new.mountains[sq("C4")] == 3
    refused(state, "climb C3>D3", "belongs to your opponent")
    refused(state, "climb C3>B3", "B3 is not a mountain")


def test_dig():
    """Dig (2): Lower a mountain by 1 on a square where you have a token or adjacent to one; at 0 it
    disappears."""
    state = board(["C3"], mountains={"C4": 2, "C2": 1, "H7": 1})
    new = after(state, "dig C4; dig C2")
    assert new.mountains[sq("C4")] == 1 and sq("C2") not in new.mountains
    refused(state, "dig H7", "no token on or next to H7")
    refused(state, "dig D5", "there is no mountain on D5")
    assert after(board(["C3"], mountains={"C3": 2}), "dig C3").mountains[sq("C3")] == 1


def test_fill():
    """Fill (2): On a square you own (even with your token on it), create a mountain or raise it by 1
    (max 3)."""
    state = board(["C3"], owned0=["C4"], mountains={"C4": 2})
    new = after(state, "fill C3; fill C4")
    assert new.mountains[sq("C3")] == 1 and new.mountains[sq("C4")] == 3 and new.tokens[sq("C3")] == 0
    refused(after(new, "end"), "fill C4", "already at level 3")
    refused(state, "fill D4", "D4 is not yours")


def test_wall():
    """Wall (3): Add a wall (max 2) to a square occupied by your token or your capital, without a
    tower."""
    state = board(["C3"], owned0=["C4"], towers=["C3"])
    new = after(state, "wall E1; wall E1")
    assert new.walls[sq("E1")] == 2
    refused(after(new, "end"), "wall E1", "E1 already has 2 walls")
    refused(state, "wall C4", "holds neither your token nor your capital")
    refused(state, "wall C3", "C3 has a tower")


def test_tower():
    """Tower (5): Place a tower on such a square if it has no walls (one per square)."""
    state = board(["C3", "C5"], walls={"C5": 1})
    assert sq("C3") in after(state, "tower C3").towers
    refused(state, "tower C5", "has walls")
    refused(board(["C3"], towers=["C3"]), "tower C3", "C3 has a tower")
    refused(state, "tower C3; wall C5", "costs 3 EP, but only 1")


def test_end_turn():
    """End turn (0): Pass play."""
    state = board(["C3"])
    result = play(state, "end")
    assert result.state.to_move == 1 and result.state.tokens == state.tokens
    assert [e.kind for e in result.events] == ["passed"]
    assert RS.parse_orders(state, 0, "expand C4; end") == [Action("expand", sq("C4")), Action("end")]
    refused(state, "end; expand C4", "end must be the last action")


def test_empty_and_from_one_of_your_tokens():
    """ "Empty" means no token and no capital. "From one of your tokens" never includes the capital."""
    state = board(["F1"], ["E2"], owned0=["D1"])
    refused(state, "move F1>E1", "E1 is not empty")
    refused(state, "attack E1>E2", "the capital cannot attack")
    refused(board(["F1"], owned0=["D1"]), "expand D1", "not next to one of your tokens")


# --- combat ---------------------------------------------------------------------------------


def test_attacks_are_paid_up_front_at_todays_price():
    """Each attack pays its whole cost up front, priced on the square's fortifications at that
    moment."""
    state = board(["C3"], ["C4"], walls={"C4": 1})
    result = play(state, "attack C3>C4; attack C3>C4")
    assert [e.data["cost"] for e in result.events] == [4, 2]
    assert result.state.tokens[sq("C4")] == 0


def test_a_tower_is_removed_without_capture():
    """If a tower stands there, it is removed (no capture)."""
    new = after(board(["C3"], ["C4"], towers=["C4"]), "attack C3>C4")
    assert sq("C4") not in new.towers and new.tokens[sq("C4")] == 1 and new.tokens[sq("C3")] == 0


def test_exactly_one_wall_is_removed():
    """Else if walls stand there, exactly one wall is removed (no capture)."""
    new = after(board(["C3"], ["C4"], walls={"C4": 2}), "attack C3>C4")
    assert new.walls[sq("C4")] == 1 and new.tokens[sq("C4")] == 1


def test_capture_moves_the_attacker_in():
    """Else the square (or capital) is captured: the attacking token moves in; the enemy token there
    is destroyed; the square it left stays yours."""
    new = after(board(["C3"], ["C4"], owned1=["C5"]), "attack C3>C4; attack C4>C5")
    assert new.tokens == {sq("C5"): 0} and all(new.owners[sq(x)] == 0 for x in ("C3", "C4", "C5"))


def test_capturing_a_capital_ends_the_game_at_once():
    """Capturing a capital ends the game at once."""
    state = board(["F8", "A1"], ["J10"], owned0=["F9"], turn=0)
    result = play(state, "expand F9; attack F9>F10")
    outcome = RS.outcome(result.state)
    assert outcome.winners == (0,) and outcome.reason == "the capital was taken"
    assert result.events[-1].kind == "game_over" and RS.acting_players(result.state) == frozenset()
    refused(state, "expand F9; attack F9>F10; expand A2", "the capture of the capital ended the game")


def test_option_one_paid_attack_clears_all_and_captures():
    """**Decision**: this literal reading is the default; an option makes one paid attack clear all
    fortifications and capture."""
    state = board(["F9", "A1"], ["J10"], walls={"F10": 2}, clear_all=True)
    result = play(state, "attack F9>F10")
    assert result.events[0].data["cost"] == 6 and RS.outcome(result.state).winners == (0,)
    towered = after(board(["C3"], ["C4"], towers=["C4"], clear_all=True), "attack C3>C4")
    assert towered.tokens[sq("C4")] == 0 and not towered.towers


# --- decisions ------------------------------------------------------------------------------


def test_tokens_on_rivers_and_mountains_cannot_be_attacked():
    """A token standing on a river or mountain square cannot be attacked (the card forbids attacking
    into them)."""
    state = board(["C3"], ["C4", "D3"], rivers=["C4"], mountains={"D3": 2})
    refused(state, "attack C3>C4", "C4 is a river; it cannot be attacked")
    refused(state, "attack C3>D3", "D3 is a mountain; it cannot be attacked")


def test_dig_under_an_enemy_token_keeps_level_one():
    """Dig may lower a mountain under an enemy token only when that mountain stays at level 1 or more
    (a token is never left on a vanished mountain: at 0 the square becomes plain land and keeps its
    owner and token)."""
    state = board(["C3"], ["C4", "D3"], mountains={"C4": 2, "D3": 1})
    assert after(state, "dig C4").mountains[sq("C4")] == 1
    refused(state, "dig D3", "its mountain cannot be dug below level 1")
    own = after(board(["C3"], mountains={"C3": 1}), "dig C3")
    assert sq("C3") not in own.mountains and own.tokens[sq("C3")] == 0 and own.owners[sq("C3")] == 0
    emptied = after(board(["C3"], owned1=["C4"], mountains={"C4": 1}), "dig C4; attack C3>C4")
    assert emptied.owners[sq("C4")] == 0


def test_fill_never_on_a_capital():
    """Fill may not be used on a capital square."""
    refused(board(["E2"]), "fill E1", "a capital cannot be filled")


def test_fill_never_next_to_a_capital():
    """Capitals and their immediate neighbours are always clear holds for the whole game, so Fill is
    refused on a capital's neighbours as well."""
    state = board(["C3", "E2"], owned0=["D1", "F1"], owned1=["F9"])
    refused(state, "fill D1", "D1 is next to a capital")
    refused(state, "fill E2", "E2 is next to a capital")
    refused(replace(state, turn=1), "fill F9", "F9 is next to a capital")
    assert after(state, "fill C3").mountains[sq("C3")] == 1


def test_a_position_after_dig_and_fill_is_stored_and_loaded():
    """The map's symmetry and the clear squares are rules for the starting map only: once Dig and Fill
    have been played the terrain is no longer symmetric, and a game in that position is perfectly
    healthy (it must save, load and go on like any other)."""
    state = RS.setup(2, {}, seed=1)
    state = after(state, "expand C1; fill C1")
    state = after(after(state, "end"), "dig C1")
    loaded = RS.from_dict(json.loads(json.dumps(RS.to_dict(state))))
    assert loaded == state and sq("C1") not in loaded.mountains and loaded.owners[sq("C1")] == 0
    after(loaded, "end")
    filled = after(RS.setup(2, {}, seed=1), "expand C1; fill C1")
    assert RS.from_dict(RS.to_dict(filled)).mountains[sq("C1")] == 1
    with pytest.raises(MapError, match="point-symmetric"):
        SiegeMap.from_dict({"name": "played", **{k: RS.to_dict(filled)[k] for k in ("size", "rivers", "mountains")}})


def test_actions_run_in_order_and_a_bad_turn_is_refused_whole():
    """Each action is applied at once, in the order written; a turn is refused whole if any action in
    it is illegal at the moment it would run, or if the turn spends more than 6 EP."""
    state = board(["C3"])
    assert sq("C5") in after(state, "expand C4; expand C5").tokens  # C5 is next to the new C4
    refused(state, "expand C5; expand C4", "'expand C5' \\(action 1\\): C5 is not next to one of your tokens")
    refused(state, "expand C4; wall C4; wall C4", "'wall C4' \\(action 3\\) costs 3 EP, but only 1")
    with pytest.raises(OrderSyntaxError, match="'conquer c4' is not an action"):
        RS.parse_orders(state, 0, "expand C4; conquer C4")
    with pytest.raises(IllegalOrderError, match="action 2"):
        RS.resolve(state, {0: [Action("expand", sq("C4")), Action("expand", sq("C9"))]})
    assert set(state.tokens) == {sq("C3")}


def test_board_full():
    """ "Board full": no neutral square is left that either player could take with Expand, Deploy,
    Cross or Climb from the current position (Dig does not count)."""

    def position(p0, neutral):
        owned = [s.label for s in SquareGrid(10, 10).squares() if s.label not in ("E1", "F10", *neutral)]
        return board(p0, ["F9"], owned0=owned, rivers=["C5"], mountains={"H6": 2})

    full = after(position(["E2"], ["C5", "H6"]), "end")  # nobody is next to the river or the mountain
    assert full.ended == "full" and RS.outcome(full).reason == "the board is full"
    assert not after(position(["C4"], ["C5", "H6"]), "end").over  # C4 can cross into C5
    assert not after(position(["E2"], ["C5", "H6", "A1"]), "end").over  # A1 is free to deploy to
    assert after(position(["E2"], ["C5", "H6", "A5"]), "end").over  # nobody can reach A5


def test_the_turn_limit_counts_both_players():
    """The turn limit counts turns of both players together (200 = 100 each)."""
    state = RS.setup(2, {"turn_limit": 20}, seed=2)
    turns = 0
    while not state.over and turns < 25:
        state = RS.resolve(state, {}).state
        turns += 1
    assert turns == 20 and state.ended == "limit"


# --- victory --------------------------------------------------------------------------------


def test_territory_decides_a_full_board_or_the_turn_limit():
    """Secondary: when the board is full (no neutral land square is left that either player could
    still take) with no capital captured, the higher territory count wins (all owned squares, rivers
    and mountains included); equal = draw. **Decision**: a turn limit (default 200 turns) ends the
    game the same way, so no game can loop forever."""
    assert RS.options_schema()[2].default == 200
    state = board(["E2"], ["F9"], owned0=["A1", "B1"], rivers=["A1"], mountains={"B1": 1}, turn_limit=20, turn=19)
    outcome = RS.outcome(RS.resolve(state, {}).state)
    assert outcome.winners == (0,) and outcome.reason == "the turn limit was reached"
    even = board(["E2"], ["F9"], turn_limit=20, turn=19)
    assert RS.outcome(RS.resolve(even, {}).state).draw


def test_komi_compensates_the_second_player_for_the_first_move():
    """Balance (rules/fortress.md): where one seat wins more than 55% of decisive strongest-vs-strongest
    games, a measured compensation is added the same way: seat 0 moves first, so seat 1's territory
    gets a komi at the end, by default the measured value for the board size, option komi to set it
    by hand (0 turns it off), in half squares."""
    for size in (10, 12):
        assert RS.setup(2, {"size": size}, seed=1).komi == KOMI[size]
    assert board(komi="3.5").komi == 3.5 and board().komi == 0
    with pytest.raises(OptionError, match="komi"):
        RS.normalize_options({"komi": "12.5"})
    even = RS.resolve(board(["E2"], ["F9"], turn_limit=20, turn=19), {}).state
    assert even.territory(0) == even.territory(1) and RS.outcome(even).draw
    given = replace(even, komi=0.5)
    assert given.score(1) == given.territory(1) + 0.5 and given.score(0) == given.territory(0)
    assert RS.outcome(given).winners == (1,) and RS.standing(given) == ((1,), (0,))
    ahead = replace(even, owners={**even.owners, sq("A1"): 0}, komi=0.5)
    assert RS.outcome(ahead).winners == (0,)
    assert RS.outcome(replace(ahead, komi=1.0)).draw
    left = RS.remove_player(board(["E2"], ["F9"], komi="0.5"), 1, "surrender").state
    assert RS.outcome(left).winners == (0,)  # the komi counts only where the territory decides


def test_games_begun_without_komi_load_and_go_on_without_one():
    """A game stored before the komi existed (state version 1) loads with none."""
    data = RS.to_dict(RS.setup(2, {}, seed=3))
    older = {key: value for key, value in data.items() if key != "komi"} | {"version": 1}
    assert RS.from_dict(older).komi == 0 and RS.to_dict(RS.from_dict(older))["version"] == RS.state_version
    for damaged in (-0.5, 2.25, 12.5, "2", True, None):
        with pytest.raises(StateError, match="damaged: komi "):
            RS.from_dict({**data, "komi": damaged})


def test_surrender_and_removal_leave_the_holdings_neutral():
    """rules/README.md: Removed and surrendered players' holdings become neutral. Any player may
    surrender at any time."""
    state = board(["C3"], ["C4"], walls={"C4": 1}, owned1=["C5"])
    result = RS.remove_player(state, 1, "surrender")
    assert RS.outcome(result.state).winners == (0,)
    assert all(owner == 0 for owner in result.state.owners.values()) and not result.state.walls
    assert RS.default_orders(state, 0) == []  # a missed deadline ends the turn without acting


# --- clocks and bots ------------------------------------------------------------------------


def test_chess_clocks_and_increment():
    """Chess clock option: total time per player — Bullet (1 or 2 min), Blitz (3 or 5 min), Rapid
    (10 or 15 min) — with an optional increment of 0–5 s per move."""
    assert [p.seconds for p in RS.clock_presets] == [60, 120, 180, 300, 600, 900]
    names = {o.name: o for o in creation_options(RS)}
    assert {"bullet-1", "blitz-5", "rapid-15"} <= set(names["clock"].choices)
    assert (names["increment"].minimum, names["increment"].maximum) == (0, 5)
    time = settle(RS, {"clock": "blitz-3", "increment": 2}).time
    assert (time.mode, time.bank_seconds, time.increment_seconds) == ("increment", 180, 2)


def test_bot_levels_and_their_budgets():
    """A player seat can be taken by a bot: Easy, Medium, Hard, Extreme. Extreme is the strongest and
    looks deepest ahead within a small per-move time budget."""
    assert [level.name for level in RS.bot_levels] == ["Easy", "Medium", "Hard", "Extreme"]
    budgets = [level.budget for level in RS.bot_levels]
    assert budgets == sorted(budgets) and RS.bot_level(None).name == "Extreme"
    state = RS.setup(2, {}, seed=5)
    assert RS.ai_orders(state, 0, 9) == RS.ai_orders(state, 0, 9, level="Extreme")  # the same seed, the same turn


@pytest.mark.parametrize("level", ["Medium", "Hard", "Extreme"])
def test_bots_take_a_capital_in_reach_and_defend_their_own(level):
    """Primary: capture the enemy capital."""
    state = board(["F7", "A1"], ["J10", "E3"], owned0=["F8"], owned1=["E4"])
    orders = RS.ai_orders(state, 0, 1, level=level)
    assert RS.outcome(RS.resolve(state, {0: orders}).state).winners == (0,)
    threatened = board(["F7", "A1"], ["J10"], owned0=["F8"], turn=1)
    assert winning_line(replace(threatened, turn=0), 0) is not None
    reply = RS.resolve(threatened, {1: RS.ai_orders(threatened, 1, 1, level=level)}).state
    assert winning_line(reply, 0) is None


# --- maps -----------------------------------------------------------------------------------


def test_shipped_maps_load_and_are_offered():
    """Every ruleset accepts an explicit map in options["map"]; shipped maps are validated data."""
    assert SHIPPED.names() == ["delta", "ford", "highlands"]
    for name in SHIPPED.names():
        field = SHIPPED.load(name)
        assert RS.setup(2, {"map": name}, seed=1).map_name == name
        assert SiegeMap.from_dict(json.loads(json.dumps(field.to_dict()))) == field


@pytest.mark.parametrize("note", ["(a; wall E1)", "(wall E1, later)", "(then\nend)"])
def test_a_note_in_brackets_cannot_hold_actions(note):
    """Text in brackets is a note and is ignored (the autocomplete's "(2 EP, 4 left)"); a note holding
    an action is refused, not dropped with it ("expand C1 (a; wall A1)" read as "expand C1")."""
    state = board(["C3"])
    assert RS.parse_orders(state, 0, "expand C4 (2 EP, 4 left)") == [Action("expand", sq("C4"))]
    with pytest.raises(OrderSyntaxError, match=re.escape(f"a note in parentheses cannot hold orders: {note!r}")):
        RS.parse_orders(state, 0, f"expand C4 {note}")
    assert RS.suggest_orders(state, 0, f"expand C4 {note}; ") == []  # nothing builds on it


@pytest.mark.parametrize(
    "data, message",
    [
        ({"size": 11}, "map size must be 10 or 12"),
        ({"size": 10, "rivers": ["E2"]}, "E2 is a capital or next to one"),
        ({"size": 10, "rivers": ["A5"]}, "must be point-symmetric: A5 and J6 differ"),
        ({"size": 10, "mountains": {"A5": 4, "J6": 4}}, "level 1, 2 or 3"),
        ({"size": 10, "rivers": ["A5", "J6"], "mountains": {"A5": 1, "J6": 1}}, "both river and mountain"),
        ({"size": 10, "rivers": ["Z9"]}, "river 'Z9' is not a cell of the 10x10 board"),
        ("nowhere", "unknown map 'nowhere'; shipped maps: delta, ford, highlands"),
    ],
)
def test_invalid_maps_are_refused_clearly(data, message):
    with pytest.raises(MapError, match=message):
        RS.setup(2, {"map": data}, seed=1)


def test_autocomplete_offers_legal_actions_with_their_price():
    """README: `/orders give text:` — autocomplete offers legal ones from your position (for siege,
    each with its EP cost and the EP left after it)."""
    state = board(["C3"], ["C4"], walls={"C4": 1})
    lines = RS.suggest_orders(state, 0, "")
    assert lines[0] == "attack C3>C4 (4 EP, 2 left)" and lines[-1] == "end (0 EP, 6 left)"
    assert "wall E1 (3 EP, 3 left)" in lines and "tower C3 (5 EP, 1 left)" in lines
    more = RS.suggest_orders(state, 0, lines[0] + "; ")
    assert more and all(line.startswith("attack c3>c4; ") for line in more)
    assert not any("wall" in line or "tower" in line for line in more)  # 3 and 5 EP: more than is left
    assert all(line.startswith("expand") for line in RS.suggest_orders(state, 0, "exp"))
    for line in lines + more:
        RS.parse_orders(state, 0, line)
    assert RS.suggest_orders(state, 1, "") == [] and RS.suggest_orders(state, 0, "end; ") == []
