"""How the AI thinks, as a request gives it: the one budget shape of the API.

Apart from the request bodies (service.games.requests) because the bodies of responses
(an archived AI seat's budget) and the games' metadata use it too, and the request bodies
are made from the games' bodies (each game's creation options).
"""

from typing import Annotated

import msgspec


class Budget(msgspec.Struct, forbid_unknown_fields=True):
    """How the AI thinks: exactly one of iterations, time_ms (server-capped) and a
    strength level (core.ai.LEVELS)."""
    iterations: Annotated[int, msgspec.Meta(ge=1)] | None = None
    time_ms: Annotated[int, msgspec.Meta(ge=1)] | None = None
    level: Annotated[int, msgspec.Meta(ge=1)] | None = None
