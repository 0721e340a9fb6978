"""The game's lines on a page: Discord's few marks become HTML, everything else is escaped, and a
player's name shows as itself whatever characters it holds."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st
from markupsafe import escape

from web.markup import html, unmarked

TAGS = re.compile(r"</?(?:strong|code)>")
MARKED = st.text(alphabet=st.sampled_from("a*`\\<>&_~|é🙂 "), max_size=30)  # names full of Discord's marks


def test_bold_and_code_become_html():
    assert html("**Conquest #1, round 2.**") == "<strong>Conquest #1, round 2.</strong>"
    assert html("Bob: `C3>D3 2`") == "Bob: <code>C3&gt;D3 2</code>"
    assert html("a \\*not bold\\* <b>") == "a *not bold* &lt;b&gt;"
    assert html("**open") == "<strong>open</strong>"  # a mark left open is closed


@given(MARKED)
def test_a_name_shows_as_itself(name):
    assert html(unmarked(name)) == escape(name)


@given(st.one_of(MARKED, st.text(max_size=60)))
def test_nothing_but_the_marks_tags_reaches_the_page(line):
    assert "<" not in TAGS.sub("", html(line))
