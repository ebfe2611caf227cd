"""`python -m emulator --port N`: serve the Bot API emulator until interrupted."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json

from emulator.faults import Faults
from emulator.server import BotApiEmulator
from emulator.state import DEFAULT_TOKEN, EmulatorState


def main(argv: list[str] | None = None) -> None:
    """Parse the command line and serve."""
    parser = argparse.ArgumentParser(prog="python -m emulator", description=__doc__)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8081)
    parser.add_argument("--token", default=DEFAULT_TOKEN)
    parser.add_argument("--bot-username", default="saboteur_emu_bot")
    parser.add_argument(
        "--no-privacy", action="store_true", help="let the bot see every group message"
    )
    parser.add_argument(
        "--faults",
        type=_faults,
        default=Faults(),
        metavar="JSON",
        help='a fault plan, as POST /_emu/faults takes it: \'{"seed": 1, "share": 0.1}\'',
    )
    args = parser.parse_args(argv)
    state = EmulatorState(
        token=args.token, bot_username=args.bot_username, privacy_mode=not args.no_privacy
    )
    with contextlib.suppress(KeyboardInterrupt):
        emulator = BotApiEmulator(state, host=args.host, port=args.port, faults=args.faults)
        asyncio.run(_serve(emulator))


def _faults(text: str) -> Faults:
    try:
        body = json.loads(text)
        if not isinstance(body, dict):
            raise ValueError("the fault plan must be a JSON object")
        return Faults.from_json(body)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


async def _serve(emulator: BotApiEmulator) -> None:
    await emulator.start()
    print(f"Bot API emulator on {emulator.url} (token {emulator.state.token})", flush=True)
    try:
        await asyncio.Event().wait()
    finally:
        await emulator.stop()


if __name__ == "__main__":
    main()
