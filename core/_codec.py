"""The framing of every stored state: magic, format version, game code, CRC.

    b"CG" | format (1 byte) | game code (1 byte) | game payload | CRC-32 of all before (4, LE)

The payload is each game's own compact encoding; the frame only makes sure a blob
is ours, of a format we read, for a game we know, and not damaged on the way.
"""

import zlib

from core.errors import InvalidState
from core.registry import GAMES

MAGIC = b"CG"
FORMAT_VERSION = 1
GAME_CODES = {entry.name: entry.code for entry in GAMES}
_HEADER = len(MAGIC) + 2
_TRAILER = 4


def frame(game: str, payload: bytes) -> bytes:
    body = MAGIC + bytes((FORMAT_VERSION, GAME_CODES[game])) + payload
    return body + zlib.crc32(body).to_bytes(_TRAILER, "little")


def unframe(blob: object) -> tuple[str, bytes]:
    """The game name and payload of a framed blob; InvalidState if it is not one."""
    if not isinstance(blob, (bytes, bytearray, memoryview)):
        raise InvalidState(f"a stored state is bytes, got {type(blob).__name__}")
    blob = bytes(blob)
    if len(blob) < _HEADER + _TRAILER or not blob.startswith(MAGIC):
        raise InvalidState("not a stored game state (bad magic or too short)")
    body, crc = blob[:-_TRAILER], blob[-_TRAILER:]
    if zlib.crc32(body).to_bytes(_TRAILER, "little") != crc:
        raise InvalidState("stored game state is damaged (checksum mismatch)")
    if body[2] != FORMAT_VERSION:
        raise InvalidState(
            f"stored game state has format version {body[2]}; this build reads {FORMAT_VERSION}")
    for game, code in GAME_CODES.items():
        if code == body[3]:
            return game, body[_HEADER:]
    raise InvalidState(f"stored game state is for an unknown game (code {body[3]})")
