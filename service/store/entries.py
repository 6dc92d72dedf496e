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


# Deflate and inflate primed with their dictionary once, copied for each entry: setting
# a 16 KiB dictionary costs more than the entry itself (~65 us against ~16 us a pack).
# Level 6 and memLevel 6: as small as 9 and 9 here, and faster.
@cache
def _deflate(number: int):  # zlib names no public type for it
    return zlib.compressobj(6, zlib.DEFLATED, -15, 6, zlib.Z_DEFAULT_STRATEGY,
                            _dictionary(number))


@cache
def _inflate(number: int):  # zlib names no public type for it
    return zlib.decompressobj(-15, _dictionary(number))


def pack(entry: bytes) -> bytes:
    """entry (its JSON) as the store keeps it."""
    deflate = _deflate(PACKED_WITH).copy()
    return bytes((PACKED_WITH,)) + deflate.compress(entry) + deflate.flush()


def unpack(kept: bytes) -> bytes:
    """The JSON of an entry as the store keeps it (packed, or as logged before)."""
    if kept[:1] == b"{":
        return kept
    inflate = _inflate(kept[0]).copy()
    return inflate.decompress(kept[1:]) + inflate.flush()
