"""A tournament from its entry window to its final standings, on every replica.

Made with its format and entry window (`entry`); players enter and withdraw until the
window closes (or its owner starts it); then, round by round, the pairings are made
(pairings.py), every game of the round is made by the server and announced on each
entrant's stream, and once every table of the round is over, the next round is paired
from the standings (standings.py), until the last round ends and the final standings are
kept in the database for good.

Every replica runs the same loop over the tournaments under way, and any of them may die
at any step (storage.py says how each step is written once):
- a round is written by the one transaction that moves the tournament's round on
  (compare-and-set): of two replicas pairing the same round, one writes it, the other
  writes nothing;
- a game's row is written with its round, before the game is made; the game is made
  under its own id (`<tournament>-<round>-<table>-<game>`), which the store refuses a
  second time, with its seed and seats' tokens derived (HMAC) from the tournament's
  secret, so a game made again after a death is the same game; a game written but not in
  the store is made on the next pass;
- its ranks are written once (`ended_ms IS NULL`), the table's results with its last;
- every event carries a once-key, so nobody is told twice.

A table's games: `deals` deals; with `duplicate`, each deal once per rotation of the
seats (the same cards in every rotation), so each entrant plays each seat of each deal;
without, one game a deal, the seats turning from deal to deal. A seat whose clock runs
out is played by the AI (the clock's policy, `on_timeout: ai`), so every game ends and
every round with it.

The loop passes when a game was archived here (the archive's ingest rings its bell),
when a tournament changes (its bell, on every replica), every RUNNING_SECONDS while one
runs, and when the next entry window closes.
"""

import base64
import hashlib
import hmac
import logging
import math
import secrets
import time
from dataclasses import asdict, dataclass
from typing import Any

import msgspec

from service.arena import judging
from service.arena.estimates import JUDGE, Judge
from service.arena.seating import Contestant, Table, make_game, started_event
from service.arena.series import seating
from service.games.robots import Robots
from service.games.sessions import GameExists, GameNotFound, Session, Sessions
from service.players.events import PlayerEvents
from service.replica.background import Background
from service.replica.wakeups import LONGEST_SECONDS, Bell
from service.sql.database import DatabaseUnavailable
from service.store import Bells, StoreUnavailable
from service.tournaments import pairings, verdicts
from service.tournaments.bodies import Estimates
from service.tournaments.errors import (EntrantNotFound, EntryClosed, ForbiddenEntrant,
                                        InvalidTournament, NotTournamentOwner,
                                        TournamentClosed, TournamentFull, TournamentNotFound)
from service.tournaments.events import TournamentEvents
from service.tournaments.standings import Standing, TableResult, bye, shown, standings, \
    table_results
from service.tournaments.storage import (Entrant, GameRow, Outcome, Round, TableEnd, TableRow,
                                         TournamentBook, TournamentRow)

log = logging.getLogger("service.tournaments")

RUNNING_SECONDS = 5.0     # between passes while a tournament runs and no game ends
A_PASS = 16               # tournaments one pass looks at (the oldest first)
MOST_ENTRANTS = 1024
CACHED = 64               # standings kept computed, by tournament and revision


class Spec(msgspec.Struct, kw_only=True):
    """What a tournament's games are (kept as JSON in its row)."""
    rounds: int | None      # Swiss: asked; round robin: from its entrants, at the start
    deals: int
    duplicate: bool
    turn_seconds: int
    options: dict | None
    estimates: Estimates = "paired"
    judge: Judge | None = None   # fixed when made, with `estimates: judged` only


@dataclass(frozen=True)
class Board:
    """What a read shows of the play: the standings, and each finished table's pairings."""
    standings: list[dict[str, Any]]
    pairings: list[dict[str, Any]]


def spec_of(row: TournamentRow) -> Spec:
    return msgspec.convert(row.spec, Spec)


def derived(secret: str, purpose: str) -> bytes:
    return hmac.new(secret.encode(), purpose.encode(), hashlib.sha256).digest()


def games_a_table(spec: Spec, players: int) -> int:
    return spec.deals * players if spec.duplicate else spec.deals


def rotations_of(spec: Spec, players: int) -> int:
    """The games of a table that share a deal's cards (a series' rotations)."""
    return players if spec.duplicate else 1


def seats_of(table: list[str], rotation: int) -> list[str]:
    """Each seat's entrant in a game of the table at rotation (as a series seats its
    contestants: series.seating)."""
    return [table[i] for i in seating(len(table), rotation)]


class TournamentRunner(Background):
    def __init__(self, sessions: Sessions, robots: Robots, player_events: PlayerEvents,
                 events: TournamentEvents, book: TournamentBook, store: Bells) -> None:
        self.sessions = sessions
        self.robots = robots
        self.player_events = player_events
        self.events = events
        self.book = book
        self.bell = Bell(store, "tournaments")
        self._boards: dict[tuple[str, int], Board] = {}

    # -- requests ------------------------------------------------------------------

    async def create(self, owner: Contestant, game: str, players: int, tournament_format: str,
                     spec: Spec, entry_seconds: int,
                     entrants: list[Contestant]) -> TournamentRow:
        if tournament_format == "round-robin" and spec.rounds is not None:
            raise InvalidTournament("a round robin's rounds follow from its entrants (every"
                                    " pairing once): leave `rounds` out")
        if tournament_format == "swiss" and spec.rounds is None:
            spec.rounds = 5
        # fixed now, as a series' judge: a judge chosen after the results could pick them
        spec.judge = JUDGE if spec.estimates == "judged" else None
        others = [c.id for c in entrants if c.level is None and c.id != owner.id]
        if others:
            raise ForbiddenEntrant(f"{others[0]} is another player: a tournament is made"
                                   " with AI levels and the key's own player; any other"
                                   " player enters it with its own key")
        if len({c.id for c in entrants}) != len(entrants):
            raise InvalidTournament("an entrant is named twice: each enters once")
        # Its games are checked before anything is kept: the core's rules, the limits,
        # and each AI level entered, at a table of its own.
        seats = [Contestant(f"seat-{i}", "", "bot") for i in range(players)]
        Table(game, spec.options, seats, spec.turn_seconds, rated=False).check(self.sessions)
        for entrant in entrants:
            self._check_ai(game, spec, players, entrant)
        now = int(time.time() * 1000)
        row = TournamentRow(
            id="t_" + secrets.token_urlsafe(12), owner=owner.id, game=game, players=players,
            format=tournament_format, spec=msgspec.to_builtins(spec),
            secret=secrets.token_hex(32), status="entry", round=0, rounds=spec.rounds,
            revision=0, created_ms=now, starts_ms=now + entry_seconds * 1000,
            finished_ms=None, standings=None)
        await self.book.create(row, [Entrant(c.id, c.name, c.kind, now + i)
                                     for i, c in enumerate(entrants)])
        await self.bell.ring()  # every replica's loop now knows when its entry closes
        return await self.get(row.id)

    async def get(self, tournament_id: str) -> TournamentRow:
        found = await self.book.get(tournament_id)
        if found is None:
            raise TournamentNotFound(tournament_id)
        return found

    async def enter(self, me: Contestant, tournament_id: str,
                    entrant: Contestant) -> TournamentRow:
        row = await self.get(tournament_id)
        self._may_enter(me, row, entrant)
        self._check_ai(row.game, spec_of(row), row.players, entrant)
        answer = await self.book.enter(row.id, Entrant(entrant.id, entrant.name, entrant.kind,
                                                       int(time.time() * 1000)), MOST_ENTRANTS)
        if answer == "closed":
            raise EntryClosed(f"tournament {row.id} no longer takes entries: it is"
                              f" {(await self.get(row.id)).status}")
        if answer == "full":
            raise TournamentFull(f"tournament {row.id} has {MOST_ENTRANTS} entrants already")
        if answer == "entered":
            await self.events.push(row.id, "entrant_joined", {"entrant": self._named(entrant)})
        return await self.get(row.id)

    async def withdraw(self, me: Contestant, tournament_id: str, entrant_id: str) -> TournamentRow:
        row = await self.get(tournament_id)
        if entrant_id != me.id and me.id != row.owner:
            raise ForbiddenEntrant(f"{entrant_id} is not the key's player: a player withdraws"
                                   " itself, the tournament's owner anyone")
        answer = await self.book.leave(row.id, entrant_id)
        if answer == "closed":
            raise EntryClosed(f"tournament {row.id} has started: its entrants play it out")
        if answer == "absent":
            raise EntrantNotFound(f"{entrant_id} has not entered tournament {row.id}")
        await self.events.push(row.id, "entrant_left", {"entrant": entrant_id})
        return await self.get(row.id)

    async def start_now(self, me: Contestant, tournament_id: str) -> TournamentRow:
        row = await self._owned(me, tournament_id, "start")
        if row.status == "entry":
            await self.book.open_now(row.id, int(time.time() * 1000))
            await self.advance(await self.get(row.id))
            await self.bell.ring()
        return await self.get(row.id)

    async def cancel(self, me: Contestant, tournament_id: str) -> TournamentRow:
        row = await self._owned(me, tournament_id, "cancel")
        if await self.book.close(row.id, "cancelled", int(time.time() * 1000), None,
                                 from_status=("entry", "running")):
            await self._ended(row, "cancelled", None)
        return await self.get(row.id)

    async def _owned(self, me: Contestant, tournament_id: str, what: str) -> TournamentRow:
        row = await self.get(tournament_id)
        if row.owner != me.id:
            raise NotTournamentOwner(f"only the player who made tournament {row.id} may"
                                     f" {what} it; this key's player did not")
        if row.status in ("finished", "cancelled"):
            raise TournamentClosed(f"tournament {row.id} is {row.status}")
        return row

    def _check_ai(self, game: str, spec: Spec, players: int, entrant: Contestant) -> None:
        """BudgetRefused for an AI level this server does not play (AI_MAX_ITERATIONS)."""
        if entrant.level is not None:
            Table(game, spec.options, [entrant] * players, spec.turn_seconds,
                  rated=False).check(self.sessions)

    @staticmethod
    def _may_enter(me: Contestant, row: TournamentRow, entrant: Contestant) -> None:
        if entrant.level is not None and me.id != row.owner:
            raise NotTournamentOwner(f"only the player who made tournament {row.id} enters"
                                     " AI levels in it")
        if entrant.level is None and entrant.id != me.id:
            raise ForbiddenEntrant(f"{entrant.id} is not the key's player: each player"
                                   " enters with its own key")

    @staticmethod
    def _named(entrant: Contestant | Entrant) -> dict[str, str]:
        return {"id": entrant.id, "name": entrant.name, "kind": entrant.kind}

    # -- standings -------------------------------------------------------------------

    async def board(self, row: TournamentRow) -> Board:
        """The standings at the row's revision (the final ones once finished), and every
        finished table's pairings; kept computed by revision, which each change moves."""
        key = (row.id, row.revision)
        found = self._boards.get(key)
        if found is None:
            tables = await self.book.tables(row.id)
            found = Board(row.standings if row.standings is not None
                          else await self._shown(row, tables),
                          [p for table in tables for p in table.pairings or ()])
            if len(self._boards) >= CACHED:
                self._boards.pop(next(iter(self._boards)))
            self._boards[key] = found
        return found

    async def _shown(self, row: TournamentRow, tables: list[TableRow]) -> list[dict[str, Any]]:
        entrants = await self.book.entrants(row.id)
        names = {e.id: {"name": e.name, "kind": e.kind} for e in entrants}
        return [shown(standing, names) for standing in self._ordered(row, entrants, tables)]

    @staticmethod
    def _ordered(row: TournamentRow, entrants: list[Entrant],
                 tables: list[TableRow]) -> list[Standing]:
        results = [TableResult(**found) for table in tables for found in table.results or ()]
        return standings([e.id for e in entrants], results, row.format)

    # -- every replica's loop --------------------------------------------------------

    async def _run(self) -> None:
        while True:
            wake = math.inf
            try:
                rows = await self.book.active(int(time.time() * 1000), A_PASS)
                for row in rows:
                    await self.advance(row)
                if rows:
                    wake = time.time() + RUNNING_SECONDS
                next_start = await self.book.next_start_ms()
                if next_start is not None:
                    wake = min(wake, next_start / 1000)
            except (StoreUnavailable, DatabaseUnavailable) as error:
                log.warning("tournaments paused: %s", error)
                wake = time.time() + RUNNING_SECONDS
            except Exception:
                log.exception("tournament pass failed")
                wake = time.time() + RUNNING_SECONDS
            await self.bell.sleep_until(wake, LONGEST_SECONDS)

    async def advance(self, row: TournamentRow) -> None:
        """Starts a tournament whose entry closed; records the games of its round that
        ended; pairs the next round once every table is over; finishes it after the last."""
        if row.status == "entry" and row.starts_ms <= time.time() * 1000:
            await self._begin(row)
            return
        if row.status != "running":
            return
        playing = False
        for game in await self.book.games(row.id, row.round, unfinished_only=True):
            playing |= not await self._settle(row, game)
        if playing:
            return
        tables = await self.book.tables(row.id)
        if any(table.ended_ms is None for table in tables if table.round == row.round):
            return  # a game of the round was written after the read above
        entrants = await self.book.entrants(row.id)
        ordered = self._ordered(row, entrants, tables)
        names = {e.id: {"name": e.name, "kind": e.kind} for e in entrants}
        final = [shown(standing, names) for standing in ordered]
        await self.events.push(row.id, "round_finished", {"round": row.round,
                                                          "standings": final},
                               once=f"round-end:{row.round}")
        if row.round >= (row.rounds or 0):
            if await self.book.close(row.id, "finished", int(time.time() * 1000), final,
                                     from_status=("running",), at_round=row.round):
                await self._ended(row, "finished", final)
            return
        await self._pair(row, row.round + 1, row.rounds or 0, entrants, tables, ordered)

    async def _begin(self, row: TournamentRow) -> None:
        entrants = await self.book.entrants(row.id)
        if len(entrants) < max(2, row.players):
            if await self.book.close(row.id, "cancelled", int(time.time() * 1000), None,
                                     from_status=("entry",)):
                await self._ended(row, "cancelled", None,
                                  reason=f"{len(entrants)} entrants: a table needs {row.players}")
            return
        rounds = row.rounds if row.format == "swiss" else \
            pairings.round_robin_rounds(len(entrants), row.players)
        ordered = self._ordered(row, entrants, [])
        await self._pair(row, 1, rounds or 1, entrants, [], ordered)

    async def _pair(self, row: TournamentRow, number: int, rounds: int, entrants: list[Entrant],
                    tables: list[TableRow], ordered: list[Standing]) -> None:
        """Pairs round `number` and, if this replica wrote it, makes its games."""
        met: pairings.Met = {}
        for table in tables:
            for entrant in table.entrants:
                met.setdefault(entrant, set()).update(e for e in table.entrants if e != entrant)
        had_bye = {e for table in tables if table.bye for e in table.entrants}
        if row.format == "swiss":
            seated, byes = pairings.swiss([s.entrant for s in ordered], row.players, met,
                                          had_bye)
        else:
            seated, byes = pairings.round_robin([e.id for e in entrants], number, row.players,
                                                met)
        made = self._round(row, number, seated, byes)
        if not await self.book.begin_round(row.id, number - 1, rounds, made):
            return  # another replica paired it
        self._boards.clear()
        if number == 1:
            await self._tell_entrants(row, entrants, "tournament_started", {
                "tournament": row.id, "rounds": rounds, "url": f"/v1/tournaments/{row.id}"},
                once=f"tournament-start:{row.id}")
            await self.events.push(row.id, "tournament_started", {
                "rounds": rounds, "entrants": [self._named(e) for e in entrants]},
                once="start")
        await self.events.push(row.id, "round_started", {"round": number, "tables": [
            {"table": t.index, "entrants": t.entrants, "bye": t.bye,
             "games": [g.game_id for g in made.games if g.table == t.index]}
            for t in made.tables]}, once=f"round-start:{number}")
        names = {e.id: e for e in entrants}
        for game in made.games:
            await self._make(row, game, made.tables[game.table].entrants, names)
        await self.bell.ring()

    def _round(self, row: TournamentRow, number: int, seated: list[list[str]],
               byes: list[str]) -> Round:
        spec = spec_of(row)
        now = int(time.time() * 1000)
        tables = [TableRow(number, i, entrants, False, None, None)
                  for i, entrants in enumerate(seated)]
        tables += [TableRow(number, len(seated) + i, [entrant], True, now,
                            [asdict(bye(number, entrant))]) for i, entrant in enumerate(byes)]
        games = []
        for table in tables[:len(seated)]:
            for index in range(games_a_table(spec, row.players)):
                deal, rotation = divmod(index, row.players) if spec.duplicate else \
                    (index, index % row.players)
                games.append(GameRow(number, table.index, index,
                                     f"{row.id}-{number}-{table.index}-{index}", deal,
                                     rotation, now, None, None))
        return Round(number, tables, games)

    def _seed(self, row: TournamentRow, game: GameRow) -> int:
        unit = f"deal {game.round} {game.table} {game.deal}" if spec_of(row).duplicate \
            else f"game {game.game_id}"
        return int.from_bytes(derived(row.secret, unit)[:8], "big") >> 1

    def _token(self, row: TournamentRow, game: GameRow, seat: int) -> str:
        return base64.urlsafe_b64encode(derived(row.secret, f"token {game.game_id} {seat}")
                                        ).decode().rstrip("=")

    async def _make(self, row: TournamentRow, game: GameRow, table: list[str],
                    names: dict[str, Entrant]) -> None:
        """Makes the game (unless made) and tells its players their seats, once each."""
        spec = spec_of(row)
        seats = [Contestant(e, names[e].name, names[e].kind) for e in seats_of(table, game.rotation)]
        tokens = [None if seat.level is not None else self._token(row, game, s)
                  for s, seat in enumerate(seats)]
        made = Table(row.game, spec.options, seats, spec.turn_seconds, rated=False,
                     seed=self._seed(row, game))
        try:
            session = await make_game(self.sessions, self.robots, made, game.game_id, tokens)
        except GameExists:
            session = await self.sessions.load(game.game_id)
        for seat, (contestant, token) in enumerate(zip(seats, tokens)):
            if token is not None:
                await self.player_events.push(contestant.id, "game_started", started_event(
                    session, seat, token, tournament=row.id, round=game.round,
                    table=game.table, deal=game.deal, rotation=game.rotation),
                    once=f"started:{game.game_id}")

    async def _settle(self, row: TournamentRow, game: GameRow) -> bool:
        """Whether the game is over (its ranks then written, once); a game whose replica
        died before making it is made now."""
        try:
            session = await self.sessions.load(game.game_id)
        except GameNotFound:
            table = next(t for t in await self.book.tables(row.id, game.round)
                         if t.index == game.table)
            names = {e.id: e for e in await self.book.entrants(row.id)}
            await self._make(row, game, table.entrants, names)
            return False
        if session.status != "over":
            return False
        table = await self._table_of(row, game)
        outcome = await self._outcome(row, session, table, game.rotation)
        rotations = rotations_of(spec_of(row), row.players)

        def ended(found: TableRow, games: list[GameRow]) -> TableEnd:
            ranks = [g.ranks for g in games if g.ranks is not None]
            return TableEnd(
                [asdict(r) for r in table_results(found.round, found.entrants, ranks)],
                verdicts.pairings(found.round, found.index, found.entrants, games, rotations))

        done = await self.book.end_game(row.id, game, int(time.time() * 1000), outcome, ended)
        if isinstance(done, TableEnd):
            self._boards.clear()
            await self.events.push(row.id, "table_finished", {
                "round": game.round, "table": game.table, "results": [
                    {k: v for k, v in found.items() if k != "round"} for found in done.results],
                "pairings": done.pairings}, once=f"table-end:{game.round}:{game.table}")
        return True

    async def _outcome(self, row: TournamentRow, session: Session, table: list[str],
                       rotation: int) -> Outcome:
        """The game's ranks and points by entrant, and with judged estimates the luck the
        series' judge finds in it (seconds of CPU a game, docs/arena.md), by the table's
        entrants: what a series computes when it settles a game, the same way."""
        who = seating(len(table), rotation)   # the entrant (its index at the table) of each seat
        ranks, scores = judging.ranks_and_points(session, who)
        spec = spec_of(row)
        luck = None
        if spec.judge is not None:
            names = {e.id: e for e in await self.book.entrants(row.id)}
            mates = [Contestant(e, names[e].name, names[e].kind) for e in table]
            initial, entries = await self.sessions.beginning(session)
            luck = await judging.luck(spec.judge, self.robots, session, mates, who, initial,
                                      entries, spec.options)
        return Outcome({table[i]: rank for i, rank in ranks.items()},
                       None if scores is None else {table[i]: p for i, p in scores.items()},
                       luck)

    async def _table_of(self, row: TournamentRow, game: GameRow) -> list[str]:
        tables = await self.book.tables(row.id, game.round)
        return next(t.entrants for t in tables if t.index == game.table)

    async def _ended(self, row: TournamentRow, status: str,
                     final: list[dict[str, Any]] | None, reason: str | None = None) -> None:
        kind = "tournament_finished" if status == "finished" else "tournament_cancelled"
        await self.events.push(row.id, kind, {"status": status, "standings": final,
                                              **({"reason": reason} if reason else {})},
                               once="end")
        entrants = await self.book.entrants(row.id)
        ranks = {s["entrant"]: s["rank"] for s in final or ()}
        for entrant in entrants:
            if entrant.kind != "ai":
                await self.player_events.push(entrant.id, "tournament_finished", {
                    "tournament": row.id, "status": status, "rank": ranks.get(entrant.id),
                    "url": f"/v1/tournaments/{row.id}"}, once=f"tournament-end:{row.id}")
        self._boards.clear()

    async def _tell_entrants(self, row: TournamentRow, entrants: list[Entrant], kind: str,
                             body: dict[str, Any], once: str) -> None:
        await self.player_events.push_all([e.id for e in entrants if e.kind != "ai"],
                                          kind, body, once=once)  # type: ignore[arg-type]
