"""A log entry as the live store keeps it: deflated with a preset dictionary.

An entry is ~120 bytes of JSON, most of it the same words in every entry ("version",
"seat", "kind":"move", the card names, the time's date): deflated alone it barely
shrinks, deflated against a dictionary of sample entries (entries-1.zdict, written by
loadtests/log_dictionary.py) it takes ~20 bytes, and the log is most of what a game
keeps in Redis (docs/benchmarks.md, "Redis per game").

A packed entry is one byte naming its dictionary, then raw deflate. An entry logged
before packing existed is its JSON as is, which starts with "{": it reads as it is.
The dictionary is data about what entries look like, not rules: a game it has never
seen packs less well, and reads back the same.
"""

import zlib
from functools import cache
from importlib.resources import files

PACKED_WITH = 1  # the dictionary new entries are packed with (never reused once written)


@cache
def _dictionary(number: int) -> bytes:
    return files("service.store").joinpath(f"entries-{number}.zdict").read_bytes()


def pack(entry: bytes) -> bytes:
    """entry (its JSON) as the store keeps it."""
    deflate = zlib.compressobj(9, zlib.DEFLATED, -15, 9, zlib.Z_DEFAULT_STRATEGY,
                               _dictionary(PACKED_WITH))
    return bytes((PACKED_WITH,)) + deflate.compress(entry) + deflate.flush()


def unpack(kept: bytes) -> bytes:
    """The JSON of an entry as the store keeps it (packed, or as logged before)."""
    if kept[:1] == b"{":
        return kept
    inflate = zlib.decompressobj(-15, _dictionary(kept[0]))
    return inflate.decompress(kept[1:]) + inflate.flush()
