"""The engine stays pure: no Discord, database, images, event loop, wall clock or global random;
and the game master never imports Discord (layers import only downward)."""

from __future__ import annotations

from tests.imports import forbidden_imports


def test_engine_imports_only_pure_modules():
    assert (
        forbidden_imports(
            "engine",
            {
                "discord",
                "aiosqlite",
                "sqlite3",
                "PIL",
                "asyncio",
                "time",
                "datetime",
                "random",
                "apscheduler",
                "service",
                "render",
                "cogs",
            },
        )
        == []
    )


def test_service_has_no_discord():
    assert forbidden_imports("service", {"discord", "cogs"}) == []
