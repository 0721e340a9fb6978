"""CPU work (board images, computer players) in worker processes, so that no slash command waits
for another game's render or search: the event loop only awaits, and the interpreter lock of the
bot's process is never held by a long computation.

Jobs are module-level functions taking plain data (the ruleset object, which pickles by its class,
and JSON-safe states), so a worker needs nothing but imports. Workers are started with
``forkserver``: forking the bot itself would copy its event loop and database threads.
``CpuPool(workers=0)`` runs the same jobs in threads of the calling process instead — for the
offline demo and for service tests, where starting processes would only cost time.

A worker that dies (killed, out of memory) breaks Python's whole process pool: every later job would
fail. The pool is then replaced by a new one, and the jobs it held are run once more there.
"""

from __future__ import annotations

import asyncio
import json
import logging
import multiprocessing
import os
import select
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Executor, Future, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, NamedTuple, TypeVar

from PIL import Image

from engine import RULESETS, Ruleset
from i18n import ENGLISH, LANGUAGES, tr, translations, using
from render import board_image, board_png, crop, describe, has_drawer, places_of, png, text
from render.chart import chart_description, rating_chart
from render.replay import Replay, Still, animate, final
from render.standings import standings_description, standings_png
from render.summary import numbered_turn
from service.runtime.meters import Jobs

T = TypeVar("T")
log = logging.getLogger(__name__)


class ReplayStep(NamedTuple):
    """A position a replay shows, as plain data for the worker that draws it."""

    number: int | None  # 0 for the start, else the resolved turn it follows; None: a departure ended the game
    before: str | None  # the position the turn was played from (it names the turn), as JSON text
    after: str  # as JSON text: the worker parses it


class Picture(NamedTuple):
    """An image and its words for a screen reader (alt text): what a board shows, a chart's lines."""

    data: bytes
    description: str
    close_up: Picture | None = None  # the part of a board too large to read on a phone that matters


class Focus(NamedTuple):
    """Which part of a board to show close up (``render.crop``), and under what heading."""

    words: tuple[str, ...]  # text naming places ("G4>F4"); none: the places the last turn touched
    board: str  # which board it is ("Round 4"), for the heading
    asked: bool = False  # a player asked for it: cut out even where the whole board reads on a phone


def render_job(
    rs: Ruleset,
    state: Mapping[str, Any] | str,
    *,
    viewer: int | None,
    orders_text: str,
    names: Sequence[str],
    title: str | None,
    language: str = ENGLISH,
    focus: Focus | None = None,
) -> Picture:
    """The board as ``viewer`` may see it; with ``orders_text``, his private view of his orders; its
    words in ``language`` (a worker process does not share the caller's context). ``state`` may be
    JSON text, so that the worker parses it, not the bot's process. Described: each player's
    holdings, and the orders of a private view. With ``focus``, a close-up too where it is needed."""
    loaded = _loaded(rs, state)
    orders = rs.parse_orders(loaded, viewer, orders_text) if viewer is not None and orders_text else ()
    with using(language):
        view = rs.view(loaded, viewer)
        lines = describe(view, names=names)
        if orders:
            lines.append(tr("Your orders, drawn for you alone: {orders}", orders=rs.format_orders(orders)))
        image = board_image(view, names=names, orders=orders, title=title)
        paletted = png.to_palette(image)
        close = _close_up(view, image, focus, paletted) if focus is not None else None
        return Picture(png.save(paletted), "\n".join(lines), close)


def close_up_job(
    rs: Ruleset, state: Mapping[str, Any] | str, *, names: Sequence[str], language: str, focus: Focus
) -> Picture | None:
    """Only the close-up ``focus`` asks for, as everyone sees the board (None: the board has none):
    the whole board is drawn to be cut, and mapped to its palette, but not encoded."""
    loaded = _loaded(rs, state)
    with using(language):
        view = rs.view(loaded, None)
        return _close_up(view, board_image(view, names=names), focus)


def _loaded(rs: Ruleset, state: Mapping[str, Any] | str) -> Any:
    """The engine's state from its stored form (JSON text is parsed here, in the worker)."""
    return rs.from_dict(state if isinstance(state, Mapping) else json.loads(state))


def _close_up(view: object, image: Image.Image, focus: Focus, paletted: Image.Image | None = None) -> Picture | None:
    """The part of the board ``focus`` is about, when the board is too large to read on a phone
    (or a player asked for it); None when there is nothing to show close up. It takes the board's
    palette (``paletted``, the board already mapped to it, when the board is sent too), so that it
    is the same close-up whether it comes with the board or alone, and its colours are not counted
    again."""
    places = places_of(view)
    if places is None or not (focus.asked or crop.needs_close_up(places, view, image.width)):
        return None
    labels = crop.named(places, view, focus.words) if focus.words else places.touched(view)
    if not labels:
        return None
    heading = crop.heading(focus.board, labels)
    described = tr("A close-up of the board around {places}, readable on a phone.", places=", ".join(labels))
    close = crop.close_up(places, view, image, labels, heading)
    like = png.to_palette(image) if paletted is None else paletted
    return Picture(png.encode(close, like=like), f"{heading}\n{described}")


def preview_job(
    rs: Ruleset, options: Mapping[str, Any], players: int, seed: int, title: str, language: str = ENGLISH
) -> Picture:
    """The board a game will start on, as everyone sees it (before anyone has joined it)."""
    state = rs.setup(players, options, seed)
    with using(language):
        names = [tr("Seat {number}", number=n + 1) for n in range(players)]
        view = rs.view(state, None)
        lines = [title, *describe(view, names=names)]
        return Picture(board_png(view, names=names, orders=(), title=title), "\n".join(lines))


def chart_job(title: str, series: Mapping[str, Sequence[float]], language: str = ENGLISH) -> Picture:
    """A player's rating history, its axis words in ``language``."""
    with using(language):
        return Picture(rating_chart(title, series), chart_description(title, series))


def standings_job(
    title: str, header: Sequence[str], rows: Sequence[Sequence[str]], leaders: int, language: str = ENGLISH
) -> Picture:
    """A tournament's standings table (its words already in ``language``, but for its fitting)."""
    with using(language):
        return Picture(standings_png(title, header, rows, leaders), standings_description(title, header, rows))


def replay_job(
    rs: Ruleset,
    steps: Sequence[ReplayStep],
    *,
    names: Sequence[str],
    finished: bool,
    limit: int,
    language: str = ENGLISH,
) -> Replay:
    """The game animated, in at most ``limit`` bytes, its captions and boards' words in ``language``;
    a finished game's last frame says so. States come as JSON text: the worker parses them, each
    once (a turn's position is the board of the turn before)."""
    parsed: dict[str, Any] = {}  # positions the captions read, until their board is drawn

    def caption(step: ReplayStep, last: bool) -> str:
        if step.number is None:
            return tr("Final position")
        if step.number and step.before is not None:  # a resolved turn has the position it was played from
            if step.before not in parsed:
                parsed[step.before] = rs.from_dict(json.loads(step.before))
            position = parsed[step.before]
            label = numbered_turn(rs.turn_unit(position), *rs.turn_number(position, step.number - 1))
        else:
            label = tr("Start")
        return final(label) if last and finished else label

    def board(stored: str) -> Callable[[], Any]:
        def draw() -> Any:
            position = parsed.pop(stored) if stored in parsed else rs.from_dict(json.loads(stored))
            return board_image(rs.view(position, None), names=names)

        return draw

    with using(language):
        stills = [Still(board(step.after), caption(step, i == len(steps) - 1)) for i, step in enumerate(steps)]
        return animate(stills, limit)


def bot_job(rs: Ruleset, state: Mapping[str, Any], seat: int, seed: str, level: str | None, nodes: int) -> str:
    """A computer player's orders, searching ``nodes``, as the text a player would have typed."""
    return rs.format_orders(rs.ai_orders(rs.from_dict(state), seat, seed, level=level, budget=nodes))


def follow(bot_pid: int) -> None:
    """End this worker when the bot's process ends, however it ends. A worker never sees its job
    queue close (it holds both ends of it), and the forkserver lives while any worker does, so a
    killed bot would otherwise leave them, and the resource tracker, running for good."""
    threading.Thread(target=_exit_after, args=(bot_pid,), name="bot-watch", daemon=True).start()


def _exit_after(pid: int) -> None:
    try:
        if hasattr(os, "pidfd_open"):  # Linux: a handle that turns readable when the process ends
            select.select([os.pidfd_open(pid)], [], [])
        else:
            while True:
                os.kill(pid, 0)
                time.sleep(1)
    except ProcessLookupError:  # already gone
        pass
    os._exit(0)


def start_worker(bot_pid: int) -> None:
    """A new worker's initializer: it follows the bot and warms up."""
    follow(bot_pid)
    warm_up()


LONG_JOB_NICENESS = 10
"""How much lower a long job's worker runs than the bot and its render workers."""


def start_long_worker(bot_pid: int) -> None:
    """A long job's worker: it follows the bot and yields the CPU to the others."""
    follow(bot_pid)
    os.nice(LONG_JOB_NICENESS)


def warm_up() -> None:
    """What a new worker does before its first job: read the fonts' character maps and draw each
    ruleset's opening board once, so its first real image finds the glyphs (labels, numbers) and
    pieces it shares with every board already drawn; and read the message catalogs, so that the first
    board in another language does not wait for them."""
    text.read_coverage()
    for language in LANGUAGES:
        translations(language)
    for rs in RULESETS.values():
        view = rs.view(rs.setup(rs.default_players, {}, seed=0), None)
        if has_drawer(type(view)):
            board_png(view, names=[f"Player {n + 1}" for n in range(rs.default_players)])


def started() -> bool:
    """A job that only makes a worker start (and warm up)."""
    return True


# What the forkserver imports once, so each worker forks with it loaded. A name that no longer
# imports is skipped without a word by multiprocessing: tests/service/test_workers.py checks them.
PRELOADED = ("engine", "render", __name__)


def job_name(job: Callable[..., Any]) -> str:
    return getattr(job, "__name__", "job")


class CpuPool:
    """Where CPU-heavy jobs run: ``await pool.run(job, ...)`` from the event loop, ``pool.call(job, ...)`` (or ``pool.call_each`` for several at once)
    from a planning thread (it blocks that thread, never the loop).

    Long jobs (a replay: seconds of frames) go to ``run_long``: a worker process of their own for
    each, at a lower priority, so that round images never queue behind them and take the CPU first;
    it ends with its job, so no idle process is kept for them."""

    def __init__(self, workers: int | None = None):
        self.workers = max(1, (os.cpu_count() or 2)) if workers is None else workers
        self._executor: Executor | None = None
        self._long: set[Executor] = set()  # one per long job running
        self._making = threading.Lock()  # planning threads and the start-up may ask at once
        self.jobs = Jobs()  # for /metrics

    @property
    def executor(self) -> Executor:
        with self._making:
            if self._executor is None:
                self._executor = self._make(self.workers, start_worker)
            return self._executor

    def _make(self, workers: int, initializer: Callable[[int], None]) -> Executor:
        if workers == 0:
            return ThreadPoolExecutor(max_workers=2, thread_name_prefix="cpu")
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload(list(PRELOADED))
        return ProcessPoolExecutor(
            max_workers=workers,
            mp_context=context,
            initializer=initializer,
            initargs=(os.getpid(),),
        )

    def start(self) -> None:
        """Start the workers now, each warming up, rather than when the first board is asked for
        (a worker is started for a job when none is idle, so one job each starts them all)."""
        if self.workers:
            for _ in range(self.workers):
                self.executor.submit(started)

    async def run(self, job: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        executor = self.executor
        try:
            return await self._await(executor, job, *args, **kwargs)
        except BrokenProcessPool:
            self._replace(executor)
        return await self._await(self.executor, job, *args, **kwargs)  # once more, in new workers

    def _replace(self, broken: Executor) -> None:
        """Put a new pool in place of ``broken`` (unless another job already has)."""
        with self._making:
            if self._executor is broken:
                log.warning("a worker process died; starting new workers and running its jobs again")
                broken.shutdown(wait=False, cancel_futures=True)
                self._executor = None

    async def run_long(self, job: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        if not self.workers:  # no worker processes: long jobs share the others' threads
            return await self.run(job, *args, **kwargs)
        executor = self._make(1, start_long_worker)
        self._long.add(executor)
        try:
            return await self._await(executor, job, *args, **kwargs)
        except asyncio.CancelledError:  # nobody waits for it: its process stops now, not when the job would end
            for process in list((getattr(executor, "_processes", None) or {}).values()):  # None once shut down
                process.terminate()
            raise
        finally:
            self._long.discard(executor)
            executor.shutdown(wait=False)

    async def _await(self, executor: Executor, job: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        return await asyncio.wrap_future(self._submit(executor, job, *args, **kwargs), loop=asyncio.get_running_loop())

    def _submit(self, executor: Executor, job: Callable[..., T], *args: Any, **kwargs: Any) -> Future[T]:
        """``job`` handed to ``executor``, timed from now to its result (for /metrics)."""
        started, name = time.perf_counter(), job_name(job)
        self.jobs.handed()
        try:
            future = executor.submit(job, *args, **kwargs)
        except BaseException:  # a broken pool takes nothing
            self.jobs.handed(-1)
            raise
        future.add_done_callback(lambda _: self.jobs.done(name, time.perf_counter() - started))
        return future

    def call(self, job: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        return self.call_each(job, [args], **kwargs)[0]

    def call_each(self, job: Callable[..., T], argument_lists: list[tuple], **kwargs: Any) -> list[T]:
        """``job`` run once per argument list, all submitted at once (spread over the idle workers),
        the results in order; from a planning thread, which it blocks."""

        def results(executor: Executor) -> list[T]:
            futures = [self._submit(executor, job, *args, **kwargs) for args in argument_lists]
            return [future.result() for future in futures]

        executor = self.executor
        try:
            return results(executor)
        except BrokenProcessPool:
            self._replace(executor)
        return results(self.executor)

    def close(self) -> None:
        """Stop every worker now: a job in hand (a new worker's warm-up, a board no one waits for any
        more) is not waited for, so that a bot stops within its few seconds however busy the machine."""
        for executor in [*self._long, self._executor]:
            if executor is None:
                continue
            processes = list((getattr(executor, "_processes", None) or {}).values())
            executor.shutdown(wait=False, cancel_futures=True)
            for process in processes:
                process.terminate()
            for process in processes:
                process.join()
        self._executor = None
        self._long.clear()
