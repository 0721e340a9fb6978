"""What players read of each announcement: the posts made for it, text and all.

The Discord layer only sends them (nonces, files, buttons); everything a post says is decided here,
in the language set by the caller (``i18n.using``: the server's, for posts everyone reads).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from i18n import joined, mark, ntr, tr
from render.summary import numbered_turn
from service.announcements import (
    BackInReach,
    DrawProposed,
    Extended,
    GameCancelled,
    GameOver,
    GameStarted,
    NamedTurn,
    News,
    Paused,
    PlayerRemoved,
    Reminder,
    Replay,
    Resumed,
    RoundResolved,
    SeatTakenOver,
    TurnCall,
    TurnStarted,
    read,
)
from service.errors import GameError
from service.gameoptions import duration
from service.markup import COLOUR_EMOJI, called, result_lines, when
from service.models import RUNNING, Announcement, Game, computer_shown
from service.ops.history import History
from service.ops.lookup import Lookup
from service.ops.usersettings import UserSettings
from service.presenter import Presenter
from service.runtime.workers import Focus

log = logging.getLogger(__name__)

MESSAGE_LIMIT = 2000  # characters in a Discord message
LONG_CALLS = 3  # a player's first calls to play say how to play; later ones are short
PERSONAL_LINES = 3  # a short call's lines of what the turn did to each player called
SHORT_CALLS = {  # by whether orders are given and passed (secret) or sent as one move
    True: mark("{pings} — {turn}: your orders, please. Deadline: {deadline}."),
    False: mark("{pings} — your turn ({turn}). Deadline: {deadline}."),
}

# Why a seat left, as the event lines quote it ("left the game (time ran out)").
REASONS = (mark("surrender"), mark("missed turns"), mark("time ran out"), mark("kicked"))

DEPARTURES = {
    "surrender": mark("{player} surrendered"),
    "missed turns": mark("{player} was removed after missing turns in a row"),
    "time ran out": mark("{player} ran out of time"),
    "kicked": mark("{player} was removed by a manager"),
    "missed the first turn": mark("{player} missed the first turn"),
}


@dataclass(frozen=True)
class Upload:
    """A file a post carries, with its alt text."""

    filename: str
    data: bytes
    description: str


@dataclass(frozen=True)
class DirectMessage:
    """A post sent to one user rather than into the game's thread."""

    user_id: int
    index: int  # his place among the announcement's recipients: each copy is told apart by it


@dataclass(frozen=True)
class Post:
    text: str  # fits in a message
    pings: tuple[int, ...] = ()  # the users notified; players mentioned otherwise are not
    uploads: tuple[Upload, ...] = ()  # a board, and the close-up of its part that changed if it has one
    rematch: bool = False  # with the button that opens a rematch
    dm: DirectMessage | None = None
    take_seat: int | None = None  # with the button a member presses to take this seat over


def _post(
    text: str,
    *,
    pings: tuple[int, ...] = (),
    uploads: tuple[Upload, ...] = (),
    rematch: bool = False,
    dm: DirectMessage | None = None,
) -> Post:
    """A post, its text cut to what a message holds."""
    return Post(text[:MESSAGE_LIMIT], pings, uploads, rematch, dm)


# Discord's names of the permissions a game's posts need, as its server settings show them.
PERMISSIONS = {
    "view_channel": mark("View Channel"),
    "send_messages": mark("Send Messages"),
    "send_messages_in_threads": mark("Send Messages in Threads"),
    "attach_files": mark("Attach Files"),
    "embed_links": mark("Embed Links"),
    "read_message_history": mark("Read Message History"),
    "create_public_threads": mark("Create Public Threads"),
}
TO_HOST = tuple(PERMISSIONS)  # all a game's channel needs: the card, its thread, posts, boards


def _members(game: Game, *, but: int | None = None) -> tuple[int, ...]:
    """The members who play ``game`` (``but`` one of them): a post about the whole game pings them."""
    return tuple(p.user_id for p in game.players if p.user_id is not None and p.user_id != but)


def _with_pings(text: str, users: tuple[int, ...]) -> Post:
    """``text``, and on a line of their own the mentions of ``users``, who are notified of it."""
    mentions = " ".join(f"<@{user}>" for user in users)
    return _post(f"{text}\n{mentions}" if mentions else text, pings=users)


def permission_names(missing: str) -> str:
    """ "Send Messages in Threads, Attach Files": permissions by their names in Discord (``missing``
    lists them comma-separated as discord.py spells them; empty: Discord did not say which)."""
    names = [f"**{tr(PERMISSIONS[key])}**" if key in PERMISSIONS else key for key in missing.split(",") if key]
    return joined(names) if names else tr("a permission")


def in_words(post: Post) -> Post:
    """``post`` where the bot may not attach images: its text, then its board described in words."""
    if not post.uploads:
        return post
    note = tr("🖼️ I may not attach images here, so here is the board in words:")
    words = f"{post.text}\n\n{note}\n{post.uploads[0].description}"
    return replace(post, text=_fit(words.split("\n"), MESSAGE_LIMIT), uploads=())


def _fit(lines: list[str], limit: int = 1900) -> str:
    text = "\n".join(lines)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _calls_before(call: TurnCall, game: Game) -> int:
    """How many calls to play each player now called has had before this one in the game: every
    turn is everybody's where orders are given together, every n-th where n players take turns."""
    earlier = call.named.turn - 1
    return earlier if call.secret else earlier // max(1, sum(1 for p in game.players if p.seat is not None))


def _short(call: TurnCall, game: Game) -> bool:
    """Whether the players ``call`` calls have had their first LONG_CALLS calls: theirs is short."""
    return _calls_before(call, game) >= LONG_CALLS


def _deadline(at: float | None) -> str:
    return when(at) if at else tr("no deadline")


def _turn_name(named: NamedTurn, *, capital: bool = True) -> str:
    """The announced turn by its ruleset's name and count ("Round 4", "move phase 7 of 12")."""
    return numbered_turn(named.unit, named.number, named.of, capital=capital)


class PostPresenter:
    """Each announcement as the posts players read."""

    def __init__(self, settings: UserSettings, history: History, presenter: Presenter, lookup: Lookup):
        self.settings, self.history, self.presenter, self.lookup = settings, history, presenter, lookup

    async def posts(
        self, announcement: Announcement, game: Game, *, shown: Callable[[str], str], upload_limit: int
    ) -> list[Post]:
        """The posts for ``announcement`` (none when it has nothing left to say): ``shown`` makes a
        player's name safe where they go (Discord escapes markdown in names), ``upload_limit`` is the
        largest file they may carry."""
        news: News = read(announcement.kind, announcement.payload)
        match news:
            case GameStarted():
                return [await self._started(news, game)]
            case RoundResolved():
                return [await self._resolved(news, game, shown)]
            case TurnStarted():
                call = self._call(news.call, game)
                return [] if call is None else [_post(call, pings=news.call.user_ids)]
            case Reminder():
                return await self._reminders(news, game)
            case PlayerRemoved():
                told = [e for e in news.events if (e.get("kind"), e.get("seat")) != ("player_removed", news.seat)]
                consequences = self.presenter.event_lines(game, told, shown=shown)
                left = self._departure(game, news.seat, news.reason, news.by)
                if note := self.presenter.games.ruleset(game.row).departure_note:
                    left = tr("{left}; {consequence}", left=left, consequence=tr(note))
                return [self._with_call([f"{left}.", *consequences], news.next_turn, game)]
            case SeatTakenOver():
                post = self._with_call(self._taken_over(news, game), news.next_turn, game)
                if news.taker_user_id is not None:  # the newcomer is called to play at once
                    post = replace(post, pings=tuple(dict.fromkeys((*post.pings, news.taker_user_id))))
                return [replace(post, take_seat=news.seat if news.offered else None)]
            case GameOver():
                return [await self._over(news, game)]
            case Replay():
                return await self._replay(game, upload_limit)
            case DrawProposed():
                return [self._draw(news, game)]
            case GameCancelled():
                text = tr("{game} was cancelled by {user}.", game=self.presenter.title(game), user=f"<@{news.by}>")
                return [_with_pings(text, _members(game, but=news.by))]
            case Paused():
                return [_post(tr("⏸️ {user} paused the game; the clock is stopped.", user=f"<@{news.by}>"))]
            case BackInReach():
                text = tr(
                    "▶️ I can post here again. While I could not (I lacked {missing} here since {since}), the "
                    "clock was stopped, so nobody missed a turn he was not shown. Deadline: {deadline}.",
                    missing=permission_names(news.missing),
                    since=f"<t:{int(news.since)}:f>",
                    deadline=_deadline(news.deadline_at),
                )
                return [_post(text)]
            case Resumed():
                text = tr(
                    "▶️ {user} resumed the game. Deadline: {deadline}.",
                    user=f"<@{news.by}>",
                    deadline=when(game.row.deadline_at),
                )
                return [_post(text)]
            case Extended():
                text = tr(
                    "{user} gave this turn more time. Deadline: {deadline}.",
                    user=f"<@{news.by}>",
                    deadline=when(news.deadline_at),
                )
                return [_post(text)]

    async def _board(
        self,
        game: Game,
        seq: int,
        which: str,
        title: str | None = None,
        changes: Sequence[str] = (),
        close_up: bool = False,
    ) -> tuple[Upload, ...]:
        """The board after history entry ``seq``, described for a screen reader: the game and
        ``which`` board it is ("Round 4"), each player's holdings, and the ``changes`` of the turn
        (names, never mentions); with ``close_up``, the part the turn changed beside it, where the
        board is too large to read on a phone."""
        focus = Focus((), which) if close_up else None
        picture = await self.presenter.board(game, seq=seq, title=title, focus=focus)
        heading = tr("{game}: {board}", game=self.presenter.title(game), board=which)
        lines = [heading, picture.description, *([tr("What changed:"), *changes] if changes else [])]
        board = Upload(f"game-{game.id}-{seq:04d}.png", picture.data, "\n".join(lines))
        if picture.close_up is None:
            return (board,)
        near = picture.close_up
        return board, Upload(f"game-{game.id}-{seq:04d}-close-up.png", near.data, f"{heading}\n{near.description}")

    def _with_call(
        self,
        lines: list[str],
        call: TurnCall | None,
        game: Game,
        uploads: tuple[Upload, ...] = (),
        told: Sequence[str] = (),
    ) -> Post:
        """The lines (cut to fit), then the new turn's call to play when this post carries it
        (``told``: what changed for each player called, said first in a short call)."""
        text = self._call(call, game, told) if call else None
        if call is None or text is None:
            return _post(_fit(lines), uploads=uploads)
        shown = _fit(lines, max(200, 1990 - len(text)))
        return _post(f"{shown}\n{text}", pings=call.user_ids, uploads=uploads)

    def _call(self, call: TurnCall, game: Game, told: Sequence[str] = ()) -> str | None:
        """A turn's call to play, naming who must play it; None when there is nobody to call (only
        computers act, or the game is no longer running)."""
        if game.row.status != RUNNING or not call.user_ids:
            return None
        pings = " ".join(f"<@{user}>" for user in call.user_ids)
        deadline = _deadline(call.deadline_at)
        turn = _turn_name(call.named, capital=False)
        if _short(call, game):  # they know how by now: a short call (the hint stays)
            text = tr(SHORT_CALLS[call.secret], pings=pings, turn=turn, deadline=deadline)
            text = "\n".join([*told, text])
        elif call.secret:
            text = tr(
                "{pings} — {turn}: give your orders with `/orders give`, check them with "
                "`/orders show`, then `/orders pass`. Deadline: {deadline}.",
                pings=pings,
                turn=turn,
                deadline=deadline,
            )
        else:
            text = tr(
                "{pings} — your turn ({turn}): play it with `/orders send`. Deadline: {deadline}.",
                pings=pings,
                turn=turn,
                deadline=deadline,
            )
        if call.hint:
            text += "\n" + tr("To play: {hint}.", hint=tr(call.hint))
        return text

    async def _for_each(self, call: TurnCall | None, game: Game, seq: int) -> list[str]:
        """For each player a short call calls, what changed for him since his last turn (up to
        history entry ``seq``): "<@1>, for you: Battle at C4: bob 5 vs alice 3 — bob wins with 2"
        (the first few lines)."""
        if call is None or not _short(call, game):
            return []
        seats = {
            user: player.seat for user in call.user_ids if (player := game.player_of(user)) and player.seat is not None
        }
        since = await self.history.since_turns_of(game.id, seq, seats.values(), 2 * len(game.players))
        told = []
        for user, seat in seats.items():
            mine = self.presenter.lines_for(game, since[seat], seat)
            if mine:
                more = len(mine) - PERSONAL_LINES
                shown = " · ".join(mine[:PERSONAL_LINES]) + (tr(" (and {n} more)", n=more) if more > 0 else "")
                told.append(tr("<@{user}>, for you: {lines}", user=user, lines=shown))
        return told

    def _mention(self, game: Game, seat: int) -> str:
        player = game.player_at(seat)
        if player is None:
            return tr("seat {number}", number=seat)
        return f"{COLOUR_EMOJI[seat]} {called(game, player)}"

    def _departure(self, game: Game, seat: int, reason: str, by: int | None = None, who: str | None = None) -> str:
        """ "🟥 <@1> ran out of time": a seat leaving, as players read it (``by``: the manager who
        removed him, named; a post only pings those it calls to play; ``who``: the leaver, where
        somebody else plays on in his seat)."""
        who = who or self._mention(game, seat)
        if reason == "kicked" and by is not None:
            return tr("{player} was removed by {manager}", player=who, manager=f"<@{by}>")
        if reason in DEPARTURES:
            return tr(DEPARTURES[reason], player=who)
        return tr("{player} left ({reason})", player=who, reason=reason)

    def _taken_over(self, news: SeatTakenOver, game: Game) -> list[str]:
        """Who left the seat and who plays on in it; where members may take it, how."""
        mark_ = COLOUR_EMOJI[news.seat]
        if news.taker_user_id is not None:
            return [
                tr(
                    "{member} takes over the seat {mark} of {computer} and plays on from here.",
                    member=f"<@{news.taker_user_id}>",
                    mark=mark_,
                    computer=computer_shown(news.left_name),
                )
            ]
        computer = computer_shown(news.taker_name)
        left = self._departure(game, news.seat, news.reason, news.by, who=f"{mark_} <@{news.left_user_id}>")
        lines = [tr("{left}; {computer} plays on in that seat.", left=left, computer=computer)]
        if news.offered:
            lines.append(
                tr("A member not in the game may take this seat over: **Take this seat**.")
                if game.row.time.replacements == "open-auto"
                else tr(
                    "A member not in the game may ask to take this seat over: **Take this seat**; the creator decides."
                )
            )
        return lines

    async def _started(self, news: GameStarted, game: Game) -> Post:
        seats = "\n".join(
            self._mention(game, p.seat) for p in sorted(game.players, key=lambda p: p.seat or 0) if p.seat is not None
        )
        text = tr(
            "**{game} has started!**\n{seats}\nRules: `/rules {ruleset}`.",
            game=self.presenter.title(game),
            seats=seats,
            ruleset=game.row.ruleset,
        )
        return self._with_call(
            [text], news.next_turn, game, await self._board(game, news.seq, tr("Start"), tr("Start"))
        )

    async def _resolved(self, news: RoundResolved, game: Game, shown: Callable[[str], str]) -> Post:
        lines = [tr("**{turn}.**", turn=_turn_name(news.named))]
        lines += self.presenter.event_lines(game, news.events, shown=shown)
        for seat, count in news.missed:
            lines.append(
                tr(
                    "{player} missed this {unit} ({count} of {limit} in a row).",
                    player=self._mention(game, seat),
                    unit=tr(news.named.unit),
                    count=count,
                    limit=news.missed_limit,
                )
            )
        changes = self.presenter.event_lines(game, news.events)
        board = await self._board(game, news.seq, _turn_name(news.named), changes=changes, close_up=True)
        return self._with_call(lines, news.next_turn, game, board, await self._for_each(news.next_turn, game, news.seq))

    async def _reminders(self, news: Reminder, game: Game) -> list[Post]:
        """One direct message for each player still wanting reminders (he may have turned them off
        since this one was planned)."""
        homes = await self.lookup.mirrored_homes([game.id]) if news.user_ids else {}
        posts = []
        for index, user_id in enumerate(news.user_ids):
            if not (await self.settings.settings_of(user_id)).dm_reminders:
                continue
            home = homes.get((game.id, user_id))  # matched from another server: his thread is there
            thread = (home.thread_id or home.channel_id) if home else (game.row.thread_id or game.row.channel_id)
            where = f"<#{thread}>"
            bank = news.bank_left[index] if news.bank_left else None
            if bank is not None:  # a time bank runs down with no deadline the others see
                first = tr(
                    "⏳ {game}, {turn}: your time bank is down to {left}, and it keeps running until you pass. "
                    "When it is empty you are out of the game. {where}",
                    game=self.presenter.title(game),
                    turn=_turn_name(news.named, capital=False),
                    left=duration(bank),
                    where=where,
                )
            else:
                first = tr(
                    "⏰ {game}, {turn}: the deadline is {deadline}. {where}",
                    game=self.presenter.title(game),
                    turn=_turn_name(news.named, capital=False),
                    deadline=when(news.deadline_at),
                    where=where,
                )
            lines = [first]
            given = news.orders[index]
            if given and not news.orders_stand:
                lines.append(
                    ntr(
                        "You gave {n} order but did not pass: **it is thrown away at the deadline** "
                        "unless you `/orders pass`.",
                        "You gave {n} orders but did not pass: **they are thrown away at the deadline** "
                        "unless you `/orders pass`.",
                        given,
                    )
                )
            elif not given:
                lines.append(tr("You have given no orders yet."))
            if news.last_chance[index]:
                lines.append(tr("⚠️ One more missed turn removes you from the game."))
            posts.append(_post("\n".join(lines), dm=DirectMessage(user_id, index)))
        return posts

    def held(self, game: Game, missing: str, where: str) -> Post:
        """For the game's creator and the server's owner (by DM, and in a channel the bot can still
        write to), once: which permission the bot lacks where, and that the game's clock is stopped."""
        return _post(
            tr(
                "⚠️ I cannot post in {where} for {game}: I lack {missing} there. Its clock is stopped until I "
                "can; give the bot's role that permission in that channel (or its parent channel).",
                where=where,
                game=self.presenter.title(game),
                missing=permission_names(missing),
            )
        )

    def dm_refused(self, user_id: int, reminder: Post) -> Post:
        """For the game's thread, once, when a player's DMs refused his reminder: its first line (the
        deadline; how many orders he gave stays private) and how to get reminders again."""
        return _post(
            tr(
                "<@{user}>, Discord refused my reminder by direct message, so here it is (I say this once):\n"
                "{reminder}\nTo get reminders by DM, allow direct messages from this server's members in your "
                "privacy settings; `/settings dm_reminders:False` stops them.",
                user=user_id,
                reminder=reminder.text.split("\n", 1)[0],
            ),
            pings=(user_id,),
        )

    async def _over(self, news: GameOver, game: Game) -> Post:
        title = self.presenter.title(game)
        reason = news.result.get("reason")
        departure = news.result.get("departure")
        if departure:  # the game ended because this seat left: say so first
            left = self._departure(game, departure["seat"], departure["reason"], departure.get("by"))
            reason = tr("{departure}, so {reason}", departure=left, reason=tr(reason)) if reason else left
        elif reason:
            reason = tr(reason)
        over = (
            tr("🏁 **{game} is over**: {reason}.", game=title, reason=reason)
            if reason
            else tr("🏁 **{game} is over**.", game=title)
        )
        final = tr("Final position")
        board = await self._board(game, news.seq, final, final) if news.board else ()
        # Everyone who played is told, the result lines name them all.
        return _post(_fit([over, *result_lines(game)]), uploads=board, rematch=True, pings=_members(game))

    async def _replay(self, game: Game, upload_limit: int) -> list[Post]:
        """The whole game animated, after its final board; a game over before its first turn has none."""
        if await self.history.resolved_turns(game.id) == 0:
            return []
        try:
            replay = await self.presenter.replay(game, upload_limit)
        except GameError as err:  # it could never fit: the game's other posts go on without it
            log.warning("game #%s: no replay posted: %s", game.id, err)
            return []
        return [_post(replay.text, uploads=(Upload(replay.filename, replay.data, replay.description),))]

    def _draw(self, news: DrawProposed, game: Game) -> Post:
        lines = [
            tr(
                "{player} proposes a draw. "
                "Everyone still playing can agree with `/game draw` (an offer lasts until the turn ends).",
                player=self._mention(game, news.seat),
            )
        ]
        lines += [tr("{player} is ahead and declines.", player=self._mention(game, seat)) for seat in news.declined]
        asked = [p.user_id for p in game.players if p.user_id and p.seat != news.seat and not p.draw_agreed]
        return _with_pings("\n".join(lines), tuple(asked))
