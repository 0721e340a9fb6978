"""/settings through the bot: shown and changed privately, in a server or a DM, bad values refused with
a reason; a player who turned reminder DMs off gets none while the other gets his at his own time."""

from __future__ import annotations

from tests.e2e.test_standing import CONQUEST, DAY

HOUR = 3600


async def test_settings_are_shown_set_and_bad_values_refused_also_in_a_dm(table):
    fake = table.fake
    dm = fake.dm_channel(table.alice)
    shown = await fake.slash(table.alice, dm, "settings")
    assert shown.ephemeral and shown.content.startswith("**Your reminder settings**")
    assert "Reminder: each game's own time" in shown.content and "Reminder DMs: on" in shown.content
    assert "Quiet hours: none" in shown.content and "Time zone: UTC" in shown.content

    offered = await fake.autocomplete(table.alice, dm, "settings", focused="time_zone", value="kyi")
    assert [c["value"] for c in offered] == ["Europe/Kyiv"]
    saved = await fake.slash(
        table.alice, dm, "settings", lead_time="1h30m", quiet_start=22, quiet_end=7, time_zone="europe/kyiv"
    )
    assert saved.content.startswith("✅ Saved.")
    assert "Reminder: 1 hour 30 minutes before each deadline" in saved.content
    assert "Quiet hours: 22:00–07:00" in saved.content and "Time zone: Europe/Kyiv (it is " in saved.content

    refusals = {
        "time_zone": ("Europe/Atlantis", "'Europe/Atlantis' is not a time zone I know"),
        "quiet_end": (24, "quiet_end is an hour of the day, from 0 to 23, not 24"),
        "lead_time": ("10s", "the reminder lead time looks like 30m, 2h"),
    }
    for option, (value, reason) in refusals.items():
        others = {"dm_reminders": False} | ({} if option == "lead_time" else {"lead_time": "2h"})
        refused = await fake.slash(table.alice, dm, "settings", **others, **{option: value})
        assert refused.ephemeral and refused.content.startswith("⚠️") and reason in refused.content, refused.content
    same = await fake.slash(table.alice, table.channel, "settings")  # in the server: the same settings
    assert same.ephemeral and same.content.replace("**Your reminder settings**", "") == saved.content.replace(
        "✅ Saved. **Your reminder settings** now", ""
    )

    off = await fake.slash(table.alice, dm, "settings", quiet_hours_off=True, dm_reminders=False, lead_time="game")
    assert "Quiet hours: none" in off.content and "Reminder DMs: **off**" in off.content
    assert "Reminder: each game's own time" in off.content

    table.bob.locale = "uk"  # replies in his own language, refusals too
    his = await fake.slash(table.bob, fake.dm_channel(table.bob), "settings", quiet_start=22, quiet_end=7)
    assert his.content.startswith("✅ Збережено.") and "🌙 Тихі години: 22:00–07:00" in his.content
    bad = await fake.slash(table.bob, fake.dm_channel(table.bob), "settings", quiet_start=25)
    assert "quiet_start — це година доби, від 0 до 23, а не 25" in bad.content


async def test_a_player_with_reminder_dms_off_gets_none_and_the_other_gets_his_at_his_own_time(table):
    fake = table.fake
    await fake.slash(table.alice, table.channel, "settings", dm_reminders=False)
    await fake.slash(table.bob, fake.dm_channel(table.bob), "settings", lead_time="3h")
    await table.start_game(**CONQUEST)  # a day per round; the game's own reminder is an hour before

    def reminders(user) -> list[str]:
        return [m.content for m in fake.dm_messages(user) if m.content.startswith("⏰")]

    await table.tick(DAY - 3 * HOUR - 60)
    assert reminders(table.bob) == []
    await table.tick(60)
    [bob] = reminders(table.bob)
    assert "round 1: the deadline is <t:" in bob and "You have given no orders yet." in bob
    await table.tick(3 * HOUR - 60)  # past the game's own reminder time too
    assert reminders(table.alice) == [] and len(reminders(table.bob)) == 1


async def test_a_player_whose_dms_refuse_his_reminder_is_told_once_in_the_thread(table):
    """A reminder Discord refuses (closed DMs, 50007) is not dropped silently: the player hears of it
    once, in the game's thread, with the deadline; not how many orders he gave (the thread is public)."""
    fake = table.fake
    table.bob.accepts_dms = False
    await fake.slash(table.bob, table.channel, "settings", lead_time="3h")
    thread = await table.start_game(**CONQUEST)
    await fake.slash(table.alice, thread, "orders pass")

    def notices() -> list:
        return [m for m in fake.channel_messages(thread) if "refused my reminder" in m.content]

    await table.tick(DAY - 3 * HOUR)
    told = await table.post(lambda m: "refused my reminder" in m.content)
    assert told.pinged == {table.bob.id} and "(I say this once)" in told.content
    assert "round 1: the deadline is <t:" in told.content and "orders" not in told.content.split("\n")[1]
    assert "allow direct messages" in told.content and fake.dm_messages(table.bob) == []

    await table.tick(3 * HOUR)  # round 1 resolves at its deadline; round 2's reminder is refused too
    await fake.slash(table.alice, thread, "orders pass")
    await table.tick(DAY - 3 * HOUR)
    await table.bot.service.outbox.idle()
    assert await table.bot.service.outbox.pending_count() == 0 and len(notices()) == 1
    refused = table.fake.take_violations()  # each reminder was refused, as Discord does: that was the point
    assert len(refused) == 2 and all("50007" in str(v) for v in refused)
