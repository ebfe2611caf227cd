"""`saboteur-bot` as shipped: bad settings stop it with one line; its webhook checks the secret.

Its webhook also refuses junk with 400, and SIGTERM stops it cleanly. Each test runs the
console script in a subprocess, with an environment made from scratch.
"""

from __future__ import annotations

import asyncio
import json
import os
import socket
import sys
import uuid
from collections.abc import AsyncIterator, Callable, Mapping
from contextlib import asynccontextmanager
from importlib.metadata import version
from pathlib import Path

import aiohttp
import pytest
from redis.asyncio import Redis

from emulator import EmulatorState
from emulator.server import BotApiEmulator

from .harness import free_port, shown

# Each test starts the bot's script (or the sandbox's) as a process: 25 s alone, twice that
# beside the other workers, so out of the fast lane (the whole suite runs them).
pytestmark = pytest.mark.slow

SCRIPT = Path(sys.executable).with_name("saboteur-bot")
TOKEN = "7000000001:AAHemulatorTokenForLocalTestsOnly12"
OTHER_TOKEN = "7000000001:AAHnotTheTokenTheServerKnowsAbout99"
SECRET = "the-webhook-secret_42"


def environment(**settings: str) -> dict[str, str]:
    """Only what a container would set: a PATH and these settings."""
    return {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LOG_LEVEL": "INFO", **settings}


async def run_script(
    env: Mapping[str, str], *args: str, timeout: float = 30
) -> tuple[int, str, str]:
    """Run `saboteur-bot ARGS` to its end; (exit status, stdout, stderr)."""
    assert SCRIPT.exists(), f"{SCRIPT} is missing: install the project (scripts/setup.sh)"
    proc = await asyncio.create_subprocess_exec(
        str(SCRIPT),
        *args,
        env=dict(env),
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    try:
        out, err = await asyncio.wait_for(proc.communicate(), timeout)
    except TimeoutError:
        proc.kill()
        await proc.wait()
        raise
    assert proc.returncode is not None
    return proc.returncode, out.decode(), err.decode()


def assert_refused(result: tuple[int, str, str], variable: str, *hidden: str) -> None:
    """Exit status 2 and exactly one stderr line naming the variable (and no secret)."""
    status, out, err = result
    lines = err.splitlines()
    assert (status, len(lines)) == (2, 1), (status, err)
    assert variable in lines[0] and lines[0].startswith("saboteur-bot: "), lines[0]
    assert out == ""
    for secret in hidden:
        assert secret not in err


GOOD = "123456:ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghi"


@pytest.mark.parametrize(
    ("settings", "variable"),
    [
        ({}, "TELEGRAM_BOT_TOKEN"),
        ({"TELEGRAM_BOT_TOKEN": "  "}, "TELEGRAM_BOT_TOKEN"),
        ({"TELEGRAM_BOT_TOKEN": "123456:short"}, "TELEGRAM_BOT_TOKEN"),
        ({"TELEGRAM_BOT_TOKEN": "not a token at all"}, "TELEGRAM_BOT_TOKEN"),
        ({"TELEGRAM_BOT_TOKEN": GOOD, "REDIS_URL": "http://cache:6379"}, "REDIS_URL"),
        ({"TELEGRAM_BOT_TOKEN": GOOD, "REDIS_URL": "redis://cache:port/0"}, "REDIS_URL"),
        ({"TELEGRAM_BOT_TOKEN": GOOD, "REDIS_URL": "redis://:pw-9@cache:6379/x"}, "REDIS_URL"),
        ({"TELEGRAM_BOT_TOKEN": GOOD, "REDIS_TIMEOUT_SECONDS": "0"}, "REDIS_TIMEOUT_SECONDS"),
        (
            {"TELEGRAM_BOT_TOKEN": GOOD, "WEBHOOK_URL": "https://bot.example.com/hook"},
            "WEBHOOK_SECRET",
        ),
        ({"TELEGRAM_BOT_TOKEN": GOOD, "METRICS_PORT": "metrics"}, "METRICS_PORT"),
        ({"TELEGRAM_BOT_TOKEN": GOOD, "REDIS_URL": "redis+sentinel://s1:26379"}, "REDIS_URL"),
    ],
)
async def test_a_bad_setting_stops_the_bot_with_one_line(
    settings: dict[str, str], variable: str
) -> None:
    """Missing or malformed settings: status 2, one line on stderr naming the variable."""
    result = await run_script(environment(**settings))
    assert_refused(result, variable, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghi", "pw-9")


@pytest.mark.parametrize("command", [(), ("sandbox", "--port", "0")])
@pytest.mark.parametrize("level", ["loud", "5", "info please"])
async def test_a_bad_log_level_stops_the_bot_and_the_sandbox_with_one_line(
    command: tuple[str, ...], level: str
) -> None:
    """LOG_LEVEL that is not a level name: status 2 and one line naming it, before anything."""
    status, out, err = await run_script(
        environment(TELEGRAM_BOT_TOKEN=GOOD, LOG_LEVEL=level), *command
    )
    lines = err.splitlines()
    assert (status, len(lines), out) == (2, 1, ""), (status, err, out)
    assert "LOG_LEVEL" in lines[0] and repr(level) in lines[0], lines[0]
    assert lines[0].startswith("saboteur-bot")


@pytest.mark.parametrize("command", [(), ("sandbox", "--port", "0")])
async def test_a_missing_hangul_font_stops_the_bot_and_the_sandbox_naming_the_package(
    command: tuple[str, ...], tmp_path: Path
) -> None:
    """No NanumGothic in FONT_DIR: one line naming fonts-nanum, never an OSError mid-game."""
    env = environment(TELEGRAM_BOT_TOKEN=GOOD, FONT_DIR=str(tmp_path))
    status, out, err = await run_script(env, *command)
    lines = err.splitlines()
    assert (status, len(lines)) == (1, 1), (status, err)
    assert "fonts-nanum" in lines[0] and str(tmp_path) in lines[0], lines[0]
    assert "Traceback" not in err and "Sandbox ready" not in out


async def test_version_help_and_usage_errors() -> None:
    """--version and --help answer without a token; an unknown argument is a usage error."""
    bare = environment()
    status, out, err = await run_script(bare, "--version")
    assert (status, err) == (0, "") and out.strip() == f"saboteur-bot {version('saboteur-bot')}"
    status, out, err = await run_script(bare, "--help")
    assert status == 0 and err == ""
    assert "run" in out and "sandbox" in out and "TELEGRAM_BOT_TOKEN" in out
    status, out, err = await run_script(bare, "sandbox", "--help")
    assert status == 0 and "--port" in out
    for args in (("--bogus",), ("play",), ("run", "--fast"), ("sandbox", "--port", "x")):
        status, out, err = await run_script(bare, *args)
        assert status == 2 and err.startswith("usage: saboteur-bot"), (args, err)
        assert "TELEGRAM_BOT_TOKEN" not in err, (args, err)  # not a complaint about the token


async def test_an_unreachable_bot_api_stops_the_bot_with_one_line() -> None:
    """Nobody answers at TELEGRAM_API_URL: status 2, one line naming it, no token shown."""
    url = f"http://127.0.0.1:{free_port()}"
    result = await run_script(environment(TELEGRAM_BOT_TOKEN=GOOD, TELEGRAM_API_URL=url))
    assert_refused(result, "TELEGRAM_API_URL", "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghi")
    assert url in result[2]


@asynccontextmanager
async def emulator() -> AsyncIterator[BotApiEmulator]:
    """A Bot API emulator with the usual token."""
    emu = BotApiEmulator(EmulatorState(token=TOKEN), webhook_retry_delay=0.05)
    await emu.start()
    try:
        yield emu
    finally:
        await emu.stop()


async def test_a_refused_token_stops_the_bot(redis_url: str) -> None:
    """A well-formed token the server refuses: status 2, one line. (A Redis nobody answers at
    is waited for instead: tests/e2e/test_redis_outage.py.)"""
    async with emulator() as emu:
        refused = await run_script(
            environment(
                TELEGRAM_BOT_TOKEN=OTHER_TOKEN, TELEGRAM_API_URL=emu.url, REDIS_URL=redis_url
            )
        )
        assert_refused(refused, "TELEGRAM_BOT_TOKEN", OTHER_TOKEN.split(":")[1])


async def test_a_redis_url_that_redis_cannot_read_stops_the_bot() -> None:
    """A URL option redis-py refuses is a configuration error too (no retry loop)."""
    async with emulator() as emu:
        url = f"redis://:hunter2@127.0.0.1:{free_port()}/0?socket_timeout=soon"
        result = await run_script(
            environment(TELEGRAM_BOT_TOKEN=TOKEN, TELEGRAM_API_URL=emu.url, REDIS_URL=url)
        )
        assert_refused(result, "REDIS_URL", "hunter2", TOKEN.split(":")[1])


async def run_with_a_taken_port(
    redis_url: str, settings: Callable[[int], dict[str, str]]
) -> tuple[int, str, list[str], int]:
    """Run the bot with these settings while another server holds the port they are given:
    (exit status, stdout, stderr's lines, the port)."""
    prefix = f"cfgtest-{uuid.uuid4().hex[:10]}"
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        async with emulator() as emu:
            env = environment(
                TELEGRAM_BOT_TOKEN=TOKEN,
                TELEGRAM_API_URL=emu.url,
                REDIS_URL=redis_url,
                REDIS_KEY_PREFIX=prefix,
                WEBHOOK_LISTEN="127.0.0.1",
                **settings(port),
            )
            status, out, err = await run_script(env)
    assert "Traceback" not in err, err
    return status, out, err.splitlines(), port


async def test_a_webhook_port_in_use_stops_the_bot_with_one_line(redis_url: str) -> None:
    """Another server holds WEBHOOK_PORT: status 1, one line naming the address."""

    def webhook(port: int) -> dict[str, str]:
        url = f"http://127.0.0.1:{port}/hook"
        return {"WEBHOOK_URL": url, "WEBHOOK_PORT": str(port), "WEBHOOK_SECRET": SECRET}

    status, out, lines, port = await run_with_a_taken_port(redis_url, webhook)
    assert (status, out) == (1, ""), (status, lines)
    assert lines[-1].startswith("saboteur-bot: cannot serve the webhook on 127.0.0.1:"), lines
    assert str(port) in lines[-1] and not any(SECRET in line for line in lines)


async def test_a_metrics_port_in_use_stops_a_polling_bot_with_one_line(redis_url: str) -> None:
    """Long polling, another server holds METRICS_PORT: status 1, one line naming the address."""
    status, out, lines, port = await run_with_a_taken_port(
        redis_url, lambda port: {"METRICS_PORT": str(port)}
    )
    assert (status, out) == (1, ""), (status, lines)
    assert lines[-1].startswith(f"saboteur-bot: cannot serve the metrics on 127.0.0.1:{port}: ")


async def test_the_webhook_needs_the_secret_token(redis_url: str) -> None:
    """A POST without the right secret gets 403 and is not handled; with it, it is."""
    prefix = f"cfgtest-{uuid.uuid4().hex[:10]}"  # the script's keys stay out of other tests' way
    port = free_port()
    hook = f"http://127.0.0.1:{port}/hook"
    async with emulator() as emu:
        state = emu.state
        ann = state.create_user("Ann")
        chat = state.create_group("Dwarves", creator=ann.id)
        env = environment(
            TELEGRAM_BOT_TOKEN=TOKEN,
            TELEGRAM_API_URL=emu.url,
            REDIS_URL=redis_url,
            REDIS_KEY_PREFIX=prefix,
            WEBHOOK_URL=hook,
            WEBHOOK_LISTEN="127.0.0.1",
            WEBHOOK_PORT=str(port),
            WEBHOOK_SECRET=SECRET,
        )
        proc = await asyncio.create_subprocess_exec(
            str(SCRIPT),
            env=env,
            stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.DEVNULL,
            stderr=asyncio.subprocess.DEVNULL,
        )
        try:
            await emu.wait_for(lambda: state.webhook.url == hook, timeout=30)
            await emu.wait_for(lambda: not state.pending_updates, timeout=30)
            update = {
                "update_id": 900_001,
                "message": {
                    "message_id": 900,
                    "from": ann.to_api(),
                    "chat": state.chat_to_api(chat),
                    "date": int(state.now()),
                    "text": "/new",
                    "entities": [{"type": "bot_command", "offset": 0, "length": 4}],
                },
            }
            body = json.dumps(update)
            plain = {"Content-Type": "application/json"}
            async with aiohttp.ClientSession() as http:
                for headers in (
                    plain,
                    {**plain, "X-Telegram-Bot-Api-Secret-Token": "wrong"},
                    {**plain, "X-Telegram-Bot-Api-Secret-Token": SECRET.upper()},
                ):
                    async with http.post(hook, data=body, headers=headers) as response:
                        assert response.status == 403, headers
                await asyncio.sleep(0.5)
                assert not [m for m in state.messages(chat.id) if m.sender_id == state.bot.id]

                headers = {**plain, "X-Telegram-Bot-Api-Secret-Token": SECRET}
                junk = json.dumps({"update_id": 900_002, "message": "not a message"})
                async with http.post(hook, data=junk, headers=headers) as response:
                    assert response.status == 400  # not 500: Telegram would send it for ever
                async with http.post(hook, data=body, headers=headers) as response:
                    assert response.status == 200
            lobby = await emu.wait_for_bot_message(chat.id, timeout=20)
            await asyncio.sleep(0.5)  # anything the refused posts had started would show by now
            sent = [m for m in state.messages(chat.id) if m.sender_id == state.bot.id]
            assert [m.message_id for m in sent] == [lobby.message_id], [shown(m) for m in sent]
            assert "Ann" in shown(lobby) and lobby.content.reply_markup
            proc.terminate()  # SIGTERM: a clean stop
            assert await asyncio.wait_for(proc.wait(), 30) == 0
            assert state.webhook.url == hook, "the webhook stays set for the next process"
        finally:
            if proc.returncode is None:
                proc.kill()
                await proc.wait()
            client = Redis.from_url(redis_url)
            keys = [k async for k in client.scan_iter(match=f"{prefix}:*")]
            if keys:
                await client.delete(*keys)
            await client.aclose()
