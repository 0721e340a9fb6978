"""Planning a game's next transitions: pure and synchronous, so it runs off the event loop and a
crash before the plan is committed changes nothing.

A :class:`Planner` starts from a snapshot (game row, players, this turn's orders) and applies
engine transitions — setup, resolve, remove — recording history rows, player updates, the next
turn's computer orders and deadlines, and the announcements to post. The game master then writes
the whole plan in one transaction.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from engine import OrderError, Ruleset
from engine.standings import position_points
from i18n import mark
from service.announcements import (
    CARRIES_THE_CALL,
    DrawProposed,
    GameOver,
    GameStarted,
    NamedTurn,
    News,
    PlayerRemoved,
    Reminder,
    Replay,
    RoundResolved,
    SeatTakenOver,
    TurnCall,
    TurnStarted,
)
from service.daily import AUTO, choose
from service.models import FINISHED, RUNNING, GameRow, Glance, OrderRow, PlayerRow, Reliability, computer_name
from service.reminders import DEFAULT_SETTINGS, ReminderSettings, outside_quiet_hours, reminder_time
from service.timing import BANKED, bank_after_pass, clocked_nodes, daily_start, turn_deadline

log = logging.getLogger(__name__)


@dataclass
class HistoryRow:
    kind: str
    turn: int
    payload: dict[str, Any]
    events: list[dict[str, Any]]
    state_after: dict[str, Any]


# Computer players' orders for one position: (seat, seed, level, nodes) each, their texts in that order.
BotOrders = Callable[[dict[str, Any], list[tuple[int, str, str | None, int]]], list[str]]
"""A computer player's orders as text, from (state as stored, seat, seed, its level)."""


@dataclass
class Plan:
    state: dict[str, Any]
    turn: int
    status: str = RUNNING
    result: dict[str, Any] | None = None
    history: list[HistoryRow] = field(default_factory=list)
    players: dict[int, PlayerRow] = field(default_factory=dict)  # by player id, changed rows only
    orders: dict[int, OrderRow] = field(default_factory=dict)  # the current turn's orders by seat
    turn_started_at: float | None = None
    deadline_at: float | None = None
    reminder_at: float | None = None
    paused_at: float | None = None
    announcements: list[News] = field(default_factory=list)
    reliability: dict[int, Reliability] = field(default_factory=dict)  # turns to add, by user id
    daily: str | None = None  # the game's time of day turns end at (``auto`` chosen at the start)

    seq: int = 0
    engine_state: Any = None  # ``state`` parsed, for the game master's cache
    glance: Glance | None = None  # ``state`` at a glance, for lists


BANK_WARNINGS = (0.25, 0.10)
"""The shares of his full time bank at which a player is told, by direct message, once each, that it
runs low: a time bank empties without a deadline anyone else sees."""


class Planner:
    def __init__(
        self,
        rs: Ruleset,
        game: GameRow,
        players: list[PlayerRow],
        orders: dict[int, OrderRow],
        now: float,
        state: Any,
        bot_orders: BotOrders,
        reminders: Mapping[int, ReminderSettings] | None = None,
    ):
        """``state`` is the game's parsed engine state (None before setup); ``reminders`` are the human
        players' reminder settings by user id (the defaults for those missing)."""
        self.rs, self.game, self.now, self.state, self.bot_orders = rs, game, now, state, bot_orders
        self.reminders = reminders or {}
        self.players = {p.id: p for p in players}
        self.orders = dict(orders)
        self.plan = Plan(
            state=game.state or {},
            turn=game.turn,
            turn_started_at=game.turn_started_at,
            deadline_at=game.deadline_at,
            reminder_at=game.reminder_at,
            paused_at=game.paused_at,
            daily=game.time.daily,
        )
        self.seq = game.seq if game.state is not None else -1  # the setup row is seq 0

    # --- helpers -------------------------------------------------------------------------

    def seated(self) -> dict[int, PlayerRow]:
        return {p.seat: p for p in self.players.values() if p.seat is not None}

    def _update_player(self, player: PlayerRow, **changes: Any) -> PlayerRow:
        updated = replace(player, **changes)
        self.players[player.id] = updated
        self.plan.players[player.id] = updated
        return updated

    def _record(self, kind: str, payload: dict[str, Any], events: list[dict[str, Any]]) -> int:
        self.seq += 1
        state_after = self.rs.to_dict(self.state)
        self.plan.history.append(HistoryRow(kind, self.plan.turn, payload, events, state_after))
        self.plan.state = state_after
        return self.seq

    def _ready(self) -> bool:
        """Every acting seat's orders are final; with every member of the game away, not before the
        turn's own time either (computers and stand-ins do not play a game on alone)."""
        return self._all_final() and (not self._nobody_here() or self.now >= self._unhurried())

    def _all_final(self) -> bool:
        acting = self.rs.acting_players(self.state)
        return bool(acting) and all(self._row(seat).passed for seat in acting)

    def _members(self) -> list[PlayerRow]:
        """The members (not computers) still in the game."""
        seated = self.seated()
        return [seated[s] for s in sorted(self.rs.seats_in_game(self.state)) if not seated[s].is_ai]

    def _nobody_here(self) -> bool:
        """Every member still in the game is away."""
        members = self._members()
        return bool(members) and all(p.away_at(self.now) for p in members)

    def _unhurried(self) -> float:
        """When a turn whose orders all came from computers and stand-ins resolves, every member being
        away: a turn time after it began (its deadline, on a clock with one per turn), or as soon as
        one of them is back, whichever comes first."""
        back = [p.away_until for p in self._members() if p.away_until is not None]
        return min([(self.plan.turn_started_at or self.now) + self.game.time.round_seconds, *back])

    def _counts(self, row: OrderRow) -> bool:
        """Whether a seat's orders are played: passed, a stand-in's (left to a player back before the
        turn ended, for him to change or pass), or given when the game lets orders stand."""
        return row.passed or row.stand_in is not None or (self.game.time.orders_stand and bool(row.text))

    def _finish_if_over(self, departure: dict[str, Any] | None = None) -> bool:
        """End the game if the engine says it is over; ``departure`` (seat and reason) is the leaving
        that ended it, for the game-over post to name."""
        outcome = self.rs.outcome(self.state)
        if outcome is None:
            return False
        result = {
            "winners": list(outcome.winners),
            "draw": outcome.draw,
            "ranking": [list(group) for group in outcome.ranking],
            "points": {str(seat): pts for seat, pts in outcome.points.items()},
            "reason": outcome.reason,
        }
        self._end(result | ({"departure": departure} if departure else {}))
        return True

    def _end(self, result: dict[str, Any]) -> None:
        """The game is over; its final position goes with the announcement unless a turn's post shows it."""
        self.plan.status, self.plan.result = FINISHED, result
        self.plan.deadline_at = self.plan.reminder_at = None
        shown = any(isinstance(a, RoundResolved) and a.seq == self.seq for a in self.plan.announcements)
        self.plan.announcements.append(GameOver(result, self.seq, board=not shown))
        self.plan.announcements.append(Replay())  # after the final board, in the same outbox order

    # --- transitions ---------------------------------------------------------------------

    def setup(self, seats: dict[int, int]) -> None:
        """Seat the players (player id -> seat) and create the first state."""
        for player_id, seat in seats.items():
            self._update_player(
                self.players[player_id],
                seat=seat,
                bank_left=float(self.game.time.bank_seconds) if self.game.time.mode in BANKED else None,
            )
        if self.game.time.daily == AUTO:  # the hour most of them are awake, now that they are known
            humans = [user for p in seats if (user := self.players[p].user_id) is not None]
            chosen = choose([self.reminders.get(user, DEFAULT_SETTINGS) for user in humans], self.now).text()
            self.game = replace(self.game, time=replace(self.game.time, daily=chosen))
            self.plan.daily = chosen
        self.state = self.rs.setup(len(seats), self.game.options, seed=self.game.seed)
        self._record("setup", {"players": len(seats), "options": self.game.options, "seed": self.game.seed}, [])
        self.plan.announcements.append(GameStarted(self.seq))
        self._begin_turn()

    def resolve(self, timed_out: bool) -> None:
        """Resolve the turn: submitted orders, default orders for everyone the game waited for."""
        acting = self.rs.acting_players(self.state)
        if timed_out and self.plan.turn < (1 if self.rs.orders_are_secret(self.state) else len(self.seated())):
            self._replace_first_missers(acting)
        named = self._turn_named()
        parsed, texts, events = {}, {}, []
        for seat in sorted(acting):
            row = self.orders.get(seat)
            orders = self.rs.default_orders(self.state, seat)
            if row is not None and self._counts(row):
                try:
                    orders = self.rs.parse_orders(self.state, seat, row.text)
                except Exception as err:  # noqa: BLE001 - stored text that no longer reads never holds up the game
                    events.append(self._dropped(row, err))
            parsed[seat], texts[str(seat)] = orders, self.rs.format_orders(orders)
        resolution = self.rs.resolve(self.state, parsed)
        self.state = resolution.state
        events += [e.to_dict() for e in resolution.events]
        stand_ins = {str(s): row.stand_in for s, row in sorted(self.orders.items()) if s in acting and row.stand_in}
        payload = {"orders": texts, "timed_out": timed_out} | ({"stand_in": stand_ins} if stand_ins else {})
        seq = self._record("resolve", payload, events)
        missed_now: list[tuple[int, int]] = []
        missed_out: list[int] = []
        for seat, player in sorted(self.seated().items()):
            if seat not in acting or player.is_ai:
                self._update_player(player, draw_agreed=False)  # a draw offer lasts one turn
                continue
            row = self._row(seat)
            played = self._counts(row)
            if row.stand_in is None:  # a turn the stand-in played was not asked of him
                self._asked(player, played)
            missed = 0 if played else player.missed + 1
            self._update_player(player, missed=missed, draw_agreed=False)
            if missed:
                missed_now.append((seat, missed))
            if timed_out and missed >= self.game.time.missed_limit:
                missed_out.append(seat)
        self.plan.announcements.append(
            RoundResolved(
                named,
                seq,
                tuple(events),
                tuple(missed_now) if self.game.time.mode == "round" else (),
                self.game.time.missed_limit,
            )
        )
        self.plan.turn += 1
        if self._finish_if_over():
            return
        in_game = self.rs.seats_in_game(self.state)
        if in_game and in_game <= set(missed_out):  # removed together, nobody is left to win
            self._end_together(sorted(in_game), mark("every player still in missed the deadline too often"))
            return
        for seat in missed_out:
            if seat in self.rs.seats_in_game(self.state):  # not already out by this very round
                self.remove(seat, "missed turns", continue_turn=False)
                if self.plan.status == FINISHED:
                    return
        self._begin_turn()

    def _replace_first_missers(self, acting: frozenset[int]) -> None:
        """With replacements on, whoever missed his first turn (the first round, or in a game of
        turns each player's first) is replaced at once, and his computer plays it, so the game does
        not lose it to him; unless that leaves no member who played in the game."""
        if self.game.time.replacements == "off":
            return
        seated = self.seated()
        missers = [s for s in sorted(acting) if not seated[s].is_ai and not self._counts(self._row(s))]
        if not missers or {p.seat for p in self._members()} <= set(missers):
            return
        for seat in missers:
            self._asked(seated[seat], False)
            self._replaced(seat, "missed the first turn")
            self._computers_play([seat])

    def _row(self, seat: int) -> OrderRow:
        """The seat's orders of this turn (none given: an empty row)."""
        return self.orders.get(seat, OrderRow(seat, "", False))

    def _asked(self, player: PlayerRow, on_time: bool) -> None:
        """A turn was asked of ``player``, and he answered it before the deadline or not."""
        if player.user_id is not None:
            before = self.plan.reliability.get(player.user_id, Reliability())
            self.plan.reliability[player.user_id] = Reliability(before.asked + 1, before.on_time + on_time)

    def _dropped(self, row: OrderRow, err: Exception) -> dict[str, Any]:
        """The event for stored orders that no longer parse: the position changed under them (someone
        left), or they were saved before the parser grew stricter. The turn resolves without them."""
        log.warning(
            "game #%s: seat %s's stored orders %r are dropped: %s",
            self.game.id,
            row.seat,
            row.text,
            err,
            exc_info=not isinstance(err, OrderError),
        )
        reason = str(err) if isinstance(err, OrderError) else "they could not be read"
        return {"kind": "orders_dropped", "seat": row.seat, "reason": reason}

    def remove(self, seat: int, reason: str, continue_turn: bool = True, *, by: int | None = None) -> None:
        """A seat leaves (surrender, kick by the manager ``by``, missed turns, empty clock); the turn may
        then be complete, or the engine may have moved on to a new turn by itself (nobody left to play
        the old one). With replacements on, a member's seat is not left empty: a computer plays on."""
        if self._replaced(seat, reason, by=by):
            if continue_turn and self.plan.status != FINISHED:
                self._computer_plays_on(seat)
            return
        still_acting = self.rs.acting_players(self.state) - {seat}
        resolution = self.rs.remove_player(self.state, seat, reason)
        self.state = resolution.state
        player = self.seated()[seat]
        events = [e.to_dict() for e in resolution.events]
        seq = self._record("remove", {"seat": seat, "reason": reason}, events)
        self.plan.announcements.append(
            PlayerRemoved(seat, reason, seq, player.user_id, player.name, tuple(events), by=by)
        )
        self.orders.pop(seat, None)
        if self._finish_if_over({"seat": seat, "reason": reason} | ({"by": by} if by else {})):
            return
        if not self._members():
            self._end_by_standing(mark("no human player is left"))  # computers do not play on alone
            return
        if not continue_turn:
            return
        if not self.rs.acting_players(self.state) <= still_acting:
            self.plan.turn += 1
            self._begin_turn()
        else:
            self._settle()

    # --- seats taken over -------------------------------------------------------------------

    def _replaced(self, seat: int, reason: str, *, by: int | None = None) -> bool:
        """With replacements on, the member at ``seat`` leaves it to a computer at the ruleset's
        default level, which plays on where he stood; the game ends if no member is left in it.
        Returns whether it was so (off, or a computer leaving: the seat leaves the game)."""
        player = self.seated()[seat]
        if self.game.time.replacements == "off" or player.is_ai:
            return False
        level = self.rs.bot_level(None).name
        number = sum(1 for p in self.players.values() if p.is_ai) + 1
        name = computer_name(number, None if len(self.rs.bot_levels) == 1 else level)
        self._take_seat(player, None, name, level)
        alone = not self._members()
        offered = self.game.time.replacements != "computer" and not alone
        self.plan.announcements.append(
            SeatTakenOver(seat, reason, player.user_id, player.name, None, name, offered=offered, by=by)
        )
        if alone:
            self._end_by_standing(mark("no human player is left"))  # computers do not play on alone
        return True

    def hand_over(self, seat: int, user_id: int, name: str) -> None:
        """The member ``user_id`` takes the computer's seat ``seat`` over, with its position and its
        call to play: where the turn is still open (not on a time bank, whose clock the computer's
        orders stopped), the computer's orders become his to change or pass (played as they are at
        the deadline)."""
        computer = self.seated()[seat]
        self._take_seat(computer, user_id, name, None)
        self.plan.announcements.append(SeatTakenOver(seat, "handed over", None, computer.name, user_id, name))
        row = self.orders.get(seat)
        if row is not None and row.passed:  # the computer's orders, never counted as his turn on time
            still_open = self.game.time.mode not in BANKED
            self.orders[seat] = replace(row, passed=not still_open, stand_in=self.rs.bot_level(computer.ai_level).name)
        self._refresh_deadline()

    def _take_seat(self, leaving: PlayerRow, user_id: int | None, name: str, level: str | None) -> None:
        """``leaving`` gives his seat up to a new player (a row written when the plan is committed), who
        starts with a full clock (one that ran out would put him out at once)."""
        seat = leaving.seat
        self._update_player(
            leaving, seat=None, left_seat=seat, remind_at=None, away_until=None, away_level=None, draw_agreed=False
        )
        bank = float(self.game.time.bank_seconds) if self.game.time.mode in BANKED else None  # a clock of its own
        arriving = PlayerRow(
            min(0, *self.players) - 1, user_id, name, seat, 0, bank, False, ai_level=level, took_over=True
        )
        self.players[arriving.id] = self.plan.players[arriving.id] = arriving

    def _computer_plays_on(self, seat: int) -> None:
        """The computer that took ``seat`` over plays the turn in progress, if it is the seat's to play."""
        if seat in self.rs.acting_players(self.state) and not self._row(seat).passed:
            self._computers_play([seat])
        self._settle()

    def wake(self) -> bool:
        """The game's wake-up time came: resolve a complete turn, or act on a passed deadline.
        Returns whether anything changed."""
        if self._ready():
            self.resolve(timed_out=False)
            return True
        if self.plan.deadline_at is not None and self.now >= self.plan.deadline_at:
            return self.timeout()
        return False

    def remind(self) -> None:
        """Tell the waiting players whose reminder time has come that the deadline is near: each one
        once per turn, at the time his own settings give (replanned first, in case they changed); on
        a time bank, that it runs low: once at each of BANK_WARNINGS."""
        self._plan_reminders()
        due = sorted(s for s, p in self.seated().items() if p.remind_at is not None and p.remind_at <= self.now)
        banked = self.game.time.mode in BANKED
        left = {s: self._bank_now(self.seated()[s]) for s in due} if banked else {}
        for seat in due:
            if banked:  # told how low his bank is (or soon will be): the next warning may come in this turn too
                player = self.seated()[seat]
                warned = min(len(BANK_WARNINGS), max(self._bank_level(left[seat]), player.bank_warned + 1))
                self._update_player(player, bank_warned=warned)
            else:
                self._update_player(self.seated()[seat], reminded_turn=self.plan.turn)
        self._plan_reminders()
        if not due:
            return
        seated = self.seated()
        self.plan.announcements.append(
            Reminder(
                self._turn_named(),
                user_ids=tuple(user for s in due if (user := seated[s].user_id) is not None),  # humans all
                deadline_at=self.plan.deadline_at,
                orders=tuple(self._given(s) for s in due),  # programmed, not passed
                last_chance=tuple(  # one more miss removes him
                    self.game.time.mode == "round" and seated[s].missed + 1 >= self.game.time.missed_limit for s in due
                ),
                orders_stand=self.game.time.orders_stand,
                bank_left=tuple(left[s] for s in due) if banked else (),
            )
        )

    def _given(self, seat: int) -> int:
        row = self.orders.get(seat)
        return len([part for part in row.text.split(";") if part.strip()]) if row else 0

    def pause(self) -> None:
        self.plan.paused_at = self.now

    def resume(self) -> None:
        """Shift the turn's times by the pause, so nobody's clock ran while paused."""
        delta = self.now - (self.plan.paused_at or self.now)
        self.plan.paused_at = None
        for name in ("turn_started_at", "deadline_at"):
            value = getattr(self.plan, name)
            if value is not None:
                setattr(self.plan, name, value + delta)
        self._settle()  # the deadline moved with the pause (and anything that changed while paused)

    def extend(self, seconds: int) -> None:
        """More time for this turn: banks of the waiting players grow, or the turn's clock starts later."""
        if self.game.time.mode in BANKED:
            for seat in self._waiting_humans():
                player = self.seated()[seat]
                self._set_bank(player, (player.bank_left or 0.0) + seconds)
        elif self.plan.turn_started_at is not None:
            self.plan.turn_started_at += seconds
        for seat in self._waiting_humans():  # a fresh reminder for the new deadline
            self._update_player(self.seated()[seat], reminded_turn=None)
        self._refresh_deadline()

    def timeout(self) -> bool:
        """The deadline passed: per-turn deadlines resolve with defaults; empty banks lose the game.
        Returns whether anything changed (a stale bank deadline is only recomputed)."""
        if self.game.time.mode == "round":
            self.resolve(timed_out=True)
            return True
        started = self.plan.turn_started_at or self.now
        removed = False
        for seat in sorted(self._waiting_humans()):
            player = self.seated()[seat]
            if player.bank_left is not None and started + player.bank_left <= self.now:
                self._update_player(player, bank_left=0.0)
                self._asked(player, False)
                self.remove(seat, "time ran out")
                removed = True
                if self.plan.status == FINISHED or self.plan.turn != self.game.turn:
                    return True
        if removed:
            return True
        before = self.plan.deadline_at
        self._refresh_deadline()
        return self.plan.deadline_at != before

    def passed(self, seat: int) -> None:
        """Book a pass: the clock stops for this seat (a pause stopped it already); the turn resolves
        if he was the last, unless the game is paused (resuming resolves it then)."""
        player = self.seated()[seat]
        if player.bank_left is not None and self.plan.turn_started_at is not None:
            stopped = min(self.now, self.plan.paused_at or self.now)
            self._set_bank(
                player, bank_after_pass(self.game.time, player.bank_left, self.plan.turn_started_at, stopped)
            )
        self._settle()

    def go_away(self, seat: int, until: float, level: str | None) -> str | None:
        """``seat``'s player is away until ``until``: a computer at ``level`` gives his orders from now,
        and the time counts against the game's allowance (the caller checked it; an earlier time away
        not yet over is replaced). Where the game waits for him this turn, his programmed orders are
        made final, or, without any, the computer plays the turn now. Returns what became of this
        turn: "kept" (his orders), "stand-in" (the computer's), or None (the game waited on him for
        nothing)."""
        player = self.seated()[seat]
        counted = player.away_used - self.away_left(player) + (until - self.now)
        self._update_player(player, away_until=until, away_level=level, away_used=counted)
        if seat not in self._waiting_humans():
            return None
        row = self.orders.get(seat)
        if row is not None and row.text and row.stand_in is None:
            self.orders[seat] = replace(row, passed=True)
            kept = "kept"
        else:
            self._computers_play([seat])
            kept = "stand-in"
        self.passed(seat)
        return kept

    def come_back(self, seat: int) -> None:
        """``seat``'s player is back before his time away ended, and what he did not use of it is his
        again. Where the turn is still open, the stand-in's final orders become his programmed ones, to
        change or pass (played as they are at the deadline); on a time bank, whose clock they stopped,
        they stay final."""
        player = self.seated()[seat]
        self._update_player(
            player, away_until=None, away_level=None, away_used=max(0.0, player.away_used - self.away_left(player))
        )
        row = self.orders.get(seat)
        if row is not None and row.stand_in is not None and row.passed and self.game.time.mode not in BANKED:
            self.orders[seat] = replace(row, passed=False)
        self._settle()  # the turn may have waited only for somebody to be here

    def away_left(self, player: PlayerRow) -> float:
        """What is still to come of his time away, in seconds (0 when he is not away)."""
        return max(0.0, player.away_until - self.now) if player.away_until is not None else 0.0

    def _settle(self) -> None:
        """Resolve the turn if it is complete and the game not paused; else plan its deadline anew."""
        if self._ready() and self.plan.paused_at is None:
            self.resolve(timed_out=False)
        else:
            self._refresh_deadline()

    def _end_together(self, seats: list[int], reason: str) -> None:
        """The game ends as a draw among ``seats``, who share first place; those already out follow."""
        departed = sorted(set(self.seated()) - set(seats))
        self._end(
            {
                "winners": seats,
                "draw": len(seats) > 1,
                "ranking": [seats] + ([departed] if departed else []),
                "points": {},
                "reason": reason,
            }
        )

    def agree_draw(self, seat: int) -> list[int]:
        """``seat`` agrees to a draw, unless a computer still in the game is ahead (by its ruleset's
        ``bot_evaluation``): then nothing changes, and those computers, who decline, are returned.
        Once every human still in the game agreed, it ends drawn among everyone still in it."""
        in_game = self.rs.seats_in_game(self.state)
        seated = self.seated()
        declined = [s for s in sorted(in_game) if seated[s].is_ai and self.rs.bot_evaluation(self.state, s) > 0]
        if declined:
            return declined
        self._update_player(seated[seat], draw_agreed=True)
        seated = self.seated()
        if not all(seated[s].draw_agreed or seated[s].is_ai for s in in_game):
            self.plan.announcements.append(DrawProposed(seat, seated[seat].user_id))
            return []
        self._end_together(sorted(in_game), mark("the players agreed to a draw"))
        return []

    def _end_by_standing(self, reason: str) -> None:
        """The game ends now, with the places as they stand (position points as at a normal end)."""
        places = self.rs.standing(self.state)
        points = {str(seat): value for seat, value in position_points(places).items()}
        self._end(
            {
                "winners": list(places[0]),
                "draw": len(places[0]) > 1,
                "ranking": [list(group) for group in places],
                "points": points,
                "reason": reason,
            }
        )

    def finish(self) -> Plan:
        """The plan, with the current turn's orders and the history position it ends at."""
        self.plan.orders = dict(self.orders)
        self.plan.seq = self.seq
        self.plan.engine_state = self.state
        if self.state is not None:
            unit, (number, of) = self.rs.turn_unit(self.state), self.rs.turn_number(self.state, self.plan.turn)
            self.plan.glance = Glance(tuple(sorted(self.rs.acting_players(self.state))), unit, number, of)
        return self.plan

    # --- turns ---------------------------------------------------------------------------

    def _waiting_humans(self) -> set[int]:
        seated = self.seated()
        return {
            seat for seat in self.rs.acting_players(self.state) if not seated[seat].is_ai and not self._row(seat).passed
        }

    def _turn_named(self) -> NamedTurn:
        """The turn about to be played, for posts: the service's number, and the ruleset's name and
        count for it ("move phase" 7 of 12)."""
        number, of = self.rs.turn_number(self.state, self.plan.turn)
        return NamedTurn(self.plan.turn + 1, self.rs.turn_unit(self.state), number, of)

    def _begin_turn(self) -> None:
        # A turn that begins during a pause starts, as far as clocks go, when the pause ends; a turn
        # that ends at a time of day, as far as clocks go, a turn time before it.
        started = self.plan.paused_at if self.plan.paused_at is not None else self.now
        self.plan.turn_started_at = daily_start(self.game.time, started)
        self.orders = {}
        for player in self.seated().values():
            if player.away_until is not None and not player.away_at(self.now):  # his time away is over
                self._update_player(player, away_until=None, away_level=None)
        seated = self.seated()
        acting = sorted(self.rs.acting_players(self.state))
        self._computers_play([seat for seat in acting if seated[seat].is_ai or seated[seat].away_at(self.now)])
        self._refresh_deadline()
        humans = [user for s in acting if (user := seated[s].user_id) is not None and not seated[s].away_at(self.now)]
        call = TurnCall(
            self._turn_named(),
            user_ids=tuple(humans),
            deadline_at=self.plan.deadline_at,
            seats=tuple(acting),
            secret=self.rs.orders_are_secret(self.state),
            hint=self.rs.order_hint(self.state),
        )
        # The call rides on the post made just before it in the same change, so players get one message
        # (and one notification) with the board and the call instead of two; else it is a post of its own.
        last = self.plan.announcements[-1] if self.plan.announcements else None
        if isinstance(last, CARRIES_THE_CALL):
            self.plan.announcements[-1] = replace(last, next_turn=call)
        else:
            self.plan.announcements.append(TurnStarted(call))

    def _computers_play(self, seats: list[int]) -> None:
        """The orders of the computers at ``seats`` (computer players, and the stand-ins of players
        away), final at once: they think at once, each in a worker of its own when there are enough.
        A stand-in's orders carry its level, for history."""
        if not seats:
            return
        seated = self.seated()
        levels = {seat: self.rs.bot_level(self._computer_level(seated[seat])) for seat in seats}
        jobs: list[tuple[int, str, str | None, int]] = [
            (
                seat,
                f"{self.game.seed}:{self.plan.turn}",
                levels[seat].name,
                clocked_nodes(levels[seat].budget, seated[seat].bank_left),
            )
            for seat in seats
        ]
        for seat, text in zip(seats, self.bot_orders(self.plan.state, jobs), strict=True):
            self.orders[seat] = OrderRow(seat, text, True, stand_in=None if seated[seat].is_ai else levels[seat].name)

    @staticmethod
    def _computer_level(player: PlayerRow) -> str | None:
        return player.ai_level if player.is_ai else player.away_level

    def _refresh_deadline(self) -> None:
        if self._all_final():  # only computer players (or stand-ins) left to act
            self.plan.deadline_at = self._unhurried() if self._nobody_here() else self.now
        else:
            started = self.plan.turn_started_at or self.now
            banks = [self.seated()[s].bank_left or 0.0 for s in self._waiting_humans()]
            self.plan.deadline_at = turn_deadline(self.game.time, started, banks)
        self._plan_reminders()

    def replan_reminders(self) -> bool:
        """Plan the reminders again (a player changed his settings); returns whether any time changed."""
        before = self.plan.reminder_at
        self._plan_reminders()
        return bool(self.plan.players) or self.plan.reminder_at != before

    def _plan_reminders(self) -> None:
        """Each waiting human's reminder time for this turn, by his own settings, until he has had it
        (on a time bank: the time it runs under its next warning); the game wakes at the earliest."""
        waiting = self._waiting_humans()
        pending = []
        for seat, player in self.seated().items():
            at = self._reminder_time(player) if seat in waiting and player.reminded_turn != self.plan.turn else None
            if at != player.remind_at:
                self._update_player(player, remind_at=at)
            if at is not None:
                pending.append(at)
        self.plan.reminder_at = min(pending, default=None)

    def _reminder_time(self, player: PlayerRow) -> float | None:
        """A game without reminders (a chess clock) sends none; otherwise his lead time, else the game's."""
        user = player.user_id  # a computer (None) has no settings
        settings = DEFAULT_SETTINGS if user is None else self.reminders.get(user, DEFAULT_SETTINGS)
        if not settings.dm_reminders or self.game.time.reminder_seconds <= 0:
            return None
        if self.game.time.mode in BANKED:
            return self._bank_warning_time(player, settings)
        lead = settings.lead_seconds or self.game.time.reminder_seconds
        # Not before the turn began, which a time-of-day deadline's turn start (``daily_start``) may be after.
        began = min(self.plan.turn_started_at or self.now, self.now)
        return reminder_time(self.plan.deadline_at, lead, began, settings)

    def _bank_now(self, player: PlayerRow) -> float:
        """His bank as it stands: while the game waits for him, the turn's time so far comes off it."""
        bank = player.bank_left or 0.0
        if player.seat in self._waiting_humans() and self.plan.turn_started_at is not None:
            stopped = min(self.now, self.plan.paused_at or self.now)
            bank -= max(0.0, stopped - self.plan.turn_started_at)
        return max(0.0, bank)

    def _bank_level(self, bank: float) -> int:
        """How many of BANK_WARNINGS ``bank`` is down to."""
        return sum(bank <= share * self.game.time.bank_seconds for share in BANK_WARNINGS)

    def _set_bank(self, player: PlayerRow, bank: float) -> None:
        """His bank is now ``bank``; above the first warning again (an increment, more time), he will
        be warned anew when it runs down."""
        self._update_player(player, bank_left=bank, bank_warned=player.bank_warned if self._bank_level(bank) else 0)

    def _bank_warning_time(self, player: PlayerRow, settings: ReminderSettings) -> float | None:
        """When his bank runs under the next warning he has not had (at once if it already is), out
        of his quiet hours; None when he had them all."""
        if player.bank_warned >= len(BANK_WARNINGS) or player.bank_left is None:
            return None
        share = BANK_WARNINGS[player.bank_warned]
        started = self.plan.turn_started_at or self.now
        crossing = started + player.bank_left - share * float(self.game.time.bank_seconds)
        return max(started, outside_quiet_hours(crossing, settings))
