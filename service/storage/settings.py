"""What users and servers chose: each user's reminder settings (``user_settings``), whether his DMs
refused one (``dm_refusals``), and each server's language (``server_language``)."""

from __future__ import annotations

from collections.abc import Sequence

from service.reminders import DEFAULT_TIME_ZONE, ReminderSettings
from service.storage.store import Connection, Store


async def reminder_settings(conn: Connection, user_ids: Sequence[int]) -> dict[int, ReminderSettings]:
    """The stored reminder settings of these users (those who never chose any are left out)."""
    if not user_ids:
        return {}
    marks = ",".join("?" * len(user_ids))
    async with conn.execute(f"SELECT * FROM user_settings WHERE user_id IN ({marks})", tuple(user_ids)) as cursor:
        return {
            r["user_id"]: ReminderSettings(
                lead_seconds=r["lead_seconds"],
                dm_reminders=bool(r["dm_reminders"]),
                quiet_start=r["quiet_start"],
                quiet_end=r["quiet_end"],
                time_zone=r["time_zone"] or DEFAULT_TIME_ZONE,
            )
            for r in await cursor.fetchall()
        }


async def save_reminder_settings(db: Store, user_id: int, settings: ReminderSettings, now: float) -> None:
    await db.write(
        """INSERT INTO user_settings (user_id, lead_seconds, dm_reminders, quiet_start, quiet_end, time_zone,
                                      updated_at) VALUES (?,?,?,?,?,?,?)
           ON CONFLICT (user_id) DO UPDATE SET lead_seconds = excluded.lead_seconds,
               dm_reminders = excluded.dm_reminders, quiet_start = excluded.quiet_start,
               quiet_end = excluded.quiet_end, time_zone = excluded.time_zone,
               updated_at = excluded.updated_at""",
        (
            user_id,
            settings.lead_seconds,
            int(settings.dm_reminders),
            settings.quiet_start,
            settings.quiet_end,
            settings.time_zone,
            now,
        ),
    )


async def note_dm_refused(db: Store, user_id: int, now: float) -> bool:
    """Record that the user's DMs refused a reminder; True if this is news (he was not told yet)."""
    return bool(
        await db.write("INSERT INTO dm_refusals (user_id, told_at) VALUES (?,?) ON CONFLICT DO NOTHING", (user_id, now))
    )


async def clear_dm_refused(db: Store, user_id: int) -> None:
    await db.write("DELETE FROM dm_refusals WHERE user_id = ?", (user_id,))


async def server_languages(db: Store) -> dict[int, str]:
    async with db.reading() as conn:
        async with conn.execute("SELECT guild_id, language FROM server_language") as cursor:
            return {guild: language for guild, language in await cursor.fetchall()}


async def server_language(db: Store, guild_id: int) -> str | None:
    async with db.reading() as conn:
        async with conn.execute("SELECT language FROM server_language WHERE guild_id = ?", (guild_id,)) as cursor:
            row = await cursor.fetchone()
    return row[0] if row else None


async def save_server_language(db: Store, guild_id: int, language: str, set_by: int, now: float) -> None:
    await db.write(
        "INSERT INTO server_language (guild_id, language, set_by, set_at) VALUES (?, ?, ?, ?) "
        "ON CONFLICT (guild_id) DO UPDATE SET language = excluded.language, set_by = excluded.set_by, "
        "set_at = excluded.set_at",
        (guild_id, language, set_by, now),
    )
