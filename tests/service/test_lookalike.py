"""Names that Unicode's confusable skeletons (UTS #39) or case make look alike are told apart by seat
number; names that look different are left as they are."""

from __future__ import annotations

from service.lookalike import told_apart
from service.markup import COLOUR_EMOJI
from service.models import Actor
from service.presenter import Presenter
from service.runtime.workers import CpuPool


def test_a_cyrillic_letter_does_not_pass_for_a_latin_one():
    assert told_apart(["alice", "аlice", "bob"]) == ["alice #1", "аlice #2", "bob"]


def test_a_capital_i_does_not_pass_for_a_small_l():
    assert told_apart(["Alice", "AIice"]) == ["Alice #1", "AIice #2"]


def test_rn_does_not_pass_for_m():
    assert told_apart(["carl", "mia", "rnia"]) == ["carl", "mia #2", "rnia #3"]


def test_names_differing_in_case_only_are_told_apart_as_before():
    assert told_apart(["bob", "Bob"]) == ["bob #1", "Bob #2"]


def test_what_the_board_cannot_draw_does_not_tell_names_apart():
    """An invisible space or an emoji is not drawn: the names look alike where they are drawn."""
    assert told_apart(["ali\u200bce", "alice", "alice 🙂"]) == ["ali\u200bce #1", "alice #2", "alice 🙂 #3"]


def test_a_name_drawn_as_nothing_gets_its_seat_number():
    assert told_apart(["🙂", "bob"]) == ["🙂 #1", "bob"]


def test_every_one_of_several_look_alikes_is_numbered_and_the_others_are_not():
    names = ["alice", "Dana", "аlice", "ALICE", "аIice"]
    assert told_apart(names) == ["alice #1", "Dana", "аlice #3", "ALICE #4", "аIice #5"]


def test_distinct_names_are_left_as_they_are():
    names = ["Alice", "Борис", "小明", "Dana", "Computer 5 (Hard)"]
    assert told_apart(names) == names


def test_names_are_numbered_as_shown_but_compared_as_drawn():
    assert told_apart(["a*b", "а*b", "c"], lambda name: name.replace("*", "\\*")) == ["a\\*b #1", "а\\*b #2", "c"]


async def test_a_manager_picks_one_of_two_look_alikes_by_the_name_he_is_shown(env):
    game = await env.new_game(Actor(1, "alice"), Actor(2, "аlice"))
    presenter = Presenter(env.master.games, env.master.history, CpuPool(workers=0))
    fake = game.player_of(2)
    shown = f"аlice #{fake.seat + 1}"
    assert (f"{COLOUR_EMOJI[fake.seat]} {shown}", fake.id) in presenter.player_choices(game)
    assert presenter.player_named(game, shown) == fake
