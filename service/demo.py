"""An offline game between computer players: every round's board image plus a text summary.

It needs no Discord token and no database, so a newcomer can see a whole game in seconds.
"""

from __future__ import annotations

import functools
import json
import pathlib
from dataclasses import dataclass

from PIL import Image

from engine import RULESETS, Ruleset, find_ruleset
from render import board_png
from render.replay import UPLOAD_LIMIT, Still, animate, final
from render.summary import describe_events, describe_outcome, numbered_turn

DEMO_NAMES = ("Alice", "Борис", "小明", "Dana", "Émile", "Farida")


@dataclass(frozen=True)
class DemoResult:
    turns: dict[str, int]  # turns played by what the game calls them ("move", "round"), in order of first play
    images: tuple[pathlib.Path, ...]
    summary: pathlib.Path
    replay: pathlib.Path  # the whole game animated, as the bot posts it at a game's end
    finished: bool  # False when the step limit stopped the game: the demo did not show a whole game


def run_demo(
    ruleset: str | None,
    players: int | None,
    seed: int,
    out: pathlib.Path,
    max_steps: int = 500,
    level: str | None = None,
) -> DemoResult:
    """``ruleset`` None plays the first game by name; ``players`` None the ruleset's own default table;
    ``level`` None the computers' :func:`demo_level`."""
    rs = find_ruleset(ruleset or min(RULESETS))
    level = rs.bot_level(level or demo_level(rs)).name  # an unknown level is refused before anything is written
    players = rs.default_players if players is None else players
    options = {"round_limit": 200} if any(o.name == "round_limit" for o in rs.options_schema()) else {}
    state = rs.setup(players, options, seed=seed)
    names = DEMO_NAMES[:players]
    out.mkdir(parents=True, exist_ok=True)
    images = [_write(out / "round-000.png", board_png(rs.view(state, None), names=names, title="Start"))]
    captions = ["Start"]
    log = [f"{rs.title}: {players} computer players ({level}), seed {seed}"]
    step = 0
    turns: dict[str, int] = {}
    while rs.outcome(state) is None and step < max_steps:
        step += 1
        orders = {seat: rs.ai_orders(state, seat, seed, level=level) for seat in sorted(rs.acting_players(state))}
        if step == 1:
            private = board_png(rs.view(state, 0), names=names, orders=orders[0])
            images.append(_write(out / "private-orders-seat0-round-001.png", private))
        turns[rs.turn_unit(state)] = turns.get(rs.turn_unit(state), 0) + 1
        captions.append(numbered_turn(rs.turn_unit(state), *rs.turn_number(state, step - 1)))
        heading = f"{captions[-1]} resolved."
        resolution = rs.resolve(state, orders)
        state = resolution.state
        log += ["", heading, *describe_events(rs, resolution.events, names)]
        images.append(_write(out / f"round-{step:03d}.png", board_png(rs.view(state, None), names=names)))
    outcome = rs.outcome(state)
    log += ["", *(describe_outcome(outcome, names) if outcome else [f"Stopped after {max_steps} steps."])]
    if outcome is not None:
        captions[-1] = final(captions[-1])
    boards = [path for path in images if path.name.startswith("round-")]
    replay = animate(
        [Still(functools.partial(Image.open, path), text) for path, text in zip(boards, captions, strict=True)],
        UPLOAD_LIMIT,
    )
    replay_path = _write(out / f"replay.{replay.format}", replay.data)
    summary = out / "summary.txt"
    summary.write_text("\n".join(log) + "\n", encoding="utf-8")
    (out / "final-state.json").write_text(json.dumps(rs.to_dict(state), ensure_ascii=False), encoding="utf-8")
    return DemoResult(turns, tuple(images), summary, replay_path, outcome is not None)


def demo_level(rs: Ruleset) -> str:
    """The level a demo's computers play at unless asked: the one below the strongest, which plays a
    whole game in a few seconds on every table (the strongest takes up to a minute on gra's)."""
    levels = rs.bot_levels
    return levels[-2 if len(levels) > 1 else -1].name


def _write(path: pathlib.Path, data: bytes) -> pathlib.Path:
    path.write_bytes(data)
    return path
