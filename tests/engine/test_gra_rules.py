"""One test per rule of rules/gra.md (the seed's own examples among them); docstrings quote the rule."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine import IllegalOrderError, MapError, NotActingError, OrderSyntaxError, StateError, find_ruleset
from engine.gra.board import SHIPPED, generate
from engine.gra.orders import Create, Keep, Move, Pick
from engine.gra.state import Phase
from engine.standings import Seat, Status

RS = find_ruleset("gra")
# 1 - 2 - 3 - 4 - 5 - 6 - 7 - 8 - 9 (a path), plus 10 hanging off 5 and 11 off 3 and 5
LINE = {
    "name": "line",
    "nodes": [[float(i), 0.0] for i in range(9)] + [[4.0, 1.0], [3.0, 1.0]],
    "edges": [[i, i + 1] for i in range(1, 9)] + [[5, 10], [3, 11], [11, 10]],
}


def game(players: int = 2, **state):
    base = RS.setup(players, {"map": LINE}, seed=3)
    return replace(base, **{"phase": Phase.MOVE, **state})


def play(state, orders: dict[int, str]):
    return RS.resolve(state, {seat: RS.parse_orders(state, seat, text) for seat, text in orders.items()})


# --- Board -----------------------------------------------------------------------------------


@pytest.mark.parametrize("size, low, high", [("small", 20, 40), ("medium", 45, 80), ("large", 90, 140)])
def test_generated_graph_sizes_degrees_and_seed(size, low, high):
    """A generated, connected, planar-looking graph (Decision: triangulation of neighbours, degrees
    about 2-6; sizes small/medium/large about 30/60/120 nodes; the same seed gives the same map)."""
    graph = generate(size, 4)
    assert low <= len(graph.positions) <= high
    assert len(graph.components(graph.nodes)) == 1
    assert all(2 <= len(near) <= 6 for near in graph.adjacency.values())
    assert generate(size, 4) == graph and generate(size, 5) != graph


@pytest.mark.parametrize("name", SHIPPED.names())
def test_shipped_maps_are_valid(name):
    """Explicit maps as data (nodes with positions, edges) are accepted too; at least two are shipped."""
    graph = SHIPPED.load(name)
    assert len(graph.components(graph.nodes)) == 1
    assert len(SHIPPED.names()) >= 2


def test_bad_maps_are_refused():
    with pytest.raises(MapError, match="cut off"):
        RS.setup(2, {"map": {"nodes": [[0, 0], [1, 0], [2, 0]], "edges": [[1, 2]]}}, seed=1)
    with pytest.raises(MapError, match="must join two different nodes"):
        RS.setup(2, {"map": {"nodes": [[0, 0], [1, 0], [2, 0]], "edges": [[1, 4]]}}, seed=1)


# --- Negotiation -----------------------------------------------------------------------------


def test_negotiation_picks_are_many_and_far_apart():
    """Each player selects as many nodes as there are players, pairwise at least d edges apart."""
    state = RS.setup(2, {"map": LINE}, seed=3)
    assert state.phase == Phase.NEGOTIATE and RS.acting_players(state) == {0, 1} and RS.orders_are_secret(state)
    assert state.spacing >= 2
    with pytest.raises(IllegalOrderError, match="pick 2 different nodes"):
        RS.parse_orders(state, 0, "pick 1")
    with pytest.raises(IllegalOrderError, match="nodes 1 and 2 are 1 edge apart"):
        RS.parse_orders(state, 0, "pick 1 2")
    assert RS.parse_orders(state, 0, "pick 1 9") == [Pick((1, 9))]


def test_spacing_lowered_until_a_selection_exists():
    """d depends on map size and player count: Decision: start near sqrt(nodes/players) and lower it
    until such a selection exists."""
    tiny = {
        "name": "t",
        "nodes": [[0, 0], [1, 0], [2, 0], [3, 0], [4, 0], [5, 0]],
        "edges": [[1, 2], [2, 3], [3, 4], [4, 5], [5, 6]],
    }
    state = RS.setup(2, {"map": tiny}, seed=1)
    assert state.spacing == 2  # round(sqrt(6/2)) = 2, and 1 and 6 are 5 apart
    crowded = RS.setup(2, {"map": {**tiny, "edges": [[1, k] for k in range(2, 7)]}}, seed=1)
    assert crowded.spacing == 2 and RS.parse_orders(crowded, 0, "pick 2 3")


def test_each_player_gets_one_own_pick_far_from_the_others():
    """The game assigns each player one of his own picks: Decision: players in a seeded random order,
    each given the pick farthest (by the smallest distance) from the starts already assigned. Each
    player then has that one node with one soldier."""
    state = RS.setup(2, {"map": LINE}, seed=3)
    result = RS.resolve(state, {0: [Pick((1, 9))], 1: [Pick((1, 8))]})
    starts = {e.data["seat"]: e.data["node"] for e in result.events if e.kind == "start"}
    assert starts[0] in (1, 9) and starts[1] in (1, 8) and starts[0] != starts[1]
    assert abs(starts[0] - starts[1]) >= 7
    after = result.state
    assert after.ready == {starts[0]: (0, 1), starts[1]: (1, 1)} and after.phase == Phase.MOVE


# --- Move phase --------------------------------------------------------------------------------


def test_move_phase_is_for_players_with_ready_soldiers():
    """Move phase — played by the players who have ready (non-spawning) soldiers."""
    state = game(owners={1: 0, 9: 1}, ready={1: (0, 1)}, spawning={9: (1, 1)})
    assert RS.acting_players(state) == {0}
    with pytest.raises(NotActingError):
        RS.parse_orders(state, 1, "9>8")


def test_soldiers_stay_or_move_one_edge_and_join():
    """Every ready soldier either stays or moves along one edge; several orders per node allowed.
    Soldiers from several directions into one node join into one army."""
    state = game(owners={4: 0, 6: 0, 9: 1}, ready={4: (0, 3), 6: (0, 2), 9: (1, 1)})
    with pytest.raises(IllegalOrderError, match="node 6 is not next to node 4"):
        RS.parse_orders(state, 0, "4>6 1")
    after = play(state, {0: "4>5 2; 4>3 1; 6>5", 1: ""}).state
    assert after.ready[5] == (0, 4) and after.ready[3] == (0, 1) and 4 not in after.ready


def test_territory_stays_yours_when_soldiers_leave():
    """Occupying a neutral node makes it yours; it stays yours when your soldiers leave until another
    player takes it."""
    state = game(owners={4: 0, 9: 1}, ready={4: (0, 1), 9: (1, 1)})
    after = play(state, {0: "4>5", 1: ""}).state
    assert after.owners[4] == 0 and after.owners[5] == 0


def test_edge_fight_before_node_fight():
    """Edge fight: armies moving in opposite directions along one edge fight on the edge first. The
    bigger army wins, losing as many as the smallest had; a tie kills both. Survivors go on."""
    state = game(owners={4: 0, 5: 1, 9: 1}, ready={4: (0, 3), 5: (1, 1), 9: (1, 1)})
    result = play(state, {0: "4>5 3", 1: "5>4 1"})
    assert result.state.ready[5] == (0, 2) and result.state.owners[5] == 0
    assert any(e.kind == "edge_fight" for e in result.events)
    tie = play(replace(state, ready={4: (0, 2), 5: (1, 2), 9: (1, 1)}), {0: "4>5 2", 1: "5>4 2"}).state
    assert 4 not in tie.ready and 5 not in tie.ready and tie.owners[4] == 0 and tie.owners[5] == 1


def test_same_player_armies_pass_each_other():
    """Armies of the same player pass each other."""
    state = game(owners={4: 0, 5: 0, 9: 1}, ready={4: (0, 2), 5: (0, 1), 9: (1, 1)})
    after = play(state, {0: "4>5 2; 5>4 1", 1: ""}).state
    assert after.ready[5] == (0, 2) and after.ready[4] == (0, 1)


def test_defender_one_and_a_half_against_one():
    """1 defender (1.5) vs 1 attacker (1): both soldiers die and the node stays the defender's."""
    state = game(owners={4: 0, 5: 1, 9: 1}, ready={4: (0, 1), 5: (1, 1)})
    after = play(state, {0: "4>5 1", 1: ""}).state
    assert after.owners[5] == 1 and 5 not in after.ready and 4 not in after.ready


def test_defender_one_and_a_half_against_two():
    """1 defender (1.5) vs 2 attackers (2): the attacker takes the node with 1 soldier."""
    state = game(owners={4: 0, 5: 1, 9: 1}, ready={4: (0, 2), 5: (1, 1)})
    after = play(state, {0: "4>5 2", 1: ""}).state
    assert after.owners[5] == 0 and after.ready[5] == (0, 1)


def test_three_armies_two_one_one():
    """Node fight: every army present loses as many soldiers as the smallest army has, until at most
    one army is left. (Three armies 2/1/1: all lose 1, the army of 2 wins with 1.)"""
    state = game(players=3, owners={4: 0, 6: 1, 10: 2}, ready={4: (0, 2), 6: (1, 1), 10: (2, 1)})
    after = play(state, {0: "4>5 2", 1: "6>5 1", 2: "10>5 1"}).state
    assert after.owners[5] == 0 and after.ready[5] == (0, 1)


def test_defence_bonus_does_not_grow_and_ignores_directions():
    """The bonus does not grow with more soldiers and does not depend on directions."""
    state = game(owners={4: 0, 6: 0, 5: 1, 9: 1}, ready={4: (0, 2), 6: (0, 1), 5: (1, 3)})
    after = play(state, {0: "4>5 2; 6>5 1", 1: ""}).state  # 3 attackers from two sides vs 3 defenders
    assert after.owners[5] == 1 and 5 not in after.ready


def test_no_army_left_keeps_the_owner():
    """If no army is left, the node's owner does not change."""
    state = game(players=3, owners={4: 0, 6: 1, 5: 2, 10: 2}, ready={4: (0, 1), 6: (1, 1)})
    after = play(state, {0: "4>5 1", 1: "6>5 1"}).state
    assert after.owners[5] == 2


# --- Creating and spawning -------------------------------------------------------------------


def test_army_cap_and_creating_phase():
    """Creating phase — only players under their cap play. Army cap = floor(territory / 3) + 1
    (1 node -> 1, 3 -> 2, 6 -> 3, 9 -> 4), counting ready and spawning soldiers. A node may be chosen
    several times."""
    state = game(
        phase=Phase.CREATE,
        owners={n: 0 for n in (1, 2, 3, 4, 5, 6)} | {9: 1},
        ready={1: (0, 1)},
        spawning={},
    )
    assert [replace(state, owners={n: 0 for n in range(1, k + 1)}).cap(0) for k in (1, 3, 6, 9)] == [1, 2, 3, 4]
    assert RS.acting_players(state) == {0, 1}  # seat 1: 1 node, no soldiers, cap 1
    with pytest.raises(IllegalOrderError, match="you may create 2 soldiers now"):
        RS.parse_orders(state, 0, "create 2 2 3")
    with pytest.raises(IllegalOrderError, match="node 9 is not yours"):
        RS.parse_orders(state, 0, "create 9")
    assert RS.parse_orders(state, 0, "create 2 2") == [Create((2, 2))]


def test_over_the_cap_nothing_happens():
    """If he has more soldiers than the cap allows, nothing happens."""
    state = game(phase=Phase.CREATE, owners={1: 0, 9: 1}, ready={1: (0, 3), 9: (1, 1)})
    assert 0 not in RS.acting_players(state)


def test_spawning_soldiers_wait_one_move_phase_then_are_ready():
    """New soldiers stay in place through the next move phase, spawning: they cannot move. After that
    move phase they are ready."""
    state = game(phase=Phase.CREATE, owners={1: 0, 2: 0, 3: 0, 9: 1}, ready={9: (1, 1)}, spawning={})
    state = play(state, {0: "create 2 2"}).state
    assert state.spawning == {2: (0, 2)} and state.phase == Phase.MOVE
    assert RS.acting_players(state) == {1}  # all of seat 0's soldiers are spawning: it does not play
    state = play(state, {1: ""}).state
    assert state.ready[2] == (0, 2) and not state.spawning


def test_spawning_soldier_dies_when_node_taken_while_owner_cannot_move():
    """Spawning soldiers have no strength: they die when an enemy army takes their node. (The seed's
    example: red has only spawning soldiers, so only blue plays the move phase and kills one.)"""
    state = game(owners={4: 0, 5: 0, 6: 1, 9: 1}, ready={6: (1, 1)}, spawning={5: (0, 2), 4: (0, 1)})
    assert RS.acting_players(state) == {1}
    result = play(state, {1: "6>5"})
    assert result.state.owners[5] == 1 and result.state.ready[5] == (1, 1)
    assert any(e.kind == "spawning_killed" and e.data["node"] == 5 for e in result.events)
    assert result.state.ready[4] == (0, 1)  # the one not attacked is ready now


# --- Split territory ---------------------------------------------------------------------------


def test_split_territory_owner_chooses_part():
    """After a turn, a player whose owned nodes fall into several disconnected parts must choose one
    part to keep (by picking a node of it). The others become neutral. Decision: his soldiers
    (spawning too) in the discarded parts are lost."""
    cut = game(owners={3: 0, 4: 0, 6: 0, 5: 1, 10: 1}, ready={4: (0, 1), 6: (0, 1), 5: (1, 1)})
    after = play(cut, {0: "", 1: ""}).state
    assert after.phase == Phase.SPLIT and RS.acting_players(after) == {0}
    with pytest.raises(IllegalOrderError, match="node 5 is not yours"):
        RS.parse_orders(after, 0, "keep 5")
    kept = play(after, {0: "keep 6"}).state
    assert kept.owners.get(6) == 0 and 3 not in kept.owners and 4 not in kept.ready


def test_split_timeout_keeps_largest_part():
    """Decision: on timeout he keeps the largest part (then the one with most soldiers, then lowest id)."""
    cut = game(owners={1: 0, 2: 0, 3: 0, 5: 1, 7: 0, 9: 1}, ready={5: (1, 1), 7: (0, 1), 9: (1, 1)})
    after = play(cut, {0: "", 1: ""}).state
    assert after.phase == Phase.SPLIT
    assert RS.default_orders(after, 0) == [Keep(1)]
    kept = RS.resolve(after, {}).state
    assert kept.territory(0) == [1, 2, 3]


# --- End ---------------------------------------------------------------------------------------


def test_player_without_nodes_dies_and_last_alive_wins():
    """A player with no nodes is dead (killed). The last player alive wins."""
    state = game(owners={4: 0, 5: 1}, ready={4: (0, 2), 5: (1, 1)})
    result = play(state, {0: "4>5 2", 1: ""})
    assert result.state.players[1] == Seat(Status.ELIMINATED, "no nodes left", left=state.turn)
    outcome = RS.outcome(result.state)
    assert outcome.winners == (0,) and outcome.points == {0: 1, 1: 0}


def test_surrender_neutralizes_nodes_and_removes_soldiers():
    """Surrender at any time: the player is out, his nodes become neutral, his soldiers are removed."""
    state = game(players=3, owners={4: 0, 5: 1, 9: 2}, ready={4: (0, 1), 5: (1, 2), 9: (2, 1)})
    after = RS.remove_player(state, 1, "surrender").state
    assert 5 not in after.owners and 5 not in after.ready
    assert after.players[1] == Seat(Status.SURRENDERED, "surrender", left=state.turn)


def test_players_who_die_in_the_same_turn_share_their_place():
    """Players who die in the same turn share their place (and their points), as in every ruleset."""
    state = game(players=3, owners={3: 1, 4: 0, 5: 2}, ready={4: (0, 2)})
    after = play(state, {0: "4>3 1; 4>5 1"}).state
    outcome = RS.outcome(after)
    assert outcome.ranking == ((0,), (1, 2)) and outcome.points == {0: 2, 1: 0, 2: 0}


def test_turn_limit_ends_a_game_that_would_loop():
    """Decision: a turn limit (default 300 move phases, an option) ends the game, so no game can
    loop forever. (Two-player self-play of Easy on seed 3005 ran past 8,000 phases without it.)"""
    assert {o.name: o.default for o in RS.options_schema()}["turn_limit"] == 300
    state = RS.setup(2, {}, seed=3005)
    phases = 0
    while RS.outcome(state) is None:
        state = RS.resolve(
            state, {seat: RS.ai_orders(state, seat, 3005, level="Easy") for seat in RS.acting_players(state)}
        ).state
        phases += 1
    assert state.move_phases == 300 and phases < 1000
    assert RS.outcome(state).reason == "the turn limit was reached"


@pytest.mark.parametrize(
    "nodes, ready, winners",
    [
        ({0: [1, 2, 3], 1: [5, 6, 7, 8]}, {3: (0, 1), 5: (1, 1)}, (1,)),  # the most nodes wins
        ({0: [1, 2, 3], 1: [5, 6, 7]}, {3: (0, 1), 5: (1, 2)}, (1,)),  # equal nodes: the most soldiers
        ({0: [1, 2, 3], 1: [5, 6, 7]}, {3: (0, 1), 5: (1, 1)}, (0, 1)),  # equal nodes and soldiers: a draw
    ],
)
def test_at_the_turn_limit_most_nodes_then_soldiers_win(nodes, ready, winners):
    """Decision: a turn limit (default 300 move phases, an option) ends the game ...; then the most
    nodes wins, then the most soldiers; equal is a draw. Only move phases count toward it."""
    owners = {node: seat for seat, owned in nodes.items() for node in owned}
    state = replace(RS.setup(2, {"map": LINE, "turn_limit": 2}, seed=3), phase=Phase.MOVE, owners=owners, ready=ready)
    state = play(state, {seat: "" for seat in RS.acting_players(state)}).state
    assert (state.phase, state.move_phases, RS.outcome(state)) == (Phase.CREATE, 1, None)
    state = play(state, {seat: "" for seat in RS.acting_players(state)}).state
    assert (state.phase, state.move_phases, RS.outcome(state)) == (Phase.MOVE, 1, None)
    state = play(state, {seat: "" for seat in RS.acting_players(state)}).state
    outcome = RS.outcome(state)
    assert outcome.winners == winners and outcome.draw == (len(winners) == 2)
    assert outcome.reason == "the turn limit was reached"
    assert RS.acting_players(state) == frozenset()


def test_move_phases_are_numbered_as_the_turn_limit_counts_them():
    """The turn limit counts move phases, so players read "move phase 7 of 12": the phase that ends
    the game is the last number of the limit, whatever split and creating phases came between."""
    state, played, seen = RS.setup(3, {"turn_limit": 12}, seed=21), 0, []
    assert RS.turn_number(state, played) == (1, None)  # the negotiation
    while RS.outcome(state) is None:
        number, of = RS.turn_number(state, played)
        if state.phase == Phase.MOVE:
            assert of == 12 and number == state.move_phases + 1
            seen.append(number)
        else:
            assert of is None and number == max(state.move_phases, 1)
        orders = {seat: RS.ai_orders(state, seat, played, level="Medium") for seat in RS.acting_players(state)}
        state, played = RS.resolve(state, orders).state, played + 1
    assert seen == list(range(1, 13)) and played > 12


def test_the_turn_limits_reason_is_read_in_the_players_language():
    """Every text from the engine goes through the catalogs: a Chinese game ends in Chinese."""
    import i18n  # noqa: F401 - installs the catalogs
    from engine.i18n import tr, using

    owners, ready = {1: 0, 2: 0, 5: 1}, {1: (0, 1), 5: (1, 1)}
    state = replace(RS.setup(2, {"map": LINE, "turn_limit": 1}, seed=3), phase=Phase.MOVE, owners=owners, ready=ready)
    state = play(state, {seat: "" for seat in RS.acting_players(state)}).state
    with using("zh_Hans"):
        said = tr(RS.outcome(state).reason)
    assert said != RS.outcome(state).reason and not any("a" <= ch <= "z" for ch in said)


def test_later_departures_rank_above_earlier_ones():
    """The last player alive wins; a player who is out later ranks above one who was out before."""
    state = game(players=3, owners={3: 1, 4: 0, 9: 2}, ready={4: (0, 1), 9: (2, 1)})
    state = RS.remove_player(state, 2, "missed turns").state
    state = replace(state, turn=state.turn + 4)  # some turns later
    outcome = RS.outcome(play(state, {0: "4>3"}).state)
    assert outcome.ranking == ((0,), (1,), (2,)) and outcome.points == {0: 2, 1: 1, 2: 0}


def test_removal_of_the_only_acting_player_moves_the_game_on():
    """A turn is evaluated when all currently playing players submit: when the only player of a phase
    leaves, the phase resolves as it stands."""
    state = game(players=3, phase=Phase.CREATE, owners={1: 0, 5: 1, 9: 2}, ready={5: (1, 1), 9: (2, 1)})
    assert RS.acting_players(state) == {0}
    after = RS.remove_player(state, 0, "surrender").state
    assert after.phase == Phase.MOVE and RS.acting_players(after) == {1, 2}


def test_orders_are_secret_in_every_phase():
    """Secret negotiation; orders stay secret until the phase resolves."""
    assert all(RS.orders_are_secret(game(phase=p)) for p in Phase)
    assert Move(1, 2, 3) == RS.parse_orders(game(owners={1: 0}, ready={1: (0, 3)}), 0, "1>2 3")[0]


# --- Phases ------------------------------------------------------------------------------------

ONE_PER_PHASE = {
    Phase.NEGOTIATE: {},
    Phase.MOVE: {"owners": {4: 0, 9: 1}, "ready": {4: (0, 2), 9: (1, 1)}},
    Phase.CREATE: {"owners": {1: 0, 2: 0, 3: 0, 9: 1}, "ready": {}},
    Phase.SPLIT: {"owners": {1: 0, 2: 0, 5: 0, 9: 1}, "splits": {0: (frozenset({1, 2}), frozenset({5}))}},
}


@pytest.mark.parametrize(
    "phase, unit",
    [
        (Phase.NEGOTIATE, "start pick"),
        (Phase.MOVE, "move phase"),
        (Phase.CREATE, "creating phase"),
        (Phase.SPLIT, "split choice"),
    ],
)
def test_every_phase_is_named_stored_and_played(phase, unit):
    """Turn structure: phases. Each is named for players, keeps its stored name, and is played by
    its players with their own notation (the AI's orders print and parse back)."""
    state = game(phase=phase.value, **ONE_PER_PHASE[phase])  # a stored name becomes the Phase
    assert state.phase is phase and RS.turn_unit(state) == unit
    assert RS.to_dict(state)["phase"] == phase.value and RS.from_dict(RS.to_dict(state)).phase is phase
    seat = min(RS.acting_players(state))
    orders = RS.ai_orders(state, seat, 1)
    assert RS.parse_orders(state, seat, RS.format_orders(orders)) == orders
    assert RS.resolve(state, {seat: orders}).state.turn == state.turn + 1
    with pytest.raises(OrderSyntaxError, match=f"not an order for the {unit}"):
        RS.parse_orders(state, seat, "hello")


def test_an_unknown_phase_is_refused():
    data = RS.to_dict(game())
    with pytest.raises(StateError):
        RS.from_dict({**data, "phase": "dance"})
