"""Ratings come from finished rated games: winners gain, shared places share, computers are rated by
level, unrated games and other servers' games stay out of a server's board, and a rebuild from the
games gives the same ratings as catching up one game at a time."""

from __future__ import annotations

import pytest

from service.errors import GameError
from service.models import TimeSettings
from tests.service.conftest import ALICE, BOB, CAROL, CHANNEL, GUILD, HOUR

OTHER_GUILD = GUILD + 1


async def finished(env, winner, loser, *, guild=GUILD, rated=True, ai=False):
    """A two-seat conquest game that ``loser`` surrenders (or a computer seat, with ``ai``)."""
    master = env.master
    game = await master.lobby.create_game(
        guild_id=guild,
        channel_id=CHANNEL + guild,
        actor=winner,
        ruleset="conquest",
        options={"size": "small"},
        time=TimeSettings(round_seconds=HOUR),
        rated=rated,
    )
    if ai:
        await master.lobby.add_ai(game.id, winner)
    else:
        await master.lobby.join(game.id, loser)
    await master.lobby.start_game(game.id, winner)
    env.clock.advance(60)
    return await master.play.surrender(game.id, loser if not ai else winner)


def by_player(board):
    return {s.name: s for s in board}


async def test_the_winner_is_rated_above_the_loser_and_games_wins_points_are_counted(env):
    await finished(env, ALICE, BOB)
    board = await env.master.ratings.leaderboard("conquest")
    assert [s.name for s in board] == ["Alice", "Bob"]
    alice, bob = by_player(board)["Alice"], by_player(board)["Bob"]
    assert alice.rating > bob.rating and (alice.games, alice.wins, bob.games, bob.wins) == (1, 1, 1, 0)


async def test_a_draw_shares_the_place_and_the_rating(env):
    master = env.master
    game = await master.lobby.create_game(
        guild_id=GUILD, channel_id=CHANNEL, actor=ALICE, ruleset="conquest", options={"size": "small"}
    )
    await master.lobby.join(game.id, BOB)
    await master.lobby.start_game(game.id, ALICE)
    await master.play.propose_draw(game.id, ALICE)
    await master.play.propose_draw(game.id, BOB)
    board = by_player(await master.ratings.leaderboard("conquest"))
    alice, bob = board["Alice"], board["Bob"]
    assert alice.rating == pytest.approx(bob.rating) and alice.wins == bob.wins


async def test_computers_are_rated_by_level(env):
    await finished(env, ALICE, None, ai=True)  # Alice surrenders to the computer
    board = by_player(await env.master.ratings.leaderboard("conquest"))
    assert board["Computer (Extreme)"].rating > board["Alice"].rating
    assert board["Computer (Extreme)"].player == "computer:Extreme"


async def test_unrated_games_and_other_servers_stay_out(env):
    await finished(env, ALICE, BOB)
    await finished(env, CAROL, ALICE, rated=False)
    await finished(env, CAROL, BOB, guild=OTHER_GUILD)
    here = by_player(await env.master.ratings.leaderboard("conquest", scope=GUILD))
    assert set(here) == {"Alice", "Bob"} and here["Alice"].games == 1
    everywhere = by_player(await env.master.ratings.leaderboard("conquest"))
    assert set(everywhere) == {"Alice", "Bob", "Carol"} and everywhere["Bob"].games == 2
    with pytest.raises(GameError, match="unknown game"):
        await env.master.ratings.leaderboard("chess")


async def test_stats_follow_a_players_rating_game_by_game(env):
    await finished(env, ALICE, BOB)
    await finished(env, ALICE, CAROL)
    await finished(env, BOB, ALICE)
    standing, history = (await env.master.ratings.player_stats(ALICE.user_id))["conquest"]
    assert (standing.games, standing.wins) == (3, 2) and len(history) == 3
    assert history[1] > history[0] and history[2] < history[1]  # two wins raise it, a loss lowers it


async def test_ratings_rebuilt_from_the_games_equal_those_caught_up_game_by_game(env):
    for winner, loser in ((ALICE, BOB), (BOB, CAROL), (CAROL, ALICE), (ALICE, CAROL)):
        await finished(env, winner, loser)
        await env.master.ratings.catch_up_ratings()
    stepwise = await env.master.ratings.leaderboard("conquest")
    assert await env.master.ratings.rebuild_ratings() == 4
    assert await env.master.ratings.leaderboard("conquest") == stepwise
    assert await env.master.ratings.catch_up_ratings() == 0  # each game is applied once


async def test_a_game_is_rated_as_it_ends_and_a_leaderboard_only_reads(env, monkeypatch):
    """A game is rated in the transaction that ends it, so a leaderboard never writes: it does not
    queue behind the games' turns for the write lock, nor scan the finished games."""
    writes = []
    transaction = env.db.transaction

    def counted():
        writes.append(1)
        return transaction()

    await finished(env, ALICE, BOB)
    monkeypatch.setattr(env.db, "transaction", counted)
    assert [s.name for s in await env.master.ratings.leaderboard("conquest")] == ["Alice", "Bob"]
    assert await env.master.ratings.player_stats(ALICE.user_id)
    assert writes == []


async def test_games_an_older_version_left_unrated_are_caught_up_once(env):
    """Before games were rated as they ended, they were rated when ratings were read: a database from
    then may hold finished games not rated yet, which the catch-up at start-up rates, once."""
    await finished(env, ALICE, BOB)
    async with env.db.transaction() as conn:
        for table in ("ratings", "rating_history", "rated_games"):
            await conn.execute(f"DELETE FROM {table}")
    assert await env.master.ratings.leaderboard("conquest") == []
    assert await env.master.ratings.catch_up_ratings() == 1
    assert [s.name for s in await env.master.ratings.leaderboard("conquest")] == ["Alice", "Bob"]
    assert await env.master.ratings.catch_up_ratings() == 0
