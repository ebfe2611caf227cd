"""Config from the environment: defaults, both update modes, one clear error per bad variable."""

from __future__ import annotations

import asyncio

import pytest

from tgbot.config import DEFAULT_API_URL, ConfigError, load_config
from tgbot.i18n import Language
from tgbot.main import loop_name, run
from tgbot.sentinel import parse_sentinel_url

TOKEN = "7000000001:AAHemulatorTokenForLocalTestsOnly12"
SECRET = "s3cret_-Token"
HOOK = {"TELEGRAM_BOT_TOKEN": TOKEN, "WEBHOOK_URL": "https://bot.example.com/hook"}


def test_only_a_token_gives_long_polling_with_defaults() -> None:
    config = load_config({"TELEGRAM_BOT_TOKEN": TOKEN})
    assert config.token == TOKEN
    assert config.bot_id == 7000000001
    assert not config.is_webhook
    assert config.api_url == DEFAULT_API_URL
    assert config.is_official_api
    assert config.base_url == "https://api.telegram.org/bot"
    assert config.base_file_url == "https://api.telegram.org/file/bot"
    assert config.redis_url == "redis://127.0.0.1:6379/0"
    assert (config.webhook_listen, config.webhook_port) == ("0.0.0.0", 8443)
    assert config.webhook_secret is None
    assert config.language == Language("ko")


def test_webhook_url_with_a_secret_gives_webhook_mode() -> None:
    config = load_config(
        {**HOOK, "WEBHOOK_SECRET": SECRET, "WEBHOOK_PORT": "88", "WEBHOOK_LISTEN": "127.0.0.1"}
    )
    assert config.is_webhook
    assert config.webhook_url == "https://bot.example.com/hook"
    assert config.webhook_path == "hook"
    assert config.webhook_secret == SECRET
    assert (config.webhook_listen, config.webhook_port) == ("127.0.0.1", 88)


def test_a_self_hosted_api_server_is_used_and_may_post_webhooks_over_http() -> None:
    config = load_config(
        {
            "TELEGRAM_BOT_TOKEN": TOKEN,
            "TELEGRAM_API_URL": "http://bot-api:8081/",
            "WEBHOOK_URL": "http://bot:8443/hook",
            "WEBHOOK_SECRET": SECRET,
        }
    )
    assert config.api_url == "http://bot-api:8081"
    assert config.base_url == "http://bot-api:8081/bot"
    assert not config.is_official_api
    assert config.is_webhook


def test_empty_variables_count_as_unset() -> None:
    config = load_config({"TELEGRAM_BOT_TOKEN": TOKEN, "WEBHOOK_URL": "", "BOT_LANGUAGE": " "})
    assert not config.is_webhook
    assert config.language == Language("ko")


def test_the_token_may_be_left_out_for_the_offline_sandbox() -> None:
    config = load_config({}, require_token=False)
    assert config.token is None
    assert config.bot_id is None


def test_language_is_read_case_insensitively() -> None:
    assert load_config({"TELEGRAM_BOT_TOKEN": TOKEN, "BOT_LANGUAGE": "EN"}).language == Language(
        "en"
    )


def test_repr_hides_the_token_and_the_secret() -> None:
    text = repr(load_config({**HOOK, "WEBHOOK_SECRET": SECRET}))
    assert TOKEN.split(":")[1] not in text
    assert SECRET not in text
    assert "7000000001:***" in text


BAD = [
    ({}, "TELEGRAM_BOT_TOKEN", "is not set"),
    ({"TELEGRAM_BOT_TOKEN": "hello"}, "TELEGRAM_BOT_TOKEN", "does not look like"),
    ({"TELEGRAM_BOT_TOKEN": "123456:short"}, "TELEGRAM_BOT_TOKEN", "does not look like"),
    ({"TELEGRAM_BOT_TOKEN": TOKEN + " x"}, "TELEGRAM_BOT_TOKEN", "does not look like"),
    ({"TELEGRAM_API_URL": "ftp://example.com"}, "TELEGRAM_API_URL", "http(s)://"),
    ({"TELEGRAM_API_URL": "api.telegram.org"}, "TELEGRAM_API_URL", "http(s)://"),
    ({"REDIS_URL": "http://localhost:6379"}, "REDIS_URL", "redis://"),
    ({"REDIS_CLUSTER": "maybe"}, "REDIS_CLUSTER", "1 or 0"),
    ({"REDIS_URL": "redis+cluster://n1:7000/2"}, "REDIS_URL", "only database 0"),
    ({"REDIS_URL": "redis+sentinel://s1:26379"}, "REDIS_URL", "service name"),
    ({"METRICS_PORT": "0"}, "METRICS_PORT", "1 to 65535"),
    ({"METRICS_PORT": "9o9o"}, "METRICS_PORT", "1 to 65535"),
    ({**HOOK, "WEBHOOK_SECRET": SECRET, "METRICS_PORT": "9090"}, "METRICS_PORT", "WEBHOOK_PORT"),
    ({"REDIS_URL": "redis+sentinel://s1:26379/m/x"}, "REDIS_URL", "must be a number"),
    ({"REDIS_URL": "redis+sentinel://s1:99999/m"}, "REDIS_URL", "bad sentinel port"),
    ({"REDIS_URL": "redis+sentinel://s1,,s2/m"}, "REDIS_URL", "host:port"),
    ({"REDIS_URL": "redis+sentinel://s1/m?db=2"}, "REDIS_URL", "no query"),
    ({"REDIS_URL": "redis+sentinel://s1/m", "REDIS_CLUSTER": "1"}, "REDIS_CLUSTER", "Sentinel"),
    ({"REDIS_URL": "unix:///run/redis.sock", "REDIS_CLUSTER": "1"}, "REDIS_URL", "over TCP"),
    ({"WEBHOOK_URL": "http://bot.example.com/hook"}, "WEBHOOK_URL", "https://"),
    ({"WEBHOOK_URL": "not a url", "WEBHOOK_SECRET": SECRET}, "WEBHOOK_URL", "https://"),
    ({"WEBHOOK_URL": "https://x.example/?a=1"}, "WEBHOOK_URL", "query"),
    ({"WEBHOOK_URL": "https://bot.example.com/hook"}, "WEBHOOK_SECRET", "required"),
    ({"WEBHOOK_SECRET": "has space"}, "WEBHOOK_SECRET", "1 to 256"),
    ({"WEBHOOK_SECRET": "x" * 257}, "WEBHOOK_SECRET", "1 to 256"),
    ({"WEBHOOK_SECRET": "ünïcode"}, "WEBHOOK_SECRET", "1 to 256"),
    ({"WEBHOOK_PORT": "http"}, "WEBHOOK_PORT", "1 to 65535"),
    ({"WEBHOOK_PORT": "0"}, "WEBHOOK_PORT", "1 to 65535"),
    ({"WEBHOOK_PORT": "65536"}, "WEBHOOK_PORT", "1 to 65535"),
    ({"WEBHOOK_PORT": "-1"}, "WEBHOOK_PORT", "1 to 65535"),
    ({"WEBHOOK_PORT": "٨٤٤٣"}, "WEBHOOK_PORT", "1 to 65535"),
    ({"WEBHOOK_LISTEN": "0.0.0.0 ; rm"}, "WEBHOOK_LISTEN", "address"),
    ({"BOT_LANGUAGE": "fr"}, "BOT_LANGUAGE", "must be one of en, ko"),
    ({"BOT_LANGUAGE": "en-US"}, "BOT_LANGUAGE", "must be one of en, ko"),
    ({"REDIS_KEY_PREFIX": "a:b"}, "REDIS_KEY_PREFIX", "1 to 32"),
    ({"REDIS_KEY_PREFIX": "x" * 33}, "REDIS_KEY_PREFIX", "1 to 32"),
    ({"COMPUTER_PAUSE_SECONDS": "soon"}, "COMPUTER_PAUSE_SECONDS", "from 0 to 60"),
    ({"EVENT_LOOP": "trio"}, "EVENT_LOOP", "must be one of uvloop, asyncio"),
    ({"WEBHOOK_REPLIES": "sometimes"}, "WEBHOOK_REPLIES", "1 or 0"),
    ({"BOT_SENDS_PER_SECOND": "fast"}, "BOT_SENDS_PER_SECOND", "from 0 to 1000"),
    ({"BOT_SENDS_PER_SECOND": "1001"}, "BOT_SENDS_PER_SECOND", "from 0 to 1000"),
    ({"BOT_SENDS_PER_SECOND": "-30"}, "BOT_SENDS_PER_SECOND", "from 0 to 1000"),
    ({"COMPUTER_PAUSE_SECONDS": "-1"}, "COMPUTER_PAUSE_SECONDS", "from 0 to 60"),
    ({"COMPUTER_PAUSE_SECONDS": "61"}, "COMPUTER_PAUSE_SECONDS", "from 0 to 60"),
    ({"COMPUTER_PAUSE_SECONDS": "1e3"}, "COMPUTER_PAUSE_SECONDS", "from 0 to 60"),
    ({"COMPUTER_PAUSE_SECONDS": "nan"}, "COMPUTER_PAUSE_SECONDS", "from 0 to 60"),
    ({"REDIS_TIMEOUT_SECONDS": "0"}, "REDIS_TIMEOUT_SECONDS", "from 0.1 to 60"),
    ({"REDIS_TIMEOUT_SECONDS": "0.05"}, "REDIS_TIMEOUT_SECONDS", "from 0.1 to 60"),
    ({"REDIS_TIMEOUT_SECONDS": "61"}, "REDIS_TIMEOUT_SECONDS", "from 0.1 to 60"),
    ({"REDIS_TIMEOUT_SECONDS": "-1"}, "REDIS_TIMEOUT_SECONDS", "from 0.1 to 60"),
    ({"REDIS_TIMEOUT_SECONDS": "three"}, "REDIS_TIMEOUT_SECONDS", "from 0.1 to 60"),
    ({"REDIS_TIMEOUT_SECONDS": "1e1"}, "REDIS_TIMEOUT_SECONDS", "from 0.1 to 60"),
    ({"REDIS_TIMEOUT_SECONDS": "nan"}, "REDIS_TIMEOUT_SECONDS", "from 0.1 to 60"),
    ({"REDIS_TIMEOUT_SECONDS": "inf"}, "REDIS_TIMEOUT_SECONDS", "from 0.1 to 60"),
    ({"REDIS_TIMEOUT_SECONDS": "٣"}, "REDIS_TIMEOUT_SECONDS", "from 0.1 to 60"),
]


@pytest.mark.parametrize(("text", "seconds"), [(None, 2.0), ("0", 0.0), ("1.5", 1.5), ("60", 60.0)])
def test_the_computer_players_pause_is_read_in_seconds(text: str | None, seconds: float) -> None:
    env = {"TELEGRAM_BOT_TOKEN": TOKEN}
    if text is not None:
        env["COMPUTER_PAUSE_SECONDS"] = text
    assert load_config(env).computer_pause == seconds


def test_the_key_prefix_defaults_to_sab_and_can_be_set() -> None:
    """Several bots can share one Redis under their own prefixes."""
    assert load_config({"TELEGRAM_BOT_TOKEN": TOKEN}).key_prefix == "sab"
    assert load_config({"TELEGRAM_BOT_TOKEN": TOKEN, "REDIS_KEY_PREFIX": "dw2"}).key_prefix == "dw2"


def test_redis_calls_time_out_after_three_seconds_unless_set() -> None:
    """REDIS_TIMEOUT_SECONDS: whole or decimal seconds from 0.1 to 60."""
    assert load_config({"TELEGRAM_BOT_TOKEN": TOKEN}).redis_timeout == 3.0
    for text, seconds in (("0.1", 0.1), ("1.5", 1.5), ("60", 60.0), (" 7 ", 7.0)):
        config = load_config({"TELEGRAM_BOT_TOKEN": TOKEN, "REDIS_TIMEOUT_SECONDS": text})
        assert config.redis_timeout == seconds


def test_a_redis_cluster_is_chosen_by_the_url_s_scheme_or_redis_cluster() -> None:
    """`redis+cluster://` (or `rediss+cluster://`) names one node; REDIS_CLUSTER=1 does too."""
    assert load_config({"TELEGRAM_BOT_TOKEN": TOKEN}).redis_cluster is False
    for env, cluster in (
        ({"REDIS_URL": "redis+cluster://n1:7000"}, True),
        ({"REDIS_URL": "rediss+cluster://:pw@n1:7000/0"}, True),
        ({"REDIS_URL": "redis://n1:7000/0", "REDIS_CLUSTER": "1"}, True),
        ({"REDIS_URL": "redis://n1:7000/0", "REDIS_CLUSTER": "0"}, False),
    ):
        assert load_config({"TELEGRAM_BOT_TOKEN": TOKEN, **env}).redis_cluster is cluster, env


def test_tap_answers_ride_in_the_webhook_s_answer_unless_webhook_replies_is_0() -> None:
    assert load_config({"TELEGRAM_BOT_TOKEN": TOKEN}).webhook_replies is True
    for text, replies in (("0", False), ("no", False), ("1", True), ("true", True), ("", True)):
        config = load_config({"TELEGRAM_BOT_TOKEN": TOKEN, "WEBHOOK_REPLIES": text})
        assert config.webhook_replies is replies, text


def test_metrics_port_serves_a_polling_bot_s_metrics() -> None:
    assert load_config({"TELEGRAM_BOT_TOKEN": TOKEN}).metrics_port is None
    assert load_config({"TELEGRAM_BOT_TOKEN": TOKEN, "METRICS_PORT": "9090"}).metrics_port == 9090


def test_a_sentinel_url_names_the_sentinels_the_service_and_the_database() -> None:
    """`redis+sentinel://` lists the sentinels (26379 by default); the password is masked."""
    url = "redis+sentinel://:hunter2@s1:26380,s2,[::1]:26381/saboteur/3"
    config = load_config({"TELEGRAM_BOT_TOKEN": TOKEN, "REDIS_URL": url})
    assert (config.redis_url, config.redis_cluster) == (url, False)
    assert "hunter2" not in repr(config)
    target = parse_sentinel_url(url)
    assert target.sentinels == (("s1", 26380), ("s2", 26379), ("::1", 26381))
    assert (target.service, target.db, target.password) == ("saboteur", 3, "hunter2")
    assert parse_sentinel_url("redis+sentinel://s1/m").db == 0
    with pytest.raises(ConfigError) as caught:
        load_config({"TELEGRAM_BOT_TOKEN": TOKEN, "REDIS_URL": url.replace("/3", "/x")})
    assert "hunter2" not in str(caught.value)


@pytest.mark.parametrize(("env", "variable", "problem"), BAD)
def test_a_bad_variable_is_named_in_one_line(
    env: dict[str, str], variable: str, problem: str
) -> None:
    base = {} if "TELEGRAM_BOT_TOKEN" in env or not env else {"TELEGRAM_BOT_TOKEN": TOKEN}
    with pytest.raises(ConfigError) as caught:
        load_config({**base, **env})
    message = str(caught.value)
    assert caught.value.variable == variable
    assert message.startswith(f"{variable}: ")
    assert problem in message
    assert "\n" not in message


def test_errors_never_echo_the_token_or_the_secret() -> None:
    secret_token = "123456:" + "A" * 29  # one character short
    with pytest.raises(ConfigError) as caught:
        load_config({"TELEGRAM_BOT_TOKEN": secret_token})
    assert "A" * 29 not in str(caught.value)
    with pytest.raises(ConfigError) as caught:
        load_config({"TELEGRAM_BOT_TOKEN": TOKEN, "WEBHOOK_SECRET": "bad secret!"})
    assert "bad secret" not in str(caught.value)


@pytest.mark.parametrize(
    ("text", "rate"), [(None, 30.0), ("0", 0.0), ("25.5", 25.5), ("999", 999.0)]
)
def test_the_bot_wide_send_budget_is_read_per_second(text: str | None, rate: float) -> None:
    """BOT_SENDS_PER_SECOND: Telegram's 30 by default, 0 for none (one's own Bot API server)."""
    env = {"TELEGRAM_BOT_TOKEN": TOKEN}
    if text is not None:
        env["BOT_SENDS_PER_SECOND"] = text
    assert load_config(env).sends_per_second == rate


@pytest.mark.parametrize(
    ("text", "loop"), [(None, "uvloop"), ("asyncio", "asyncio"), ("UVLOOP", "uvloop")]
)
def test_the_event_loop_is_uvloop_unless_set_to_asyncio(text: str | None, loop: str) -> None:
    env = {"TELEGRAM_BOT_TOKEN": TOKEN}
    if text is not None:
        env["EVENT_LOOP"] = text
    config = load_config(env)
    assert config.event_loop == loop
    assert f"event_loop={loop!r}" in repr(config)


@pytest.mark.parametrize("kind", ["uvloop", "asyncio"])
def test_the_bot_runs_on_the_event_loop_it_is_set_to(kind: str) -> None:
    async def which() -> str:
        return loop_name(asyncio.get_running_loop())

    config = load_config({"TELEGRAM_BOT_TOKEN": TOKEN, "EVENT_LOOP": kind})
    assert run(which(), config) == kind
