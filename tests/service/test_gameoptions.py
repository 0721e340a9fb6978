"""Game options are offered from one schema and checked in one place (``service.gameoptions.settle``)."""

from __future__ import annotations

import pytest

from engine import RULESETS, ClockPreset, OptionError, find_ruleset
from engine.conquest import ConquestRuleset
from service.gameoptions import DAY, creation_options, duration, settle

CONQUEST = find_ruleset("conquest")


def test_every_ruleset_offers_its_own_options_then_the_table_options():
    for rs in RULESETS.values():
        names = [o.name for o in creation_options(rs)]
        assert names[: len(rs.options_schema())] == [o.name for o in rs.options_schema()]
        assert {"clock", "turn_time", "bank", "missed_turns"} <= set(names)
        assert len(names) == len(set(names)) <= 25  # Discord's limit of options per command
        assert all(len(o.description) <= 100 for o in creation_options(rs))


def test_settle_splits_the_ruleset_options_from_the_clock():
    settings = settle(CONQUEST, {"size": "small", "clock": "bank", "bank": DAY, "turn_time": 3600, "max_players": 4})
    assert settings.options["size"] == "small" and settings.options["start_units"] == 10
    assert settings.time.mode == "bank" and settings.time.bank_seconds == DAY and settings.time.round_seconds == 3600
    assert settings.time.reminder_seconds == 900 and settings.max_players == 4


def test_defaults_when_nothing_is_chosen():
    settings = settle(CONQUEST, {})
    assert settings.time.mode == "round" and settings.time.round_seconds == DAY and settings.time.missed_limit == 3
    assert settings.max_players == CONQUEST.max_players


@pytest.mark.parametrize(
    "chosen, message",
    [
        ({"mode": 2}, "mode does not apply to Conquest"),
        ({"turn_time": 59}, "turn_time=59 must be one of"),
        ({"max_players": 7}, "max_players=7 must be between 2 and 6"),
        ({"size": "huge"}, "size='huge' must be one of"),
        ({"missed_turns": True}, "must be a whole number"),
    ],
)
def test_bad_choices_are_refused_with_the_reason(chosen, message):
    with pytest.raises(OptionError, match=message):
        settle(CONQUEST, chosen)


@pytest.mark.parametrize(
    "ruleset, chosen, names",
    [
        ("conquest", {"map": "crown", "size": "large"}, "size shapes"),
        ("siege", {"map": "ford", "size": 12, "mountain_level": 2}, "mountain_level, size shape"),
        ("fortress", {"map": "meadow", "width": 12}, "width shapes"),
        ("ranks", {"map": "duel", "size": 9}, "size shapes"),
        ("gra", {"map": "wheel", "size": "small"}, "size shapes"),
    ],
)
def test_an_option_for_generated_maps_is_refused_beside_a_chosen_map(ruleset, chosen, names):
    """A chosen map has its own size: `map:crown size:large` is refused at create, saying why, not
    silently played on crown as it is."""
    rs = RULESETS[ruleset]
    assert chosen["map"] in next(o for o in rs.options_schema() if o.name == "map").choices
    with pytest.raises(OptionError, match=f"{names} a generated map only and do(es)? not apply with map"):
        settle(rs, chosen)
    generated = {k: v for k, v in chosen.items() if k != "map"}
    assert settle(rs, generated).options.items() >= generated.items()  # without a map, they apply


def test_durations_read_naturally():
    assert [duration(s) for s in (600, 3600, 90000, 7 * DAY)] == ["10 minutes", "1 hour", "1 day 1 hour", "7 days"]


class ChessConquest(ConquestRuleset):
    clock_presets = (ClockPreset("blitz-3", "Blitz 3 min", 180), ClockPreset("rapid-10", "Rapid 10 min", 600))


def test_a_rulesets_chess_clocks_are_offered_with_an_increment():
    rs = ChessConquest()
    clock = next(o for o in creation_options(rs) if o.name == "clock")
    assert clock.choices[-2:] == ("blitz-3", "rapid-10") and clock.label("blitz-3") == "chess clock: Blitz 3 min"
    settings = settle(rs, {"clock": "blitz-3", "increment": 2})
    assert (settings.time.mode, settings.time.bank_seconds, settings.time.increment_seconds) == ("increment", 180, 2)
    assert settings.time.reminder_seconds == 0
    with pytest.raises(OptionError, match="increment=6 must be between 0 and 5"):
        settle(rs, {"clock": "blitz-3", "increment": 6})
    with pytest.raises(OptionError, match="increment goes with a chess clock"):
        settle(rs, {"clock": "round", "increment": 2})
    assert "increment" not in {o.name for o in creation_options(CONQUEST)}  # no chess clocks, no increment
