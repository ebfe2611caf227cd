"""The bot's settings, read once from the environment into a frozen value.

| variable | default | meaning |
|---|---|---|
| `TELEGRAM_BOT_TOKEN` | (required) | the token from @BotFather, `123456:ABC...` |
| `TELEGRAM_API_URL` | `https://api.telegram.org` | the Bot API server (or a self-hosted one) |
| `REDIS_URL` | `redis://127.0.0.1:6379/0` | where games live (`redis+cluster://` for a Cluster, |
| | | `redis+sentinel://host:26379,.../mymaster/0` for the master Sentinel names) |
| `REDIS_CLUSTER` | `0` | `1`: `REDIS_URL` names one node of a Redis Cluster |
| `REDIS_TIMEOUT_SECONDS` | `3` | how long a Redis call (or connecting) may take, 0.1 to 60 |
| `WEBHOOK_URL` | (unset: long polling) | public HTTPS URL Telegram posts updates to |
| `WEBHOOK_LISTEN` | `0.0.0.0` | address the webhook server binds |
| `WEBHOOK_PORT` | `8443` | port the webhook server binds |
| `WEBHOOK_SECRET` | (required with `WEBHOOK_URL`) | Telegram's secret token header value |
| `WEBHOOK_REPLIES` | `1` | `1`: a tap's answer rides in the webhook's HTTP answer; `0`: a call |
| `METRICS_PORT` | (unset: none) | long polling: port of `GET /metrics` and `/healthz` |
| `BOT_LANGUAGE` | `ko` | language of groups and users that chose none |
| `REDIS_KEY_PREFIX` | `sab` | prefix of every Redis key (several bots can share one Redis) |
| `LOG_LEVEL` | `INFO` | Python logging level: DEBUG, INFO, WARNING, ERROR or CRITICAL |
| `FONT_DIR` | `/usr/share/fonts/truetype/nanum` | folder of the NanumGothic fonts |
| `COMPUTER_PAUSE_SECONDS` | `2` | how long a computer player waits before its move (0 to 60) |
| `BOT_SENDS_PER_SECOND` | `30` | the bot-wide send budget of every process together (0: none) |
| `EVENT_LOOP` | `uvloop` | `uvloop` (libuv's loop, less CPU a move) or `asyncio` (Python's own) |

An empty variable counts as unset (as `VAR=` in a compose file means). Errors never echo the
token, the secret or a password in `REDIS_URL`.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

from .i18n import LANGUAGES, Language, parse_language
from .sentinel import SENTINEL_SCHEME, parse_sentinel_url

DEFAULT_API_URL = "https://api.telegram.org"
DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/0"
DEFAULT_REDIS_TIMEOUT = 3.0  # seconds; a Redis call takes well under a millisecond
REDIS_TIMEOUTS = (0.1, 60.0)  # the accepted range of REDIS_TIMEOUT_SECONDS
DEFAULT_LISTEN = "0.0.0.0"
DEFAULT_PORT = 8443
DEFAULT_LANGUAGE = Language("ko")
DEFAULT_KEY_PREFIX = "sab"
DEFAULT_LOG_LEVEL = "INFO"
DEFAULT_FONT_DIR = Path("/usr/share/fonts/truetype/nanum")
DEFAULT_COMPUTER_PAUSE = 2.0
DEFAULT_SENDS_PER_SECOND = 30.0  # Telegram's limit for one bot
MAX_SENDS_PER_SECOND = 1000.0
MAX_COMPUTER_PAUSE = 60.0
_PAUSE = re.compile(r"[0-9]{1,2}(\.[0-9]{1,3})?")
_RATE = re.compile(r"[0-9]{1,4}(\.[0-9]{1,3})?")
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
EVENT_LOOPS = ("uvloop", "asyncio")
_KEY_PREFIX = re.compile(r"[A-Za-z0-9_-]{1,32}")

# A bot id, a colon, and the secret part (35 characters from @BotFather today).
_TOKEN = re.compile(r"[0-9]{1,20}:[A-Za-z0-9_-]{30,100}")
# Telegram's rule for setWebhook's secret_token.
_SECRET = re.compile(r"[A-Za-z0-9_-]{1,256}")
_LISTEN = re.compile(r"[A-Za-z0-9_.:\[\]-]{1,255}")
_REDIS_SCHEMES = ("redis", "rediss", "unix", "redis+cluster", "rediss+cluster", SENTINEL_SCHEME)
CLUSTER_SUFFIX = "+cluster"
_FLAGS = {"1": True, "true": True, "yes": True, "0": False, "false": False, "no": False}
_REDIS_DB = re.compile(r"(/[0-9]{0,5})?")
_SECONDS = re.compile(r"[0-9]{1,3}(\.[0-9]{1,3})?")


class ConfigError(ValueError):
    """A setting is missing or malformed; the message is one line naming the variable."""

    def __init__(self, variable: str, problem: str) -> None:
        super().__init__(f"{variable}: {problem}")
        self.variable = variable
        self.problem = problem


@dataclass(frozen=True, slots=True, repr=False)
class Config:
    """Everything the bot reads from its environment."""

    token: str | None
    api_url: str = DEFAULT_API_URL
    redis_url: str = DEFAULT_REDIS_URL
    redis_timeout: float = DEFAULT_REDIS_TIMEOUT
    redis_cluster: bool = False
    webhook_url: str | None = None
    webhook_listen: str = DEFAULT_LISTEN
    webhook_port: int = DEFAULT_PORT
    webhook_secret: str | None = None
    webhook_replies: bool = True  # a tap's answer in the webhook's answer (`tgbot.webhook_reply`)
    metrics_port: int | None = None  # long polling: GET /metrics and /healthz served here
    language: Language = DEFAULT_LANGUAGE
    key_prefix: str = DEFAULT_KEY_PREFIX
    log_level: str = DEFAULT_LOG_LEVEL
    font_dir: Path = DEFAULT_FONT_DIR
    computer_pause: float = DEFAULT_COMPUTER_PAUSE  # seconds before a computer player moves
    sends_per_second: float = DEFAULT_SENDS_PER_SECOND  # the bot-wide budget (0: none)
    event_loop: str = EVENT_LOOPS[0]  # which asyncio event loop runs the bot

    @property
    def is_webhook(self) -> bool:
        """True to receive updates by webhook, False for long polling."""
        return self.webhook_url is not None

    @property
    def webhook_path(self) -> str:
        """The path of WEBHOOK_URL without its leading slash (PTB's `url_path`)."""
        return "" if self.webhook_url is None else urlsplit(self.webhook_url).path.lstrip("/")

    @property
    def bot_id(self) -> int | None:
        """The bot's user id, the token's first part."""
        return None if self.token is None else int(self.token.split(":", 1)[0])

    @property
    def base_url(self) -> str:
        """The `base_url` PTB's builder takes (the token is appended to it)."""
        return f"{self.api_url}/bot"

    @property
    def base_file_url(self) -> str:
        """The `base_file_url` PTB's builder takes."""
        return f"{self.api_url}/file/bot"

    @property
    def is_official_api(self) -> bool:
        """True when talking to Telegram's own Bot API server."""
        return self.api_url == DEFAULT_API_URL

    def __repr__(self) -> str:
        """Like the dataclass repr, with the token and secret masked."""
        token = None if self.token is None else f"{self.bot_id}:***"
        secret = None if self.webhook_secret is None else "***"
        return (
            f"Config(token={token!r}, api_url={self.api_url!r}, "
            f"redis_url={redacted_url(self.redis_url)!r}, redis_timeout={self.redis_timeout!r}, "
            f"webhook_url={self.webhook_url!r}, webhook_listen={self.webhook_listen!r}, "
            f"webhook_port={self.webhook_port!r}, webhook_secret={secret!r}, "
            f"webhook_replies={self.webhook_replies!r}, "
            f"metrics_port={self.metrics_port!r}, "
            f"language={self.language.code!r}, key_prefix={self.key_prefix!r}, "
            f"computer_pause={self.computer_pause!r}, "
            f"sends_per_second={self.sends_per_second!r}, event_loop={self.event_loop!r})"
        )


def _get(environ: Mapping[str, str], name: str) -> str | None:
    value = environ.get(name)
    if value is None or value.strip() == "":
        return None
    return value.strip()


def _http_url(name: str, value: str, *, allow_http: bool) -> str:
    parts = urlsplit(value)
    schemes = ("https", "http") if allow_http else ("https",)
    if parts.scheme not in schemes or not parts.hostname:
        wanted = "an http(s)://host URL" if allow_http else "an https://host URL"
        raise ConfigError(name, f"must be {wanted}, got {value!r}")
    if parts.query or parts.fragment:
        raise ConfigError(name, "must not carry a query or fragment")
    return value


def redacted_url(url: str) -> str:
    """The URL with its password (if any) masked, for messages and logs."""
    parts = urlsplit(url)
    try:
        password = parts.password
    except ValueError:
        return url
    if not password:
        return url
    netloc = parts.netloc.replace(f":{password}@", ":***@", 1)
    return urlunsplit(parts._replace(netloc=netloc))


def _redis_url(value: str) -> str:
    parts = urlsplit(value)
    shown = redacted_url(value)
    if parts.scheme not in _REDIS_SCHEMES:
        raise ConfigError(
            "REDIS_URL",
            "must start with redis://, rediss://, unix://, redis+cluster://, "
            f"rediss+cluster:// or redis+sentinel://, got {shown!r}",
        )
    if parts.scheme == SENTINEL_SCHEME:
        try:
            parse_sentinel_url(value)
        except ValueError as err:
            raise ConfigError("REDIS_URL", f"{err}: {shown!r}") from None
        return value
    try:
        port = parts.port
    except ValueError:  # not a number, or above 65535
        port = 0
    if port == 0:
        raise ConfigError("REDIS_URL", f"has a bad port: {shown!r}")
    if parts.scheme == "unix":
        if not parts.path:
            raise ConfigError("REDIS_URL", f"needs a socket path: {shown!r}")
    elif not _REDIS_DB.fullmatch(parts.path):
        raise ConfigError("REDIS_URL", f"the database after the host must be a number: {shown!r}")
    return value


def _redis_cluster(environ: Mapping[str, str], url: str) -> bool:
    """Whether REDIS_URL names a Cluster node: its scheme says so, or REDIS_CLUSTER=1."""
    text = _get(environ, "REDIS_CLUSTER")
    flag = _FLAGS.get((text or "0").lower())
    if flag is None:
        raise ConfigError("REDIS_CLUSTER", f"must be 1 or 0, got {text!r}")
    scheme = urlsplit(url).scheme
    if flag and scheme == SENTINEL_SCHEME:
        raise ConfigError("REDIS_CLUSTER", "must be 0 when REDIS_URL names Redis Sentinel")
    cluster = flag or scheme.endswith(CLUSTER_SUFFIX)
    if cluster and scheme == "unix":
        raise ConfigError("REDIS_URL", "a Redis Cluster is reached over TCP, not unix://")
    if cluster and urlsplit(url).path not in ("", "/", "/0"):
        raise ConfigError("REDIS_URL", "a Redis Cluster has only database 0")
    return cluster


def _redis_timeout(environ: Mapping[str, str]) -> float:
    text = _get(environ, "REDIS_TIMEOUT_SECONDS")
    if text is None:
        return DEFAULT_REDIS_TIMEOUT
    low, high = REDIS_TIMEOUTS
    seconds = float(text) if text.isascii() and _SECONDS.fullmatch(text) else 0.0
    if not low <= seconds <= high:
        raise ConfigError(
            "REDIS_TIMEOUT_SECONDS",
            f"must be a number of seconds from {low} to {high:g}, got {text!r}",
        )
    return seconds


def _number(
    environ: Mapping[str, str],
    name: str,
    shape: tuple[re.Pattern[str], float, float],
    wanted: str,
) -> float:
    """A number setting of this pattern, from 0 to its maximum; its default when unset."""
    pattern, maximum, default = shape
    text = _get(environ, name)
    if text is None:
        return default
    if not pattern.fullmatch(text) or float(text) > maximum:
        raise ConfigError(name, f"must be {wanted}, got {text!r}")
    return float(text)


def _port(environ: Mapping[str, str], name: str) -> int | None:
    """A TCP port setting (1 to 65535), None when unset."""
    text = _get(environ, name)
    if text is None:
        return None
    if not text.isascii() or not text.isdigit() or not 1 <= int(text) <= 65535:
        raise ConfigError(name, f"must be a number from 1 to 65535, got {text!r}")
    return int(text)


def log_level(environ: Mapping[str, str], default: str = DEFAULT_LOG_LEVEL) -> str:
    """`LOG_LEVEL` as one of Python's level names (any case), else ConfigError."""
    value = (_get(environ, "LOG_LEVEL") or default).upper()
    if value not in LOG_LEVELS or not isinstance(logging.getLevelName(value), int):
        shown = _get(environ, "LOG_LEVEL")
        raise ConfigError("LOG_LEVEL", f"must be one of {', '.join(LOG_LEVELS)}, got {shown!r}")
    return value


def load_config(
    environ: Mapping[str, str],
    *,
    require_token: bool = True,
    default_log_level: str = DEFAULT_LOG_LEVEL,
) -> Config:
    """Read and check every setting; raises ConfigError on the first problem found."""
    level = log_level(environ, default_log_level)
    token = _get(environ, "TELEGRAM_BOT_TOKEN")
    if token is None:
        if require_token:
            raise ConfigError("TELEGRAM_BOT_TOKEN", "is not set (get one from @BotFather)")
    elif not _TOKEN.fullmatch(token):
        raise ConfigError(
            "TELEGRAM_BOT_TOKEN", "does not look like a bot token (digits, ':', then the secret)"
        )

    api_url = _http_url(
        "TELEGRAM_API_URL", _get(environ, "TELEGRAM_API_URL") or DEFAULT_API_URL, allow_http=True
    ).rstrip("/")

    redis_url = _redis_url(_get(environ, "REDIS_URL") or DEFAULT_REDIS_URL)
    redis_timeout = _redis_timeout(environ)
    redis_cluster = _redis_cluster(environ, redis_url)

    webhook_url = _get(environ, "WEBHOOK_URL")
    if webhook_url is not None:
        # Telegram only posts to HTTPS; a self-hosted Bot API server (--local) also allows HTTP.
        official = api_url == DEFAULT_API_URL
        _http_url("WEBHOOK_URL", webhook_url, allow_http=not official)

    listen = _get(environ, "WEBHOOK_LISTEN") or DEFAULT_LISTEN
    if not _LISTEN.fullmatch(listen):
        raise ConfigError("WEBHOOK_LISTEN", f"is not an address to listen on: {listen!r}")

    port = _port(environ, "WEBHOOK_PORT") or DEFAULT_PORT
    metrics_port = _port(environ, "METRICS_PORT")
    if metrics_port is not None and webhook_url is not None:
        raise ConfigError(
            "METRICS_PORT", "is for long polling; with WEBHOOK_URL, /metrics is on WEBHOOK_PORT"
        )

    secret = _get(environ, "WEBHOOK_SECRET")
    if secret is not None and not _SECRET.fullmatch(secret):
        raise ConfigError("WEBHOOK_SECRET", "must be 1 to 256 characters of A-Z a-z 0-9 _ -")
    if webhook_url is not None and secret is None:
        raise ConfigError("WEBHOOK_SECRET", "is required when WEBHOOK_URL is set")

    replies_text = _get(environ, "WEBHOOK_REPLIES")
    replies = _FLAGS.get((replies_text or "1").lower())
    if replies is None:
        raise ConfigError("WEBHOOK_REPLIES", f"must be 1 or 0, got {replies_text!r}")

    lang_text = _get(environ, "BOT_LANGUAGE")
    language = DEFAULT_LANGUAGE
    if lang_text is not None:
        parsed = parse_language(lang_text)
        if parsed is None or parsed.code.lower() != lang_text.replace("-", "_").lower():
            choices = ", ".join(lang.code for lang in LANGUAGES)
            raise ConfigError("BOT_LANGUAGE", f"must be one of {choices}, got {lang_text!r}")
        language = parsed

    key_prefix = _get(environ, "REDIS_KEY_PREFIX") or DEFAULT_KEY_PREFIX
    if not _KEY_PREFIX.fullmatch(key_prefix):
        raise ConfigError("REDIS_KEY_PREFIX", "must be 1 to 32 characters of A-Z a-z 0-9 _ -")

    font_dir = Path(_get(environ, "FONT_DIR") or DEFAULT_FONT_DIR)

    pause = _number(
        environ,
        "COMPUTER_PAUSE_SECONDS",
        (_PAUSE, MAX_COMPUTER_PAUSE, DEFAULT_COMPUTER_PAUSE),
        "a number of seconds from 0 to 60 (such as 2 or 1.5)",
    )
    rate = _number(
        environ,
        "BOT_SENDS_PER_SECOND",
        (_RATE, MAX_SENDS_PER_SECOND, DEFAULT_SENDS_PER_SECOND),
        "a number from 0 to 1000 (0: no budget)",
    )
    event_loop = (_get(environ, "EVENT_LOOP") or EVENT_LOOPS[0]).lower()
    if event_loop not in EVENT_LOOPS:
        shown = _get(environ, "EVENT_LOOP")
        raise ConfigError("EVENT_LOOP", f"must be one of {', '.join(EVENT_LOOPS)}, got {shown!r}")

    return Config(
        token=token,
        api_url=api_url,
        redis_url=redis_url,
        redis_timeout=redis_timeout,
        redis_cluster=redis_cluster,
        webhook_url=webhook_url,
        webhook_listen=listen,
        webhook_port=port,
        webhook_secret=secret,
        webhook_replies=replies,
        metrics_port=metrics_port,
        language=language,
        key_prefix=key_prefix,
        log_level=level,
        font_dir=font_dir,
        computer_pause=pause,
        sends_per_second=rate,
        event_loop=event_loop,
    )
