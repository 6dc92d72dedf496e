"""The archive's schema, once for PostgreSQL and SQLite (migrations/ makes it in a database).

One row per finished game. What queries filter and order on (the game, when it ended,
who played it) are columns; the rest of the record is one JSON document, written once at
ingest exactly as the export and the API give it, so that reading a game back is a read
of one row and no re-encoding. Times are epoch milliseconds: exact, portable, and the
cursor of every page.

Portable on purpose: no column type, index or constraint that PostgreSQL-compatible
distributed engines (CockroachDB, YugabyteDB, Citus) lack (docs/archive.md says how the
table is partitioned at that scale).
"""

from sqlalchemy import (
                        BigInteger,
                        Boolean,
                        Column,
                        Float,
                        Index,
                        Integer,
                        LargeBinary,
                        MetaData,
                        String,
                        Table,
                        Text,
                        UniqueConstraint,
)

metadata = MetaData()

games = Table(
    "archived_games", metadata,
    Column("id", String(64), primary_key=True),
    Column("game", String(40), nullable=False),
    Column("players", Integer, nullable=False),
    Column("seeded", Boolean, nullable=False),    # a creator chose the deal's seed
    Column("reason", String(16), nullable=False),  # finished (played out) or forfeit
    Column("created_ms", BigInteger, nullable=False),
    Column("ended_ms", BigInteger, nullable=False),
    Column("archived_ms", BigInteger, nullable=False),
    Column("version", Integer, nullable=False),    # the live game's last version
    Column("document", Text, nullable=False),      # the public record (JSON), as exported
    # What the service needs to answer for the game as it did live, and what the core
    # needs to play it again: the final state and metadata, and the state it began in.
    Column("state", LargeBinary, nullable=False),
    Column("meta", LargeBinary, nullable=False),
    Column("initial", LargeBinary, nullable=False),
    # A rated game's place in the order ratings were updated in (service.archive.rating):
    # rebuilding every rating replays the rated games in this order.
    Column("rated_order", BigInteger, nullable=True),
    UniqueConstraint("rated_order", name="archived_games_rated_order"),
    Index("archived_games_by_end", "ended_ms", "id"),
    Index("archived_games_by_game", "game", "ended_ms", "id"),
)

# A player: a person or a bot with a secret key (only its hash is kept), or an AI level
# (id "ai-<level>", no key). Made by POST /v1/players.
players = Table(
    "players", metadata,
    Column("id", String(32), primary_key=True),
    Column("name", String(64), nullable=False),
    Column("kind", String(8), nullable=False),          # human, bot or ai
    Column("key_hash", String(64), nullable=True, unique=True),
    Column("created_ms", BigInteger, nullable=False),
    Column("last_seen_ms", BigInteger, nullable=True),  # when a game of theirs last ended
)

# A player's standing in one game: every archived game they sat in counted, the rated
# ones rated. mu and sigma are the rating model's; conservative is mu - 3 sigma, the
# leaderboard's order among the ranked (those with enough rated games).
standings = Table(
    "standings", metadata,
    Column("player_id", String(32), primary_key=True),
    Column("pool", String(40), primary_key=True),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("conservative", Float, nullable=False),
    Column("rated_games", Integer, nullable=False),
    Column("games", Integer, nullable=False),
    Column("wins", Integer, nullable=False),
    Column("ranked", Boolean, nullable=False),
    Column("bucket", Integer, nullable=False),        # floor(conservative x 10): rank_counts'
    Column("recent", Text, nullable=False),           # the last rated games' ratings (JSON)
    Index("standings_leaderboard", "pool", "ranked", "conservative", "player_id"),
    Index("standings_by_bucket", "pool", "ranked", "bucket", "conservative", "player_id"),
)

# How many ranked standings each tenth of a point of `conservative` holds, per pool: a rank
# is the sum of the buckets above plus a count within one bucket, never a count of
# everyone above (which took 20 ms deep in a board of 100,000).
rank_counts = Table(
    "rank_counts", metadata,
    Column("pool", String(40), primary_key=True),
    Column("bucket", Integer, primary_key=True),
    Column("ranked", Integer, nullable=False),
)

# Who sat in each archived game, for a player's games and the export's player filter.
game_players = Table(
    "game_players", metadata,
    Column("game_id", String(64), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("player_id", String(32), nullable=False),
    Column("game", String(40), nullable=False),
    Column("ended_ms", BigInteger, nullable=False),
    Column("rank", Integer, nullable=False),
    Index("game_players_by_player", "player_id", "ended_ms", "game_id"),
)

# Each rating change a rated game made: a profile's chart, and what a rebuild compares.
rating_changes = Table(
    "rating_changes", metadata,
    Column("game_id", String(64), primary_key=True),
    Column("player_id", String(32), primary_key=True),
    Column("pool", String(40), nullable=False),
    Column("rated_order", BigInteger, nullable=False),
    Column("ended_ms", BigInteger, nullable=False),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Index("rating_changes_by_player", "player_id", "pool", "rated_order"),
)

# A finished game the database refused to archive (an integrity or data error of that
# game alone), set aside so that the drain goes on: `python -m service.archive refused`
# lists them, `... retry` writes them again (docs/archive.md). Kept here rather than in
# the live store: the embedded store is out of a command's reach, and the live store
# forgets a game; and in a table with nothing to refuse (no constraint but the id, the
# whole ArchivedGame one blob: `record`), so that setting a game aside cannot fail as
# its record did.
refused_games = Table(
    "refused_games", metadata,
    Column("id", Text, primary_key=True),
    Column("ended_ms", BigInteger, nullable=False),
    Column("refused_ms", BigInteger, nullable=False),
    Column("attempts", Integer, nullable=False),      # writes refused, the drain's first
    Column("error", Text, nullable=False),            # the database's words, the last time
    Column("record", LargeBinary, nullable=False),    # the ArchivedGame (msgpack)
)

# A series of the arena (service/arena/series.py): its contestants and format (`spec`,
# JSON), the secret its deals' seeds and seats' tokens are derived from (never shown), and
# how far it has got.
series = Table(
    "series", metadata,
    Column("id", String(32), primary_key=True),
    Column("owner", String(32), nullable=False),      # the player who asked for it
    Column("game", String(40), nullable=False),
    Column("players", Integer, nullable=False),
    Column("spec", Text, nullable=False),
    Column("secret", String(64), nullable=False),
    Column("status", String(12), nullable=False),     # running, finished or cancelled
    Column("games_total", Integer, nullable=False),
    Column("games_done", Integer, nullable=False),
    Column("created_ms", BigInteger, nullable=False),
    Column("finished_ms", BigInteger, nullable=True),
    Index("series_by_status", "status", "created_ms"),
    Index("series_by_owner", "owner", "created_ms"),
)

# Each game of a series, from when it is started: which deal, which rotation of the seats,
# and once it is over its outcome (JSON: each contestant's rank and moves' thinking times).
series_games = Table(
    "series_games", metadata,
    Column("series_id", String(32), primary_key=True),
    Column("game_index", Integer, primary_key=True),
    Column("deal", Integer, nullable=False),
    Column("rotation", Integer, nullable=False),
    Column("game_id", String(64), nullable=False, unique=True),
    Column("started_ms", BigInteger, nullable=False),
    Column("ended_ms", BigInteger, nullable=True),
    Column("outcome", Text, nullable=True),
)

# A finished game's review for one seat (service.reviews.review): requested once, computed by one
# replica at a time under a lease (lease_until_ms: another replica takes it over once it
# lapses, so a replica dying mid-review delays it, never loses it), then kept for good.
# document holds the decisions reviewed so far (JSON), the whole review once done.
reviews = Table(
    "reviews", metadata,
    Column("game_id", String(64), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("status", String(8), nullable=False),     # queued, running or done
    Column("done", Integer, nullable=False),         # decisions reviewed so far
    Column("total", Integer, nullable=True),         # decisions to review, once counted
    Column("level", Integer, nullable=False),        # the AI level that reviews
    Column("requested_ms", BigInteger, nullable=False),
    Column("holder", String(32), nullable=True),     # the replica's claim, while it lasts
    Column("lease_until_ms", BigInteger, nullable=False),  # 0: nobody holds it
    Column("document", Text, nullable=False),
    Index("reviews_waiting", "status", "requested_ms"),
)

# A tournament (service/tournaments/): its format and what its games are (`spec`, JSON),
# the secret its deals' seeds and seats' tokens are derived from (never shown), the round
# being played, and once finished its final standings (JSON), kept for good. `revision`
# moves with every change anyone could see (an entrant, a table finished, a round): the
# ETag of its reads.
tournaments = Table(
    "tournaments", metadata,
    Column("id", String(32), primary_key=True),
    Column("owner", String(32), nullable=False),
    Column("game", String(40), nullable=False),
    Column("players", Integer, nullable=False),       # at each table
    Column("format", String(12), nullable=False),     # swiss or round-robin
    Column("spec", Text, nullable=False),
    Column("secret", String(64), nullable=False),
    Column("status", String(12), nullable=False),     # entry, running, finished, cancelled
    Column("round", Integer, nullable=False),         # 0 before the start
    Column("rounds", Integer, nullable=True),         # fixed at the start
    Column("revision", Integer, nullable=False),
    Column("created_ms", BigInteger, nullable=False),
    Column("starts_ms", BigInteger, nullable=False),  # the entry window closes
    Column("finished_ms", BigInteger, nullable=True),
    Column("standings", Text, nullable=True),
    Index("tournaments_by_status", "status", "starts_ms"),
)

# Who entered a tournament (and has not left before its start).
tournament_entrants = Table(
    "tournament_entrants", metadata,
    Column("tournament_id", String(32), primary_key=True),
    Column("entrant_id", String(32), primary_key=True),
    Column("name", String(64), nullable=False),
    Column("kind", String(8), nullable=False),
    Column("entered_ms", BigInteger, nullable=False),
)

# Each table of each round, written with its round: who sits there (JSON, in seat order of
# its first game) or who has a bye, and once its games are over each entrant's result and
# the crosstable of each pair of table-mates (JSON, service/tournaments/verdicts.py).
tournament_tables = Table(
    "tournament_tables", metadata,
    Column("tournament_id", String(32), primary_key=True),
    Column("round", Integer, primary_key=True),
    Column("table_index", Integer, primary_key=True),
    Column("entrants", Text, nullable=False),
    Column("bye", Boolean, nullable=False),
    Column("ended_ms", BigInteger, nullable=True),
    Column("results", Text, nullable=True),
    Column("pairings", Text, nullable=True),
)

# Each game of a table, written with its round, before it is made; its ranks once over,
# with its points (where the game scores them) and, where the tournament asked for judged
# estimates, the judge's luck by table-mate (a matrix in the table's entrants' order).
tournament_games = Table(
    "tournament_games", metadata,
    Column("tournament_id", String(32), primary_key=True),
    Column("round", Integer, primary_key=True),
    Column("table_index", Integer, primary_key=True),
    Column("game_index", Integer, primary_key=True),
    Column("game_id", String(64), nullable=False, unique=True),
    Column("deal", Integer, nullable=False),
    Column("rotation", Integer, nullable=False),
    Column("started_ms", BigInteger, nullable=False),
    Column("ended_ms", BigInteger, nullable=True),
    Column("ranks", Text, nullable=True),             # entrant -> rank (1 first), JSON
    Column("scores", Text, nullable=True),            # entrant -> points, JSON
    Column("luck", Text, nullable=True),              # [a][b], JSON
)

# A bot's webhook (service/webhooks, docs/arena.md): the URL the server calls at each of its
# seats' decisions, and the secret it signs the calls with, kept as it is (the server signs
# with it: a hash would not do; no response shows it after the one that made it). After a
# rotation the previous secret signs too, until previous_until_ms.
webhooks = Table(
    "webhooks", metadata,
    Column("player_id", String(32), primary_key=True),
    Column("url", Text, nullable=False),
    Column("secret", String(96), nullable=False),
    Column("previous_secret", String(96), nullable=True),
    Column("previous_until_ms", BigInteger, nullable=True),
    Column("updated_ms", BigInteger, nullable=False),
)
