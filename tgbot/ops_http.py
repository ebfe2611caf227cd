"""GET /healthz and GET /metrics: their answers, and the small server of only these two that
serves them on METRICS_PORT in long polling (in webhook mode the webhook server has them)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from aiohttp import web

from . import metrics

log = logging.getLogger(__name__)

HEALTH_SECONDS = 3.0  # a health check that takes longer reports both down
HEALTH_PATH = "/healthz"
METRICS_PATH = "/metrics"
STOP_SECONDS = 2.0

Health = Callable[[], Awaitable[dict[str, bool]]]  # each dependency: reachable or not
Backlog = Callable[[], Awaitable[int]]  # games owing Telegram something


async def healthz(health: Health) -> web.Response:
    """For a load balancer or a probe: 200 when Redis and the Bot API answer, else 503; the body
    says which, nothing more (no secret needed, nothing secret in it)."""
    try:
        async with asyncio.timeout(HEALTH_SECONDS):
            checks = await health()
    except TimeoutError:
        checks = {"redis": False, "bot_api": False}
    status = 200 if all(checks.values()) else 503
    return web.json_response({k: "ok" if v else "down" for k, v in checks.items()}, status=status)


async def scrape(backlog: Backlog | None) -> web.Response:
    """For Prometheus: this process's counters and the outbox backlog (left as last read when
    Redis does not answer)."""
    count: int | None = None
    if backlog is not None:
        try:
            async with asyncio.timeout(HEALTH_SECONDS):
                count = await backlog()
        except Exception:
            log.warning("metrics: the outbox backlog could not be read")
    body = metrics.scrape(count)
    return web.Response(body=body, headers={"Content-Type": metrics.CONTENT_TYPE})


class MetricsServer:
    """GET /metrics and GET /healthz on host:port, for a bot that polls (no webhook port)."""

    def __init__(self, *, host: str, port: int, health: Health, backlog: Backlog) -> None:
        self.host = host
        self.port = port  # 0 picks a free port; the bound one is here after `start`
        self.health = health
        self.backlog = backlog
        self._runner: web.AppRunner | None = None

    async def start(self) -> None:
        """Listen on host:port (OSError when the address is taken or not this machine's)."""
        app = web.Application()
        app.router.add_get(HEALTH_PATH, lambda _request: healthz(self.health))
        app.router.add_get(METRICS_PATH, lambda _request: scrape(self.backlog))
        runner = web.AppRunner(
            app, access_log=None, handle_signals=False, shutdown_timeout=STOP_SECONDS
        )
        await runner.setup()
        try:
            await web.TCPSite(runner, self.host, self.port).start()
        except BaseException:
            await runner.cleanup()
            raise
        self._runner = runner
        if self.port == 0:
            self.port = int(runner.addresses[0][1])
        log.info(
            "metrics: serving %s and %s on %s:%d", METRICS_PATH, HEALTH_PATH, self.host, self.port
        )

    async def stop(self) -> None:
        """Stop listening."""
        runner, self._runner = self._runner, None
        if runner is not None:
            await runner.cleanup()
