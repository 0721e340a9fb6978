"""The fake Discord itself, exercised by the real discord.py through a small bot written here."""

from __future__ import annotations

import asyncio
import io
from dataclasses import dataclass

import aiohttp
import discord
import pytest
from discord import app_commands
from PIL import Image

from tests.fakediscord import FakeDiscord, FakeGuild, FakeUser, SimulationError, limits
from tests.fakediscord.echo import EchoBot, make_echo_bot
from tests.fakediscord.models import MANAGE_GUILD
from tests.fakediscord.schema import ENV_VAR

FRUITS = [
    "apple",
    "apricot",
    "banana",
    "cherry",
    "grape",
    "kiwi",
    "lemon",
    "mango",
    "melon",
    "orange",
    "peach",
    "pear",
    "plum",
]


def png(size: int = 8) -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (size, size), "red").save(buffer, "PNG")
    return buffer.getvalue()


class PingView(discord.ui.View):
    """Persistent: fixed custom ids, no timeout, registered in setup_hook."""

    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.button(label="Ping", custom_id="echo:ping")
    async def ping(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        await interaction.response.edit_message(content=f"pong by {interaction.user.name}")

    @discord.ui.select(custom_id="echo:pick", options=[discord.SelectOption(label=f, value=f) for f in FRUITS[:3]])
    async def choose(self, interaction: discord.Interaction, select: discord.ui.Select) -> None:
        await interaction.response.send_message(f"chose {select.values[0]}", ephemeral=True)


class ConfirmView(discord.ui.View):
    """Not persistent: discord.py finds it by the id of the message it was sent with."""

    @discord.ui.button(label="Confirm")
    async def confirm(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        await interaction.response.edit_message(content="confirmed", view=None)


class AnswerModal(discord.ui.Modal, title="A question"):
    answer = discord.ui.TextInput(label="Your answer", custom_id="answer", max_length=50)

    def __init__(self) -> None:
        super().__init__(custom_id="echo:form")

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"you said {self.answer.value}", ephemeral=True)


class KitchenBot(EchoBot):
    """The echo bot plus one subcommand per behaviour the fake must handle."""

    def __init__(self) -> None:
        super().__init__()
        self.errors: list[Exception] = []
        self.sent: list[int] = []
        self.tree.error(self._record_error)
        group = self.echo

        @group.command(name="picture", description="Deferred, then a PNG followup and an ephemeral note")
        async def picture(interaction: discord.Interaction) -> None:
            await interaction.response.defer(thinking=True)
            await interaction.followup.send("here", file=discord.File(io.BytesIO(png()), "dot.png"))
            await interaction.followup.send("only for you", ephemeral=True)

        @group.command(name="pick", description="Pick a fruit")
        async def pick(interaction: discord.Interaction, fruit: str) -> None:
            await interaction.response.send_message(f"picked {fruit}")

        @pick.autocomplete("fruit")
        async def pick_fruit(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
            return [app_commands.Choice(name=f, value=f) for f in FRUITS if f.startswith(current)]

        @group.command(name="flood", description="Offers too many autocomplete choices")
        async def flood(interaction: discord.Interaction, item: str) -> None:
            await interaction.response.send_message(item)

        @flood.autocomplete("item")
        async def flood_items(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
            return [app_commands.Choice(name=f"item {i}", value=str(i)) for i in range(26)]

        @group.command(name="buttons", description="A message with a button and a select")
        async def buttons(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("press", view=PingView())

        @group.command(name="confirm", description="A message with a one-off button")
        async def confirm(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("sure?", view=ConfirmView())

        @group.command(name="form", description="Opens a modal")
        async def form(interaction: discord.Interaction) -> None:
            await interaction.response.send_modal(AnswerModal())

        @group.command(name="slow", description="Answers after the 3 s deadline")
        async def slow(interaction: discord.Interaction) -> None:
            await asyncio.sleep(3.2)
            await interaction.response.send_message("too late")

        @group.command(name="post", description="Acknowledges, then posts in the channel")
        async def post(interaction: discord.Interaction, text: str, nonce: str | None = None) -> None:
            await interaction.response.send_message("posting", ephemeral=True)
            for _ in range(2 if nonce else 1):
                message = await interaction.channel.send(text, nonce=nonce)
                self.sent.append(message.id)

        @group.command(name="threads", description="A public thread, a private one, a DM")
        async def threads(interaction: discord.Interaction, member: discord.Member) -> None:
            await interaction.response.defer(ephemeral=True)
            root = await interaction.channel.send("root")
            public = await root.create_thread(name="public")
            await public.send("in public thread")
            private = await interaction.channel.create_thread(name="secret", type=discord.ChannelType.private_thread)
            await private.add_user(member)
            await private.send(f"secret for {member.name}")
            await member.send("psst")
            await interaction.edit_original_response(content="done")

        @group.command(name="big", description="Uploads a file over the 10 MiB limit")
        async def big(interaction: discord.Interaction) -> None:
            blob = discord.File(io.BytesIO(b"\0" * (10 * 1024 * 1024 + 1)), "big.bin")
            await interaction.response.send_message(file=blob)

        @self.tree.command(name="manage", description="Only for server managers")
        @app_commands.default_permissions(manage_guild=True)
        @app_commands.guild_only()
        async def manage(interaction: discord.Interaction, rounds: app_commands.Range[int, 1, 10] = 3) -> None:
            await interaction.response.send_message(f"{rounds} rounds", ephemeral=True)

    async def _record_error(self, interaction: discord.Interaction, error: Exception) -> None:
        self.errors.append(getattr(error, "original", error))

    async def setup_hook(self) -> None:
        self.add_view(PingView())
        await super().setup_hook()


@dataclass
class Scene:
    fake: FakeDiscord
    bot: KitchenBot
    guild: FakeGuild
    alice: FakeUser
    bob: FakeUser
    mod: FakeUser

    @property
    def general(self):
        return self.guild.channels[0]


@pytest.fixture
async def scene():
    async with FakeDiscord() as fake:
        guild = fake.add_guild("Test Server")
        alice, bob, mod = fake.add_user("alice"), fake.add_user("bob"), fake.add_user("mod")
        fake.add_member(guild, alice)
        fake.add_member(guild, bob)
        fake.add_member(guild, mod, permissions=discord.Permissions(manage_guild=True))
        bot = KitchenBot()
        await fake.start_bot(bot)
        yield Scene(fake, bot, guild, alice, bob, mod)


async def raw(fake: FakeDiscord, method: str, path: str, **kwargs) -> tuple[int, dict]:
    headers = {"Authorization": f"Bot {fake.token}"}
    async with aiohttp.ClientSession() as session:
        async with session.request(method, fake.api_base + path, headers=headers, **kwargs) as response:
            assert response.headers["Content-Type"] == "application/json"
            return response.status, await response.json()


async def eventually(condition, timeout: float = 5.0) -> None:
    """For state on the bot's side, which the fake cannot signal."""
    deadline = asyncio.get_running_loop().time() + timeout
    while not condition():
        assert asyncio.get_running_loop().time() < deadline, "condition not met in time"
        await asyncio.sleep(0.01)


# -- the happy paths --------------------------------------------------------------------------------


async def test_slash_command_gets_an_ephemeral_reply(scene):
    reply = await scene.fake.slash(scene.alice, scene.general, "echo say", text="hello")
    assert (reply.response_type, reply.content, reply.ephemeral) == (4, "hello", True)
    assert reply.message.visible_only_to == scene.alice
    assert reply.message in scene.fake.visible_to(scene.alice)
    assert reply.message not in scene.fake.visible_to(scene.bob)
    assert scene.fake.channel_messages(scene.general) == []
    assert scene.fake.gateway_log == ["IDENTIFY", "READY"]


async def test_deferred_reply_is_filled_by_a_png_followup(scene):
    reply = await scene.fake.slash(scene.alice, scene.general, "echo picture")
    assert reply.response_type == 5
    await reply.settled()
    await reply.wait_followups(1)
    assert reply.content == "here" and not reply.ephemeral
    [picture] = reply.attachments
    assert picture.is_png and picture.image().size == (8, 8)
    async with aiohttp.ClientSession() as session, session.get(picture.url) as response:
        assert await response.read() == picture.data
    [note] = reply.followups
    assert note.ephemeral and note.content == "only for you"
    assert note not in scene.fake.visible_to(scene.bob)
    assert [m.id for m in scene.fake.channel_messages(scene.general)] == [reply.message.id]


async def test_autocomplete_offers_the_bots_choices(scene):
    choices = await scene.fake.autocomplete(scene.alice, scene.general, "echo pick", focused="fruit", value="ap")
    assert choices == [{"name": "apple", "value": "apple"}, {"name": "apricot", "value": "apricot"}]


async def test_button_press_and_select_reach_the_persistent_view(scene):
    prompt = await scene.fake.slash(scene.alice, scene.general, "echo buttons")
    message = prompt.message
    assert message.component("echo:ping")["label"] == "Ping"
    pressed = await scene.fake.click(scene.bob, message, "echo:ping")
    assert pressed.response_type == 7 and scene.fake.message(message.id).content == "pong by bob"
    chosen = await scene.fake.select(scene.bob, message, "echo:pick", ["banana"])
    assert chosen.content == "chose banana" and chosen.ephemeral
    with pytest.raises(SimulationError, match="no button"):
        await scene.fake.click(scene.bob, message, "echo:nope")
    with pytest.raises(SimulationError, match="offers"):
        await scene.fake.select(scene.bob, message, "echo:pick", ["durian"])


async def test_a_one_off_view_is_found_by_its_message_id(scene):
    prompt = await scene.fake.slash(scene.alice, scene.general, "echo confirm")
    [button] = [c for c in prompt.message.iter_components() if c["type"] == 2]
    confirmed = await scene.fake.click(scene.alice, prompt.message, button["custom_id"])
    assert confirmed.response_type == 7
    assert (prompt.message.content, prompt.message.components) == ("confirmed", [])


async def test_modal_submit_reaches_the_modal(scene):
    opened = await scene.fake.slash(scene.alice, scene.general, "echo form")
    assert opened.response_type == 9 and opened.modal["title"] == "A question"
    with pytest.raises(SimulationError, match="shown to alice"):
        await scene.fake.submit_modal(scene.bob, opened, "echo:form", {"answer": "mine"})
    answered = await scene.fake.submit_modal(scene.alice, opened, "echo:form", {"answer": "forty-two"})
    assert answered.content == "you said forty-two"


async def test_threads_private_threads_and_dms_are_visible_to_the_right_people(scene):
    done = await scene.fake.slash(scene.alice, scene.general, "echo threads", member=scene.alice)
    await done.settled()
    assert done.content == "done"
    public, private = scene.fake.threads(scene.general)
    assert [m.content for m in scene.fake.channel_messages(public)] == ["in public thread"]
    assert [m.content for m in scene.fake.dm_messages(scene.alice)] == ["psst"]
    seen_by_alice = {m.content for m in scene.fake.visible_to(scene.alice)}
    seen_by_bob = {m.content for m in scene.fake.visible_to(scene.bob)}
    assert {"secret for alice", "psst", "done", "root", "in public thread"} <= seen_by_alice
    assert seen_by_bob == {"root", "in public thread"}
    assert private.members == {scene.fake.bot_user.id, scene.alice.id}


async def test_new_channels_and_guilds_reach_the_bot(scene):
    channel = scene.fake.add_text_channel(scene.guild, "games")
    second = scene.fake.add_guild("Second Server")
    await eventually(lambda: scene.bot.get_channel(channel.id) is not None and scene.bot.get_guild(second.id))
    reply = await scene.fake.slash(second.owner, second.channels[0], "echo say", text="elsewhere")
    assert reply.content == "elsewhere"


async def test_slash_commands_work_in_dms(scene):
    reply = await scene.fake.slash(scene.alice, scene.fake.dm_channel(scene.alice), "echo say", text="in private")
    assert reply.content == "in private"
    assert reply.message in scene.fake.visible_to(scene.alice)
    assert reply.message not in scene.fake.visible_to(scene.bob)
    with pytest.raises(SimulationError, match="not offered"):
        await scene.fake.slash(scene.alice, scene.fake.dm_channel(scene.alice), "manage")


async def test_users_can_only_send_what_the_synced_commands_allow(scene):
    fake = scene.fake
    with pytest.raises(SimulationError, match="never synced"):
        await fake.slash(scene.alice, scene.general, "game create")
    with pytest.raises(SimulationError, match="no option 'colour'"):
        await fake.slash(scene.alice, scene.general, "echo say", text="x", colour="red")
    with pytest.raises(SimulationError, match="requires"):
        await fake.slash(scene.alice, scene.general, "echo say")
    with pytest.raises(SimulationError, match="cannot see /manage"):
        await fake.slash(scene.bob, scene.general, "manage")
    with pytest.raises(SimulationError, match="between 1 and 10"):
        await fake.slash(scene.mod, scene.general, "manage", rounds=11)
    reply = await fake.slash(scene.mod, scene.general, "manage", rounds=5)
    assert reply.content == "5 rounds"
    manage = next(c for c in fake.commands() if c["name"] == "manage")
    assert manage["default_member_permissions"] == str(MANAGE_GUILD)


# -- limits and Discord's refusals ------------------------------------------------------------------


async def test_too_many_autocomplete_choices_are_refused(scene):
    choices = await scene.fake.autocomplete(scene.alice, scene.general, "echo flood", focused="item", value="")
    assert choices == []
    [violation] = scene.fake.take_violations()
    assert violation.code == 50035 and "choices" in violation.detail


async def test_a_2001_character_reply_is_refused(scene):
    reply = await scene.fake.slash(scene.alice, scene.general, "echo say", text="x" * 2001)
    assert reply.response_type is None and reply.rejected
    [violation] = scene.fake.take_violations()
    assert (violation.status, violation.code) == (400, 50035) and "content" in violation.detail
    await eventually(lambda: scene.bot.errors)
    assert isinstance(scene.bot.errors[0], discord.HTTPException) and scene.bot.errors[0].code == 50035


async def test_a_file_over_the_size_limit_is_refused(scene):
    reply = await scene.fake.slash(scene.alice, scene.general, "echo big")
    assert reply.response_type is None
    [violation] = scene.fake.take_violations()
    assert (violation.status, violation.code) == (413, 40005)


async def test_answering_after_three_seconds_is_unknown_interaction(scene):
    reply = await scene.fake.slash(scene.alice, scene.general, "echo slow")
    assert reply.response_type is None and reply.interaction.expired
    await reply.wait_for(lambda h: h.rejected)
    kinds = {v.kind: v for v in scene.fake.take_violations()}
    assert set(kinds) == {"no_response", "late_response"}
    assert (kinds["late_response"].status, kinds["late_response"].code) == (404, 10062)
    await eventually(lambda: scene.bot.errors)
    assert isinstance(scene.bot.errors[0], discord.NotFound) and scene.bot.errors[0].code == 10062


async def test_answering_twice_is_already_acknowledged(scene):
    reply = await scene.fake.slash(scene.alice, scene.general, "echo say", text="once")
    interaction = reply.interaction
    status, body = await raw(
        scene.fake,
        "POST",
        f"/interactions/{interaction.id}/{interaction.token}/callback",
        json={"type": 4, "data": {"content": "twice"}},
    )
    assert (status, body["code"]) == (400, 40060)
    assert [v.kind for v in scene.fake.take_violations()] == ["double_response"]
    assert reply.content == "once"


async def test_schema_catches_a_body_of_the_wrong_type(scene):
    if scene.fake.schema is None:
        pytest.skip("openapi.json is absent: body validation is off in this run")
    status, body = await raw(scene.fake, "POST", f"/channels/{scene.general.id}/messages", json={"content": 5})
    assert (status, body["code"]) == (400, 50035) and "content" in body["errors"]
    status, body = await raw(scene.fake, "POST", f"/channels/{scene.general.id}/messages", json={"content": "x" * 2001})
    assert (status, body["code"]) == (400, 50035) and "content" in body["errors"]
    status, body = await raw(
        scene.fake,
        "PUT",
        f"/applications/{scene.fake.application_id}/commands",
        json=[{"name": "Bad Name", "description": "x"}],
    )
    assert status == 400 and "name" in body["errors"]["0"]
    assert [v.kind for v in scene.fake.take_violations()] == ["schema", "limit", "limit"]
    assert scene.fake.channel_messages(scene.general) == []


async def test_unknown_endpoints_and_bad_tokens_are_recorded(scene):
    status, body = await raw(scene.fake, "GET", "/guilds/1/audit-logs")
    assert (status, body["message"]) == (404, "404: Not Found")
    assert "does not implement" in scene.fake.unknown_requests[0].detail
    async with aiohttp.ClientSession() as session:
        async with session.get(scene.fake.api_base + "/users/@me", headers={"Authorization": "Bot nope"}) as response:
            assert response.status == 401
    assert [v.kind for v in scene.fake.take_violations()] == ["unknown_endpoint", "unauthorized"]


def test_hand_enforced_limits_catch_what_the_schema_lets_through():
    assert limits.message({"content": "x" * 2001})
    assert not limits.message({"content": "x" * 2000})
    two_long = [{"description": "x" * 4000}, {"description": "y" * 2001}]
    assert "Embed size exceeds" in str(limits.embeds(two_long))
    button = {"type": 2, "style": 1, "custom_id": "same", "label": "b"}
    assert "duplicated" in str(limits.components([{"type": 1, "components": [button, button]}]))
    assert limits.components(
        [{"type": 1, "components": [{"type": 2, "style": 1, "custom_id": str(i)}]} for i in range(6)]
    )
    select = {"type": 3, "custom_id": "s", "options": [{"label": str(i), "value": str(i)} for i in range(26)]}
    assert limits.components([{"type": 1, "components": [select]}])
    assert limits.modal({"title": "x" * 46, "custom_id": "m", "components": []})
    assert limits.autocomplete({"choices": [{"name": "", "value": "v"}]})
    optional_first = [
        {"type": 3, "name": "a", "description": "a"},
        {"type": 3, "name": "b", "description": "b", "required": True},
    ]
    assert "before non-required" in str(limits.commands([{"name": "c", "description": "c", "options": optional_first}]))
    nested = {"type": 2, "name": "g", "description": "g", "options": [{"type": 2, "name": "h", "description": "h"}]}
    assert limits.commands([{"name": "c", "description": "c", "options": [nested]}])
    assert limits.commands([{"name": f"c{i}", "description": "c"} for i in range(101)])
    named = {"name": "game", "description": "Games", "name_localizations": {"uk": "гра", "zh-CN": "游戏"}}
    assert not limits.commands([named])
    assert "Invalid name localization" in str(limits.commands([named | {"name_localizations": {"uk": "Гра"}}]))
    assert "Invalid Locale" in str(limits.commands([named | {"name_localizations": {"ua": "гра"}}]))
    assert limits.commands([named | {"description_localizations": {"uk": "x" * 101}}])


async def test_without_the_schema_the_fake_still_runs_and_says_so(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv(ENV_VAR, str(tmp_path / "openapi.json"))
    with pytest.warns(UserWarning, match="NOT validated"):
        fake = FakeDiscord()
    assert "NOT validated" in capsys.readouterr().err
    async with fake:
        guild = fake.add_guild()
        await fake.start_bot(make_echo_bot())
        reply = await fake.slash(guild.owner, guild.channels[0], "echo say", text="unchecked")
        assert reply.content == "unchecked"


async def test_unchecked_violations_fail_the_test_on_exit():
    with pytest.raises(AssertionError, match="unknown_endpoint"):
        async with FakeDiscord() as fake:
            await raw(fake, "GET", "/nothing/here")


# -- faults -----------------------------------------------------------------------------------------


async def test_a_rate_limited_post_is_retried_and_arrives_once(scene):
    scene.fake.inject_rate_limit(f"/channels/{scene.general.id}/messages", retry_after=0.2, method="POST")
    await scene.fake.slash(scene.alice, scene.general, "echo post", text="announcement")
    message = await scene.fake.wait_for_message(lambda m: m.content == "announcement")
    await eventually(lambda: scene.bot.sent)
    assert scene.fake.faults_fired == [f"429 POST /channels/{scene.general.id}/messages"]
    assert [m.id for m in scene.fake.channel_messages(scene.general)] == [message.id] == scene.bot.sent


async def test_a_server_error_is_retried_and_arrives_once(scene):
    scene.fake.inject_server_error(f"/channels/{scene.general.id}/messages", status=502)
    await scene.fake.slash(scene.alice, scene.general, "echo post", text="after 502")
    await scene.fake.wait_for_message(lambda m: m.content == "after 502")
    assert len(scene.fake.faults_fired) == 1
    assert [m.content for m in scene.fake.channel_messages(scene.general)] == ["after 502"]


async def test_enforced_nonce_does_not_duplicate(scene):
    await scene.fake.slash(scene.alice, scene.general, "echo post", text="once only", nonce="turn-7")
    await eventually(lambda: len(scene.bot.sent) == 2)
    assert scene.bot.sent[0] == scene.bot.sent[1]
    assert len(scene.fake.channel_messages(scene.general)) == 1


async def test_a_nonce_lasts_only_its_window_and_is_not_read_back(scene):
    await scene.fake.slash(scene.alice, scene.general, "echo post", text="twice", nonce="turn-8")
    await eventually(lambda: len(scene.bot.sent) == 2)
    scene.fake.forget_nonces()
    await scene.fake.slash(scene.alice, scene.general, "echo post", text="twice", nonce="turn-8")
    await eventually(lambda: len(scene.bot.sent) == 4)
    assert [m.content for m in scene.fake.channel_messages(scene.general)] == ["twice", "twice"]
    channel = scene.general.id
    status, fetched = await raw(scene.fake, "GET", f"/channels/{channel}/messages")
    assert status == 200 and all("nonce" not in m for m in fetched)
    first = min(int(m["id"]) for m in fetched)
    status, after = await raw(scene.fake, "GET", f"/channels/{channel}/messages?after={first - 1}&limit=1")
    assert [int(m["id"]) for m in after] == [first]  # the oldest message after the given one


async def test_gateway_resume_replays_missed_events(scene):
    fake = scene.fake
    await fake.disconnect_gateway(resume=True)
    assert fake.gateway_log[-2:] == ["RESUME", "RESUMED replayed=0"]
    start = len(fake.gateway_log)
    await fake.disconnect_gateway(resume=True, downtime=0.3, wait=False)
    reply = await fake.slash(scene.alice, scene.general, "echo say", text="during the gap")
    assert reply.content == "during the gap"
    assert "RESUMED replayed=1" in fake.gateway_log[start:]


async def test_gateway_reconnect_and_invalid_session(scene):
    fake = scene.fake
    await fake.disconnect_gateway(resume=True, via="reconnect")
    await fake.disconnect_gateway(resume=True, via="invalidate")
    await fake.disconnect_gateway(resume=False)
    assert fake.gateway_log[-4:] == ["RESUME", "INVALID_SESSION", "IDENTIFY", "READY"]
    reply = await fake.slash(scene.alice, scene.general, "echo say", text="still here")
    assert reply.content == "still here"
