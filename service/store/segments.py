"""A live game's older versions sealed in segments: sixteen entries and undos deflated
together, one list element in place of sixteen.

An entry deflated alone against the dictionary takes ~20 bytes, an undo (a turn clock's
deadline) ~28, and a list element costs a few more: a 5-player game with a clock held 9
KiB of them at its end (issue #24 asks for 8 in all). Deflated together, sixteen
versions repeat each other (the same seats, cards, deadlines but for their last digits)
and take ~21 bytes a version, both parts. The latest versions stay one element each,
so that a commit only appends, and a feed's usual read (the version before the last)
reads one element: the store seals the oldest sixteen of them once there are more than
sixteen (redis_store.py, scripts/seal.lua), so at least one is always unsealed.

The log list is then the segments, oldest first, and the unsealed entries after them;
the undos list holds the unsealed versions' undos only. A segment is SEGMENT, the
msgpack list of [entry JSON, undo] pairs, in version order, packed as an entry is
(entries.py: the dictionary's number, then raw deflate against it). Its first byte tells it from an entry,
which starts with its dictionary's number (1) or, logged before packing existed, "{".
"""

from collections.abc import Iterable

import msgspec

from service.store import entries

SEGMENT = 0xF0          # a segment's first byte
VERSIONS = 16           # versions a segment seals


def seal(log: list[bytes], undos: list[bytes]) -> bytes:
    """The segment of these versions' entries (as the log keeps them) and undos."""
    pairs = [[entries.unpack(entry), undo] for entry, undo in zip(log, undos, strict=True)]
    return bytes((SEGMENT,)) + entries.pack(msgspec.msgpack.encode(pairs))


def is_segment(element: bytes) -> bool:
    return element[:1] == bytes((SEGMENT,))


def segments_in(log: Iterable[bytes]) -> int:
    """How many elements of a log list (as read whole) are segments: they come first."""
    count = 0
    for element in log:
        if not is_segment(element):
            break
        count += 1
    return count


def expand(log: list[bytes]) -> tuple[list[bytes], list[bytes]]:
    """A log list as read whole: every version's entry JSON, and the undos sealed in its
    segments (those of the versions from 1 to the last sealed)."""
    found, undos = [], []
    for element in log:
        if is_segment(element):
            for entry, undo in msgspec.msgpack.decode(entries.unpack(element[1:]),
                                                      type=list[tuple[bytes, bytes]]):
                found.append(entry)
                undos.append(undo)
        else:
            found.append(entries.unpack(element))
    return found, undos


def entries_of(log: list[bytes]) -> list[bytes]:
    """Every version's entry JSON, from a log list as read whole."""
    return expand(log)[0]
