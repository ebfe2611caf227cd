"""A local Telegram Bot API emulator for tests and the offline sandbox."""

from emulator.clock import Clock, ManualClock
from emulator.errors import ApiError, SimulationError
from emulator.faults import FaultLog, Faults, InjectedFault
from emulator.limits import RateLimits
from emulator.model import CallbackQuery, Chat, ChatType, MemberStatus, Message, User
from emulator.server import BotApiEmulator
from emulator.state import DEFAULT_TOKEN, EmulatorState

__all__ = [
    "DEFAULT_TOKEN",
    "ApiError",
    "BotApiEmulator",
    "CallbackQuery",
    "Chat",
    "ChatType",
    "Clock",
    "EmulatorState",
    "FaultLog",
    "Faults",
    "InjectedFault",
    "ManualClock",
    "MemberStatus",
    "Message",
    "RateLimits",
    "SimulationError",
    "User",
]
