"""Writes service/store/entries-<number>.zdict: a preset dictionary log entries are
deflated with in the live store (service/store/entries.py, PACKED_WITH names which).

    python loadtests/log_dictionary.py [number, default 1]

The dictionary is sample text of what entries look like: the service's entries (their
version, seat, kind, move, what the mover observed, time) of random games of every game
and player count the core offers, played by the core, plus a join, a leave, a forfeit
and a rematch. Deflate finds its matches there, so an entry of ~120 bytes takes ~25.
It is read by the store to unpack every entry packed with it: once written it is never
changed (a new one is entries-2.zdict, and entries.py names which packs new entries).
"""

import json
import random
import sys
from pathlib import Path

import core

STORE = Path(__file__).resolve().parent.parent / "service" / "store"
SIZE = 16 * 1024     # deflate looks back 32 KiB: the entry and the dictionary fit


def entries(game: str, players: int, rng: random.Random) -> list[str]:
    """One random game's log, as the service writes it (sessions.move_entry, commit)."""
    state = core.new_game(game, players, seed=rng.randrange(1 << 30))
    found = []
    while not state.is_over:
        seat = rng.choice(list(state.to_move))
        move = rng.choice(state.legal_moves(seat))
        entry = {"version": len(found) + 1, "seat": seat, "kind": "move", "move": move}
        observed = state.observed_by(seat)
        if observed is not None:
            entry["observed"] = observed
        state.apply(seat, move)
        entry["at"] = f"2026-12-01T{rng.randrange(24):02d}:{rng.randrange(60):02d}:" \
                      f"{rng.randrange(60):02d}.{rng.randrange(1000):03d}Z"
        found.append(json.dumps(entry, separators=(",", ":")))
    return found


def main() -> None:
    out = STORE / f"entries-{int(sys.argv[1]) if len(sys.argv) > 1 else 1}.zdict"
    rng = random.Random(24)
    logs = [entries(game, players, rng) for _ in range(3)
            for game in core.GAMES for players in core.PLAYERS[game]]
    others = ['{"version":1,"seat":1,"kind":"join","name":"Ann","at":"2026-12-01T10:00:00.000Z"}',
              '{"version":2,"seat":1,"kind":"leave","name":null,"at":"2026-12-01T10:00:00.000Z"}',
              '{"version":9,"seat":0,"kind":"forfeit","at":"2026-12-01T10:00:00.000Z"}',
              '{"version":40,"seat":0,"kind":"rematch","next_game":"","at":"2026-12-01T1']
    # Entries of every game in a random order, up to SIZE bytes; the other kinds last
    # (deflate codes nearer matches in fewer bits).
    pool = [entry for log in logs for entry in log]
    rng.shuffle(pool)
    text = "".join(others).encode()
    for entry in pool:
        if len(text) + len(entry) > SIZE:
            break
        text = entry.encode() + text
    out.write_bytes(text)
    print(f"{out}: {out.stat().st_size} bytes")


if __name__ == "__main__":
    main()
