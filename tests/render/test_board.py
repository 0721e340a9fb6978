"""What a player must be able to see on the conquest board image."""

from __future__ import annotations

import io
from concurrent.futures import ThreadPoolExecutor

import pytest
from PIL import Image

from engine import find_ruleset
from engine.conquest.orders import Auto, Move
from render import board_png
from render.boards.conquest import cell_center, layout
from render.style import NEUTRAL, player_colour

NAMES = ("Алиса", "小明", "Bob")
SIX = ("Алиса", "小明", "Bob", "Zoë", "李小龙", "Дмитрий")


def play(players: int, options: dict, seed: int, rounds: int):
    rules = find_ruleset("conquest")
    state = rules.setup(players, options, seed=seed)
    for _ in range(rounds):
        if state.over:
            break
        orders = {seat: rules.ai_orders(state, seat, seed, level="Medium") for seat in rules.acting_players(state)}
        state = rules.resolve(state, orders).state
    return state


def decode(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    assert image.format == "PNG"
    image.load()
    return image.convert("RGB")


@pytest.fixture(scope="module")
def rules():
    return find_ruleset("conquest")


@pytest.fixture(scope="module")
def midgame():
    return play(3, {}, seed=1, rounds=5)


@pytest.fixture(scope="module")
def largest():
    return play(6, {"size": "large"}, seed=1, rounds=8)


def close(pixel, colour, tolerance=8):
    return all(abs(a - b) <= tolerance for a, b in zip(pixel, colour))


def owners_at_centres(view, image):
    """Every cell whose centre pixel is not its owner's colour (neutral grey for nobody's)."""
    wrong = []
    for cell in view.cells:
        expected = NEUTRAL if cell.owner is None else player_colour(cell.owner)
        pixel = image.getpixel(cell_center(view, cell.cell))
        if not close(pixel, expected):
            wrong.append((cell.label, cell.owner, pixel))
    return wrong


def test_valid_png_of_phone_readable_size(rules, midgame):
    image = decode(board_png(rules.view(midgame, None), names=NAMES))
    assert 900 <= image.width <= 1400
    assert image.height <= 1800


@pytest.mark.parametrize(
    "players, size, seed, rounds",
    [
        (2, "small", 4, 0),
        (3, "medium", 1, 5),
        (4, "medium", 2, 12),
        (6, "large", 1, 8),
        (5, "large", 3, 20),
    ],
)
def test_each_cell_centre_shows_its_owner(rules, players, size, seed, rounds):
    state = play(players, {"size": size}, seed, rounds)
    view = rules.view(state, None)
    image = decode(board_png(view, names=SIX[:players]))
    assert owners_at_centres(view, image) == []
    assert any(c.owner is None for c in view.cells) and any(c.owner is not None for c in view.cells)


def test_centres_shown_under_private_orders_too(rules, midgame):
    view = rules.view(midgame, 0)
    orders = rules.ai_orders(midgame, 0, 3)
    assert owners_at_centres(view, decode(board_png(view, names=NAMES, orders=orders))) == []


def test_largest_map_fits_a_phone_and_an_upload(rules, largest):
    view = rules.view(largest, None)
    assert len(view.cells) == 169
    data = board_png(view, names=SIX)
    assert len(data) < 500_000
    image = decode(data)
    assert 900 <= image.width <= 1400
    assert all(
        0 <= x < image.width and 0 <= y < image.height for x, y in (cell_center(view, c.cell) for c in view.cells)
    )


def test_neighbouring_cells_sit_one_cell_apart(rules, largest):
    view = rules.view(largest, None)
    size = layout(view).hexes.size
    cell = view.cells[len(view.cells) // 2].cell
    x, y = cell_center(view, cell)
    for near in cell.neighbours():
        nx, ny = cell_center(view, near)
        assert abs(((nx - x) ** 2 + (ny - y) ** 2) ** 0.5 - size * 3**0.5) < 1.5


def test_private_image_shows_orders_and_public_never_depends_on_them(rules, midgame):
    public = board_png(rules.view(midgame, None), names=NAMES)
    moved = {(t.source, t.target) for t in midgame.last_moves} | set(midgame.autos.items())
    source, target = next(
        (cell, near)
        for cell in midgame.cells_of(0)
        if midgame.cells[cell].units >= 2
        for near in cell.neighbours()
        if near in midgame.cells and {(cell, near), (near, cell)}.isdisjoint(moved)
    )
    private = board_png(rules.view(midgame, 0), names=NAMES, orders=[Move(source, target, 2)])
    other = board_png(rules.view(midgame, 0), names=NAMES, orders=[Auto(source, target)])
    assert private != public and other != private
    view = rules.view(midgame, 0)
    (x0, y0), (x1, y1) = cell_center(view, source), cell_center(view, target)
    edge = ((x0 + x1) // 2 - 8, (y0 + y1) // 2 - 8, (x0 + x1) // 2 + 8, (y0 + y1) // 2 + 8)
    assert decode(private).crop(edge).tobytes() != decode(public).crop(edge).tobytes()
    assert board_png(rules.view(midgame, 0), names=NAMES) == public
    assert board_png(rules.view(midgame, 2), names=NAMES, orders=()) == public


def test_rendering_is_deterministic_even_in_parallel_threads(rules, midgame):
    view = rules.view(midgame, 1)
    orders = rules.ai_orders(midgame, 1, 9)
    first = board_png(view, names=NAMES, orders=orders, title="Cup")
    with ThreadPoolExecutor(4) as pool:
        again = list(pool.map(lambda _: board_png(view, names=NAMES, orders=orders, title="Cup"), range(8)))
    assert set(again) == {first}


def test_names_and_title_are_drawn(rules, midgame):
    view = rules.view(midgame, None)
    plain = board_png(view, names=NAMES)
    assert board_png(view, names=("Алиса", "小红", "Bob")) != plain
    assert board_png(view, names=NAMES, title="Friday league") != plain
    assert board_png(view, names=NAMES, title="Кубок 杯") != board_png(view, names=NAMES, title="Кубок")


def test_finished_and_abandoned_games_render(rules):
    over = play(2, {"size": "small"}, seed=3, rounds=200)
    assert over.over
    image = decode(board_png(rules.view(over, None), names=("Анна", "王")))
    assert image.width >= 900
    left = rules.remove_player(play(3, {}, 2, 3), 2, "surrender").state
    view = rules.view(left, None)
    assert owners_at_centres(view, decode(board_png(view, names=("🔥🔥", "", "Bob")))) == []


def test_bad_arguments_are_refused(rules, midgame):
    with pytest.raises(ValueError, match="names"):
        board_png(rules.view(midgame, None), names=NAMES[:2])
    with pytest.raises(ValueError, match="private"):
        board_png(rules.view(midgame, None), names=NAMES, orders=rules.ai_orders(midgame, 0, 1))
    with pytest.raises(TypeError):
        board_png(object(), names=NAMES)
