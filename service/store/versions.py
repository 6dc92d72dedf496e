"""A game's older versions, rebuilt from what the live store keeps of them.

The store keeps one whole record, the latest; an event stream that resumes from an
older version (or a feed a few commits behind) needs each version since. Each is rebuilt:
its state by the core, which plays the log again from the state the game began in
(core.from_bytes, then apply, as service/archive/replay.py does: exact, and ~6 us a move); its
metadata by undoing, from the latest back, the change each commit made to it (kept as
an "undo": the bytes the commit replaced, empty when the metadata did not change). So
no version's whole record is kept beside the latest (issue #24: a 4-player game's
records were 88% of its 91 KiB).

A game stored before this layout (a rolling upgrade) also has a list of whole records,
one per version up to the upgrade: those versions are read from it, the later ones
rebuilt. Both stores (redis_store.py, scripts/changes.lua; memory.py) share this code;
the Redis store keeps older entries and undos sealed in segments (segments.py), which
it opens before calling it.
"""

import struct
from typing import Any

import msgspec

import core
from service.store.records import Change, GameRecord

_SPAN = struct.Struct(">HH")   # an undo's common prefix and suffix lengths
_LONGEST = 0xFFFF              # metadata longer than this is undone by keeping it whole


def undo(old: bytes, new: bytes) -> bytes:
    """What turns new back into old: empty if equal, else a zero byte, the lengths of
    their common prefix and suffix and the bytes of old between them (or old whole, if
    either is too long to count so). scripts/commit.lua makes the same."""
    if old == new:
        return b""
    if len(old) > _LONGEST or len(new) > _LONGEST:
        return old
    shortest = min(len(old), len(new))
    prefix = 0
    while prefix < shortest and old[prefix] == new[prefix]:
        prefix += 1
    suffix = 0
    while suffix < shortest - prefix and old[-1 - suffix] == new[-1 - suffix]:
        suffix += 1
    return b"\0" + _SPAN.pack(prefix, suffix) + old[prefix:len(old) - suffix]


def undone(new: bytes, change: bytes) -> bytes:
    """The metadata before the commit whose undo is change, from the metadata after it."""
    if not change:
        return new
    if change[0] != 0:
        return change
    prefix, suffix = _SPAN.unpack_from(change, 1)
    return new[:prefix] + change[1 + _SPAN.size:] + new[len(new) - suffix:]


def window(after: int, latest: int, since: int) -> int:
    """For the versions after `after` of a game at version latest whose whole records
    are kept up to version since (0 but for a game stored before this layout): the
    version the log is read after, 0 when the core must play it again (any version but
    the latest is rebuilt)."""
    return after if max(after, since) >= latest - 1 else 0


def rebuilt(after: int, latest: GameRecord, initial: bytes | None, log_from: int,
            log: list[bytes], undos: list[bytes], kept: list[GameRecord]) -> list[Change]:
    """The versions after `after`: log holds the entries (JSON) after version log_from
    (window()), undos the undos of the latest versions, at least of every version after
    the last kept one, kept the whole records of the versions after `after` that the
    store kept (an old layout's)."""
    newest = latest.version
    last_kept = after + len(kept)
    metas = {newest: latest.meta}
    for version in range(newest, last_kept, -1):
        metas[version - 1] = undone(metas[version], undos[len(undos) - newest + version - 1])
    blobs = {newest: latest.blob}
    if log_from == 0 and last_kept < newest - 1:
        blobs.update(_replayed(initial, log, last_kept, newest))
    changes = [Change(log[version - log_from - 1], record) for version, record
               in enumerate(kept, after + 1)]
    return changes + [Change(log[version - log_from - 1],
                             GameRecord(version, blobs[version], metas[version]))
                      for version in range(last_kept + 1, newest + 1)]


def _replayed(initial: bytes | None, entries: list[bytes], last_kept: int,
              newest: int) -> dict[int, bytes]:
    """The core's state after each version between last_kept and newest (excluded),
    played from the state the game began in."""
    if initial is None:
        raise ValueError("a game without its first state cannot be played again")
    state, blobs = core.from_bytes(initial), {}
    for version, raw in enumerate(entries[:newest - 1], 1):
        entry: dict[str, Any] = msgspec.json.decode(raw)
        if "move" in entry:  # joins, leaves, forfeits and rematches change no state
            state.apply(entry["seat"], entry["move"])
        if version > last_kept:
            blobs[version] = state.to_bytes()
    return blobs
