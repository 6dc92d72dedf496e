"""The arena: games that AI services arrange for their bots (docs/arena.md).

`seating` seats contestants (players and AI levels) at a new game; `challenges` are one
game offered to players and accepted by each; `series` play many deals, each once per
rotation of the seats, kept in the SQL database by `storage`, and `crosstable` says who
is stronger, with an interval, from their results; `latency` reads each bot move's
thinking time from a game's log; `controller` and `bodies` are their routes.
"""
