"""Every ruleset's ``rules_text`` as Discord shows it (`/rules NAME`): the string goes out verbatim,
so a source-code line continuation left in it shows up as a stray backslash."""

from __future__ import annotations

import re

import pytest

from engine import RULESETS, OrderError, OrderSyntaxError

DISCORD_LIMIT = 4096  # characters in an embed description


def order_spans_in_notation(rs, text: str) -> list[str]:
    """The inline-code spans of ``text`` that the ruleset reads as orders in its opening position
    (an illegal order there still counts: it is the notation that is checked, not the move)."""
    state = rs.setup(rs.default_players, {}, seed=1)
    seat = min(rs.acting_players(state))
    spans = []
    for span in re.findall(r"`([^`]+)`", text):
        try:
            if not rs.parse_orders(state, seat, span):
                continue  # a separator or blank, not an order
        except OrderSyntaxError:
            continue
        except OrderError:
            pass
        spans.append(span)
    return spans


@pytest.mark.parametrize("name", sorted(RULESETS))
def test_rules_text_reads_cleanly_in_discord(name):
    text = RULESETS[name].rules_text
    assert text.strip(), "the rules text is empty"
    assert len(text) < DISCORD_LIMIT
    assert not re.search(r"\\\s*$", text, re.MULTILINE), "a backslash ends a line (a line continuation leaked)"
    assert "\\\n" not in text


@pytest.mark.parametrize("name", sorted(RULESETS))
def test_rules_text_shows_the_order_notation(name):
    rs = RULESETS[name]
    assert order_spans_in_notation(rs, rs.rules_text), "no `order` example the ruleset can read"


def test_the_notation_check_tells_orders_from_other_code_spans():
    rs = RULESETS["conquest"]
    assert order_spans_in_notation(rs, "move with `C4>C5 3`; not with `walk north` or `;`") == ["C4>C5 3"]
