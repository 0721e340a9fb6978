"""The site's routes: each request checked before anything is read (the server's choice, the link's
signature, the game belonging to the server the link names), then answered as a page in the
server's language, an image, or a turn as JSON for the slider. Anything else is a short 404 or 400
page; nothing a visitor sends reaches the database unchecked."""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import jinja2
from aiohttp import web
from markupsafe import Markup
from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, Counter, Gauge, Histogram, generate_latest

from i18n import ENGLISH, LANGUAGES, current, ntr, tr, using
from service import GameMaster
from service.clock import Clock, SystemClock
from service.errors import GameError, GameNotFound
from service.models import Game
from service.ops.history import PastTurn
from service.ops.ratings import Standing
from service.presenter import Presenter
from service.runtime.workers import CpuPool
from service.storage import games as games_rows
from service.storage import website as stored
from service.storage.store import Store
from service.storage.website import Glimpse
from service.website import OFF, PUBLIC, Website, game_path, mode_of, server_path
from web import pages

log = logging.getLogger(__name__)

HERE = Path(__file__).parent
QUERY_LIMIT = 512  # characters of a query string; the pages take one number at most
IMAGE_CACHE_BYTES = 64 * 1024 * 1024
PAGE_CACHE_BYTES = 16 * 1024 * 1024
PARTS_KEPT = 4096  # games' seats and turns, kept beside their pages: a changed page is made from them
REFUSALS_KEPT = 1000  # replays refused (too large, or no turn yet), not made again until their game moves on
REPLAY_LIMIT = 16 * 1024 * 1024  # an animated replay's bytes at most
ANSWER_SECONDS = 5.0
SECURITY_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; img-src 'self'; style-src 'self'; script-src 'self'; "
    "frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
    "Referrer-Policy": "no-referrer",  # a game's signed address never leaves in a Referer
    "X-Content-Type-Options": "nosniff",
}


UNREAD = web.RequestKey("unread", bool)  # the database did not answer the request's first read
MODE = web.RequestKey("mode", str)  # the server's choice of pages, read once per request
GLIMPSE = web.RequestKey("glimpse", Glimpse)  # the game the address names, read with the server's choices
LARGEST_ID = 2**63 - 1  # Discord's ids and the games' numbers fit in SQL's 64-bit integers


class Refused(Exception):
    """A request the site answers with a short error page: ``status`` and what to tell the visitor."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status


def not_found() -> Refused:
    return Refused(404, tr("There is no such page. A game's address comes from its posts in Discord."))


def number_in(request: web.Request, name: str) -> int:
    """A number the address holds (its route allows digits only), if it can name anything at all."""
    number = int(request.match_info[name])
    if number > LARGEST_ID:
        raise not_found()
    return number


class Kept:
    """What the site has made already (images, pages), by what they show (a board never changes once
    its turn has resolved, a page until its game does), at most ``limit`` bytes; several visitors
    asking for one not made yet wait for the one making it."""

    def __init__(self, limit: int):
        self.limit, self.size = limit, 0
        self._kept: OrderedDict[tuple, bytes] = OrderedDict()
        self._drawing: dict[tuple, asyncio.Future[bytes]] = {}  # being drawn

    async def get(self, key: tuple, draw: Callable[[], Awaitable[bytes]]) -> bytes:
        if (kept := self._kept.get(key)) is not None:
            self._kept.move_to_end(key)
            return kept
        drawing = self._drawing.get(key)
        if drawing is None:  # drawn in a task of its own: a visitor who leaves does not cancel it for the others
            drawing = self._drawing[key] = asyncio.ensure_future(draw())
            drawing.add_done_callback(lambda done: self._drawn(key, done))
        return await asyncio.shield(drawing)

    def _drawn(self, key: tuple, done: asyncio.Future[bytes]) -> None:
        del self._drawing[key]
        if not done.cancelled() and done.exception() is None:
            self._keep(key, done.result())

    def _keep(self, key: tuple, data: bytes) -> None:
        self._kept[key] = data
        self.size += len(data)
        while self.size > self.limit and self._kept:
            _, dropped = self._kept.popitem(last=False)
            self.size -= len(dropped)


class Meters:
    """What the site tells Prometheus: requests by route and answer, their time, the images drawn."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        self.requests = Counter(
            "territory_web_requests", "Requests answered", ["route", "status"], registry=self.registry
        )
        self.seconds = Histogram(
            "territory_web_request_seconds",
            "Time to answer a request",
            ["route"],
            buckets=(0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10),
            registry=self.registry,
        )
        self.images = Counter("territory_web_images_drawn", "Board images drawn", registry=self.registry)
        self.database_up = Gauge(
            "territory_database_up", "1 if the database answered the last scrape", registry=self.registry
        )
        self.cached = Gauge("territory_web_image_cache_bytes", "Bytes of images kept", registry=self.registry)


class Site:
    """The pages of every server's games; boards are drawn in ``pool``."""

    def __init__(self, db: Store, pool: CpuPool, *, clock: Clock | None = None, public_url: str | None = None):
        clock = clock or SystemClock()
        self.db, self.pool = db, pool
        self.master = GameMaster(db, clock, pool=pool)
        self.presenter = Presenter(self.master.games, self.master.history, pool)
        self.website = Website(db, clock, public_url)
        self.images = Kept(IMAGE_CACHE_BYTES)
        self.pages = Kept(PAGE_CACHE_BYTES)
        self.parts: OrderedDict[tuple, pages.Parts] = OrderedDict()
        self.refused_replays: OrderedDict[tuple, str] = OrderedDict()  # the latest; each key holds its turn
        self.files = {path.name: path.read_bytes() for path in (HERE / "static").iterdir()}
        self.meters = Meters()
        self.meters.registry.register(pool.jobs)
        self.templates = jinja2.Environment(
            loader=jinja2.FileSystemLoader(HERE / "templates"),
            autoescape=True,
            trim_blocks=True,
            lstrip_blocks=True,
            undefined=jinja2.StrictUndefined,
        )
        self.templates.globals.update(tr=tr, ntr=ntr, moment=pages.moment, iso=pages.iso)

    def app(self) -> web.Application:
        app = web.Application(middlewares=[self._guard])
        add = app.router.add_get
        add("/", self.home)
        add("/healthz", self.healthz)
        add("/metrics", self.metrics)
        add(r"/s/{guild:\d{1,19}}", self.server)
        add(r"/s/{guild:\d{1,19}}/leaderboard/{ruleset:[a-z]{1,30}}", self.leaderboard)
        add(r"/s/{guild:\d{1,19}}/player/{user:\d{1,19}}", self.player)
        add(r"/s/{guild:\d{1,19}}/player/{user:\d{1,19}}/chart.png", self.chart)
        game = r"/s/{guild:\d{1,19}}/g/{game:\d{1,19}}-{signature:[A-Za-z0-9_-]{1,40}}"
        add(game, self.game)
        add(game + "/board.png", self.board)
        add(game + r"/turn/{number:\d{1,9}}.png", self.turn_board)
        add(game + r"/turn/{number:\d{1,9}}.json", self.turn)
        add(game + "/replay", self.replay)
        add("/seats.css", self.seats_css)
        add(r"/static/{name:[a-z]{1,20}\.(?:css|js)}", self.static)
        return app

    # --- what every request goes through

    @web.middleware
    async def _guard(self, request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]):
        started = time.perf_counter()
        route = request.match_info.route.resource.canonical if request.match_info.route.resource else "unknown"
        language, mode = await self._server_choices(request)
        request[MODE] = mode
        with using(language):
            try:
                if len(request.query_string) > QUERY_LIMIT:
                    raise Refused(
                        400, tr("That address is too long. A game's address comes from its posts in Discord.")
                    )
                response = await handler(request)
            except Refused as refused:
                response = self._error(refused.status, str(refused))
            except web.HTTPMethodNotAllowed:
                response = self._error(405, tr("The site only shows pages; it takes nothing."))
            except web.HTTPException:  # aiohttp's own: no such route or file, a folder of files
                response = self._error(404, str(not_found()))
            except Exception:
                log.exception("the page %s failed", request.path)
                response = self._error(500, tr("This page failed on our side. Try again in a moment."))
        response.headers.update(SECURITY_HEADERS)
        self.meters.requests.labels(route, str(response.status)).inc()
        self.meters.seconds.labels(route).observe(time.perf_counter() - started)
        return response

    async def _server_choices(self, request: web.Request) -> tuple[str, str]:
        """The language and the web choice of the server the address names, and a glimpse of the game
        it names (``request[GLIMPSE]``), in one statement: English and no pages where it names no
        server or the database does not answer (the handler then says what is wrong)."""
        guild, game = request.match_info.get("guild"), request.match_info.get("game")
        if guild is None or int(guild) > LARGEST_ID:
            return ENGLISH, OFF
        named = int(game) if game is not None and int(game) <= LARGEST_ID else None
        try:
            async with self.db.reading() as conn:
                language, mode, glimpse = await stored.server_and_game(conn, int(guild), named)
        except Exception as err:  # noqa: BLE001 - whatever the database does, the page says it cannot read
            log.warning("the site cannot read the database: %r", err)
            request[UNREAD] = True
            return ENGLISH, OFF
        if glimpse is not None:
            request[GLIMPSE] = glimpse
        return (language if language in LANGUAGES else ENGLISH), mode_of(mode)

    def _html(self, template: str, **context: Any) -> str:
        return self.templates.get_template(template).render(lang=pages.HTML_LANGUAGE.get(current(), "en"), **context)

    def _part(self, template: str, **context: Any) -> Markup:
        """A part of a page, made apart to be kept (its template has no ``lang``: it is no whole page)."""
        return Markup(self.templates.get_template(template).render(**context))

    def _page(self, template: str, status: int = 200, **context: Any) -> web.Response:
        text = self._html(template, **context)
        return web.Response(text=text, status=status, content_type="text/html", charset="utf-8")

    def _error(self, status: int, message: str) -> web.Response:
        title = tr("Not found") if status == 404 else tr("Not shown") if status < 500 else tr("Something went wrong")
        return self._page("error.html", status, title=title, message=message)

    # --- what a request names, checked

    async def _server(self, request: web.Request, *, listed: bool) -> int:
        """The server the address names, if its pages are on (``listed``: and its games listed)."""
        return (await self._choice(request, listed=listed))[0]

    async def _choice(self, request: web.Request, *, listed: bool) -> tuple[int, str]:
        """The server the address names and its choice, if its pages are on (``listed``: and listed)."""
        guild, mode = number_in(request, "guild"), request[MODE]
        if request.get(UNREAD):
            raise Refused(503, tr("The games cannot be read right now. Try again in a moment."))
        if mode == OFF or (listed and mode != PUBLIC):
            raise not_found()
        return guild, mode

    async def _game(self, request: web.Request) -> tuple[Glimpse, str, bool]:
        """A glimpse of the game the address names, its base address, and whether its server lists
        its games; only by its genuine signed address, and only in the server it names."""
        guild, mode = await self._choice(request, listed=False)
        game_id, signer = number_in(request, "game"), await self.website.signer()
        glimpse = request.get(GLIMPSE)
        if not signer.genuine(guild, game_id, request.match_info["signature"]):
            raise not_found()
        if glimpse is None or glimpse.guild_id != guild:
            raise not_found()
        return glimpse, game_path(signer, guild, game_id), mode == PUBLIC

    async def _whole(self, game_id: int) -> Game:
        """The game with its position read, to make something of it (a page or an image not kept yet)."""
        try:
            whole = await self.master.games.get_game(game_id)
        except GameNotFound:  # gone since the request's first read
            raise not_found() from None
        if whole.damage:  # its position cannot be read, so neither can what of it is secret
            raise Refused(404, tr("This game cannot be shown: its stored position is damaged."))
        return whole

    @staticmethod
    def _number(number: int, resolved: int) -> int:
        """``number``, if the game has resolved that many turns."""
        if not 1 <= number <= resolved:
            raise Refused(
                400,
                ntr(
                    "This game has {n} resolved turn; choose 1.",
                    "This game has {n} resolved turns; choose 1 to {n}.",
                    resolved,
                )
                if resolved
                else tr("This game has no resolved turn yet."),
            )
        return number

    # --- pages

    async def home(self, request: web.Request) -> web.Response:
        return self._page("home.html", title=tr("Territory games"))

    async def server(self, request: web.Request) -> web.Response:
        guild = await self._server(request, listed=True)
        signer = await self.website.signer()
        listed = await self.master.lookup.on_site(guild, pages.LATEST_FINISHED)
        open_games, ended = pages.server_lists(listed)
        item = lambda game: pages.listed(self.presenter, game, game_path(signer, guild, game.id))  # noqa: E731
        return self._page(
            "server.html",
            title=tr("Games of this server"),
            open_games=[item(g) for g in open_games],
            ended=[item(g) for g in ended],
            rulesets=[(name, self.presenter.ruleset_title(name)) for name in sorted(self.presenter.rulesets)],
            base=server_path(guild),
        )

    async def game(self, request: web.Request) -> web.Response:
        glimpse, base, listed = await self._game(request)
        asked = request.query.get("turn")
        if asked is not None and not (asked.isascii() and asked.isdigit() and len(asked) < 10):
            raise Refused(400, tr("A turn is a number, such as ?turn=3."))
        number = None if asked is None else int(asked)
        key = ("page", glimpse, current(), listed, number)
        made = await self.pages.get(key, lambda: self._game_page(glimpse, base, listed, number))
        return web.Response(body=made, content_type="text/html", charset="utf-8")

    async def _game_page(self, glimpse: Glimpse, base: str, listed: bool, number: int | None) -> bytes:
        """The page of a game as it stands (made again only when it changes)."""
        parts = await self._parts(glimpse, base, number)
        game = await self._light(glimpse.id)
        alt = "; ".join(
            [
                self.presenter.title(game),
                *(tr("{player}: {holdings}", player=s.name, holdings=s.holdings) for s in parts.seats),
            ]
        )
        page = pages.game_page(self.presenter, game, parts, base, alt)
        guild = game.row.guild_id
        context = {"title": page.title, "page": page, "base": base, "server": server_path(guild), "listed": listed}
        return self._html("game.html", **context).encode()

    async def _parts(self, glimpse: Glimpse, base: str, number: int | None) -> pages.Parts:
        """The seats and resolved turn ``number`` (None: the latest, if any) of the game at ``glimpse``'s
        position, kept for as long as its position and players stay (a game's position and its resolved
        turns change only with its history)."""
        key = (glimpse.id, glimpse.seq, glimpse.players, number, current())
        if (kept := self.parts.get(key)) is not None:
            self.parts.move_to_end(key)
            return kept
        resolved = await self.master.history.resolved_turns(glimpse.id)
        shown = number if number is not None else resolved or None  # a turn asked for must exist (400)
        past = await self._past(glimpse.id, shown, resolved) if shown is not None else None
        game = await self._whole(glimpse.id)  # read after the turn: see _past
        seats = self.presenter.holdings(game) if game.row.state_text else []
        turn = pages.turn_of(self.presenter, game, past, resolved, f"{base}/turn/{past.number}.png") if past else None
        made = pages.Parts(
            seats,
            turn,
            self._part("seats.html", seats=seats) if seats else Markup(),
            self._part("turns.html", turn=turn, resolved=resolved, base=base) if turn else Markup(),
        )
        if game.row.seq == glimpse.seq:  # the position the key names, not one a turn resolved meanwhile
            self.parts[key] = made
            while len(self.parts) > PARTS_KEPT:
                self.parts.popitem(last=False)
        return made

    async def _light(self, game_id: int) -> Game:
        """The game with its position left unread where its glance says who acts: for what its page
        shows beside its parts (who is waiting, the deadline, the result)."""
        try:
            async with self.db.reading() as conn:
                return await self.master.games.load(conn, game_id, parse=False)
        except GameNotFound:
            raise not_found() from None

    async def _past(self, game_id: int, number: int, resolved: int) -> PastTurn:
        """Resolved turn ``number``; the game must be read after it, never before (``public_orders``
        hides what is still running in the position it is given, which must include this turn)."""
        try:
            return await self.master.history.past_turn(game_id, self._number(number, resolved))
        except GameError as err:
            raise Refused(400, str(err)) from err

    async def turn(self, request: web.Request) -> web.Response:
        glimpse, base, _ = await self._game(request)
        number = int(request.match_info["number"])

        async def made() -> bytes:
            turn = (await self._parts(glimpse, base, number)).turn
            if turn is None:
                raise not_found()
            return json.dumps(turn.as_json()).encode()

        body = await self.pages.get(("turn", glimpse.id, glimpse.version, number, current()), made)
        return web.Response(body=body, content_type="application/json", headers={"Cache-Control": "no-cache"})

    async def board(self, request: web.Request) -> web.Response:
        glimpse, _, _ = await self._game(request)
        if not glimpse.started:
            raise not_found()

        async def now(game: Game) -> int:
            return glimpse.seq

        return await self._image(("board", glimpse.id, glimpse.seq, glimpse.players), now)

    async def turn_board(self, request: web.Request) -> web.Response:
        glimpse, _, _ = await self._game(request)
        number = int(request.match_info["number"])

        async def after_turn(game: Game) -> int:
            resolved = await self.master.history.resolved_turns(game.id)
            return (await self.master.history.past_turn(game.id, self._number(number, resolved))).seq

        return await self._image(("turn", glimpse.id, number, glimpse.players), after_turn)

    async def _image(self, key: tuple, seq_of: Callable[[Game], Awaitable[int]]) -> web.Response:
        """The board ``key`` names (a game's id second in it), after the history entry ``seq_of`` says."""

        async def draw() -> bytes:
            self.meters.images.inc()
            game = await self._whole(key[1])
            return (await self.presenter.board(game, seq=await seq_of(game))).data

        data = await self.images.get((*key, current()), draw)
        self.meters.cached.set(self.images.size)
        return web.Response(body=data, content_type="image/png", headers={"Cache-Control": "private, max-age=60"})

    async def replay(self, request: web.Request) -> web.Response:
        glimpse, _, _ = await self._game(request)
        key = ("replay", glimpse.id, glimpse.seq, current())
        if (refusal := self.refused_replays.get(key)) is not None:  # a replay too large is not made again
            raise Refused(400, refusal)

        async def draw() -> bytes:
            try:
                made = await self.presenter.replay(await self._whole(glimpse.id), REPLAY_LIMIT)
            except GameError as err:
                self.refused_replays[key] = str(err)
                while len(self.refused_replays) > REFUSALS_KEPT:
                    self.refused_replays.popitem(last=False)
                raise Refused(400, str(err)) from err
            return made.data

        data = await self.images.get(key, draw)
        kind = "image/gif" if data[:3] == b"GIF" else "image/png"
        return web.Response(body=data, content_type=kind, headers={"Cache-Control": "private, max-age=60"})

    async def leaderboard(self, request: web.Request) -> web.Response:
        guild = await self._server(request, listed=True)
        ruleset = request.match_info["ruleset"]
        if ruleset not in self.presenter.rulesets:
            raise not_found()
        board = await self.master.ratings.leaderboard(ruleset, guild, limit=50)
        lines = [(place, standing, standing.user_id) for place, standing in enumerate(board, 1)]
        return self._page(
            "leaderboard.html",
            title=tr("{game} leaderboard", game=self.presenter.ruleset_title(ruleset)),
            lines=lines,
            base=server_path(guild),
        )

    async def _player(self, request: web.Request) -> tuple[int, int, str, dict[str, tuple[Standing, list[float]]]]:
        """The server, the member the address names, his name and ratings there (if he has any)."""
        guild, user = await self._server(request, listed=True), number_in(request, "user")
        stats = await self.master.ratings.player_stats(user, guild)
        if not stats:
            raise not_found()
        return guild, user, next(iter(stats.values()))[0].shown_name, stats

    async def player(self, request: web.Request) -> web.Response:
        guild, user, name, stats = await self._player(request)
        rows = [(self.presenter.ruleset_title(ruleset), standing) for ruleset, (standing, _) in sorted(stats.items())]
        return self._page(
            "player.html",
            title=tr("{player}: ratings", player=name),
            name=name,
            rows=rows,
            chart=f"{server_path(guild)}/player/{user}/chart.png",
            base=server_path(guild),
        )

    async def chart(self, request: web.Request) -> web.Response:
        _, _, name, stats = await self._player(request)
        picture = await self.presenter.rating_chart(name, stats)
        return web.Response(
            body=picture.data, content_type="image/png", headers={"Cache-Control": "private, max-age=60"}
        )

    async def static(self, request: web.Request) -> web.Response:
        """The site's style sheet and script, held in memory (two small files)."""
        name = request.match_info["name"]
        if name not in self.files:
            raise not_found()
        kind = "text/css" if name.endswith(".css") else "text/javascript"
        return web.Response(body=self.files[name], content_type=kind, headers={"Cache-Control": "public, max-age=3600"})

    async def seats_css(self, request: web.Request) -> web.Response:
        """Each seat's colour for the swatches beside players' names, as the boards draw it."""
        rules = "".join(f".seat{n}{{background:{colour}}}" for n, colour in enumerate(self.presenter.seat_colours()))
        return web.Response(text=rules, content_type="text/css", headers={"Cache-Control": "public, max-age=3600"})

    # --- for operators

    async def healthz(self, request: web.Request) -> web.Response:
        try:
            async with asyncio.timeout(ANSWER_SECONDS):
                async with self.db.reading() as conn:
                    await games_rows.open_count(conn)
        except Exception as err:  # noqa: BLE001 - whatever the database does, the answer is "unreachable"
            self.meters.database_up.set(0)
            log.warning("health check: the database did not answer: %r", err)
            body = {"status": "failing", "database": "unreachable"}
            return web.Response(text=json.dumps(body), status=503, content_type="application/json")
        self.meters.database_up.set(1)
        return web.json_response({"status": "ok", "database": "ok"})

    async def metrics(self, request: web.Request) -> web.Response:
        await self.healthz(request)
        return web.Response(body=generate_latest(self.meters.registry), headers={"Content-Type": CONTENT_TYPE_LATEST})
