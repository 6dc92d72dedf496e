"""Game sessions over a Store: creation, seat tokens, views, moves and history.

Everything game-specific is asked of `core` through its shared interface; this module
only knows versions, tokens and who may see what the core says they may see.
"""

import hashlib
import hmac
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import msgspec

import core
from service.archive.outbox import Outbox
from service.archive.storage import Archive, ArchivedGame
from service.games.limits import GameLimits
from service.games.meta import Clock, Meta
from service.games.requests import Budget, CreateGame, MoveRequest
from service.http.credentials import new_secret, secret_hash
from service.http.errors import ApiError
from service.http.instants import iso_time
from service.http.rate_limits import SeatBudget
from service.lobby.deadlines import Deadlines
from service.players.storage import Player, Players
from service.replica import tracing
from service.sql.database import DatabaseUnavailable
from service.store import Commit, GameRecord, Store, StoreUnavailable, keys

MAX_COMMIT_ATTEMPTS = 8  # retries of a move whose client gave no expected_version

# The seats of a new game a bot's webhook plays, from each seat's player (None: unbound).
WebhookSeats = Callable[[list[str | None]], Awaitable[list[int]]]


class GameNotFound(ApiError):
    """Raised with the game's id, which the detail leaves out (it is in the path)."""
    status = 404
    type = "game-not-found"
    when = "No game has this id, or it expired after going idle (`game-not-found`)"
    when_order = 10
    sentence = "No game has this id (or it expired after going idle)."

    def detail(self) -> str:
        return "no game has this id (or it expired after going idle)"


class Unauthorized(ApiError):
    status = 401
    type = "unauthorized"
    when = ("The token opens no seat of this game, or a seat's token is required; or the"
            " player key is missing or opens no player (`unauthorized`)")
    sentence = "This seat's token is not accepted for this game."

    def headers(self) -> dict[str, str]:
        return {"WWW-Authenticate": "Bearer"}


class InvalidGame(ApiError):
    """Creation parameters that core refuses (unknown game, player count, options)."""
    status = 422
    type = "invalid-game"
    when = ", what the schema cannot say of a game or its options (`invalid-game`)"
    when_order = 20
    sentence = "This game cannot be made."


class MoveRejected(ApiError):
    status = 422
    type = "illegal-move"
    when = ("Understood but refused: a move that is not legal now, out of turn or of another"
            " game (`illegal-move`, with `legal_moves`)")
    when_order = 10
    sentence = "That move is not allowed now."

    def __init__(self, reason: str, legal_moves: list[dict[str, Any]]) -> None:
        super().__init__(reason)
        self.legal_moves = legal_moves

    def extensions(self) -> dict[str, Any]:
        return {"legal_moves": self.legal_moves}


class VersionConflict(ApiError):
    status = 409
    type = "version-conflict"
    when = ("The request conflicts with the game as it is now: it moved on"
            " (`version-conflict`, with `current_version`)")
    when_order = 10
    sentence = "The game moved on meanwhile: here is where it stands now."

    def __init__(self, expected: int, current: int) -> None:
        super().__init__(f"expected_version is {expected} but the game is at version {current}:"
                         " reload the game and choose again")
        self.current = current

    def extensions(self) -> dict[str, Any]:
        return {"current_version": self.current}


class IdempotencyMismatch(ApiError):
    status = 409
    type = "idempotency-key-reused"
    when = ", or the idempotency key was used for another request (`idempotency-key-reused`)"
    when_order = 100
    sentence = "This move was already sent differently."


class NotStarted(ApiError):
    """A move in a game still waiting for players."""
    status = 409
    type = "game-waiting"
    when = ", the game waits for players (`game-waiting`)"
    when_order = 30
    sentence = "The game is waiting for its players."


class GameNotOver(ApiError):
    """What only a finished game has (a replay), asked of a game in play."""
    status = 409
    type = "game-not-over"
    when = " or is not over (`game-not-over`)"
    when_order = 80
    sentence = "This game is not over yet."


class PlayerNotFound(ApiError):
    """No player has this id; the message says which, where it was named in a body."""
    status = 404
    type = "player-not-found"
    when = ", no player has this id (`player-not-found`)"
    when_order = 20


class UnknownPlayer(ApiError):
    """A player key that opens no player."""
    status = 403
    type = "unknown-player"
    when = "The player key given opens no player (`unknown-player`)"
    when_order = 10


class GameExists(Exception):
    """A game made under an id that a game has already (another replica made it)."""


class GameArchived(ApiError):
    """A change to a finished game that lives only in the archive now."""
    status = 409
    type = "game-archived"
    when = ", is archived and can no longer change (`game-archived`)"
    when_order = 90
    sentence = "This game is archived: it can no longer change."


@dataclass
class Session:
    """A loaded game: its record, decoded metadata and (decoded when first used) state."""
    game_id: str
    record: GameRecord
    meta: Meta
    archived: ArchivedGame | None = None  # read from the archive: the game's row

    @cached_property
    def archived_log(self) -> list[dict[str, Any]] | None:
        """An archived game's log (None for a game in the live store)."""
        if self.archived is None:
            return None
        return msgspec.json.decode(self.archived.document)["entries"]

    @cached_property
    def state(self) -> core.GameState:
        return core.from_bytes(self.record.blob)

    @cached_property
    def status(self) -> str:
        """waiting (seats are open), active, or over (played out or forfeited)."""
        return self.meta.status(self.state.is_over)


def new_game_id() -> str:
    return secrets.token_urlsafe(12)


def new_token() -> tuple[str, str]:
    """A seat's secret token and the hash the store keeps of it."""
    token = new_secret()
    return token, secret_hash(token)


@dataclass(frozen=True)
class Next:
    """A game's next version and the log entry that says what made it."""
    pending: Session
    entry: dict[str, Any]


class Sessions:
    def __init__(self, store: Store, archive: Archive | None = None,
                 limits: GameLimits | None = None, players: Players | None = None,
                 deadlines: Deadlines | None = None, outbox: Outbox | None = None,
                 webhook_seats: WebhookSeats | None = None) -> None:
        """Without an archive, finished games are gone once the store forgets them and no
        seat can be bound to a player; deadlines and outbox are shared with the turn clocks
        and the archive's writer, whose bells they ring (a test may leave them out);
        webhook_seats says which bound seats of a new game a bot's webhook plays."""
        self.store = store
        self.limits = limits or GameLimits()  # what every new game obeys, however made
        self.archive = archive  # where finished games are read once the store forgets them
        self.players = players  # whose keys bind seats
        self.deadlines = deadlines or Deadlines(store)
        self.outbox = outbox or Outbox(store)
        self.webhook_seats = webhook_seats

    # -- creation and loading ------------------------------------------------

    async def create(self, request: CreateGame,
                     ai_seats: list[Budget | None] | None = None
                     ) -> tuple[str, Session, list[str | None]]:
        """A new game; its id, session and a secret token per human seat (None for an AI
        or an open seat)."""
        options = None if request.options is None else request.options.for_core()
        clock = None if request.turn_seconds is None else \
            Clock(request.turn_seconds, request.on_timeout)
        state = self.new_state(request.game, request.players, request.seed, options, clock,
                               ai_seats)
        kinds = [seat.type for seat in request.seats] if request.seats else \
            ["human"] * state.players
        tokens, hashes = zip(*[new_token() if kind == "human" else (None, None)
                               for kind in kinds])
        names = [seat.name for seat in request.seats] if request.seats else [None] * state.players
        if any(seat.player and seat.type != "human" for seat in request.seats or ()):
            raise InvalidGame("a player key binds a human seat only")
        bound = [await self.player(seat.player) if seat.player else None
                 for seat in request.seats or ()] or [None] * state.players
        names = [name or (player.name[:24] if player else None)
                 for name, player in zip(names, bound)]
        ai_seats = ai_seats or [None] * state.players
        meta = Meta(game=state.game, players=state.players, seeded=request.seed is not None,
                    token_hashes=list(hashes), created=time.time(),
                    ai=ai_seats if any(ai_seats) else None,
                    names=names if names and any(names) else None,
                    open_seats=[seat for seat, kind in enumerate(kinds) if kind == "open"],
                    listed=request.listed, options=options, clock=clock,
                    watchable=request.listed and "open" in kinds,
                    player_ids=[p.id if p else None for p in bound] if any(bound) else None,
                    rated=request.rated)
        # Hints (a strong AI) only where they wrong nobody: not between people (seats
        # left open for others), nor in a rated game, whose rating they would inflate.
        off = "people" if "open" in kinds else "rated" if meta.is_rated() else None
        meta = msgspec.structs.replace(meta, hints=off is None, hints_off=off)
        game_id, session = await self.create_from(meta.with_deadlines(state.to_move, None),
                                                  state)
        return game_id, session, list(tokens)

    async def player(self, key: str) -> Player:
        """The player whose key this is (UnknownPlayer if none)."""
        found = None if self.players is None else await self.players.by_key(key)
        if found is None:
            raise UnknownPlayer("this player key opens no player (POST /v1/players makes one)")
        return found

    def new_state(self, game: str, players: int, seed: int | None,
                  options: dict[str, Any] | None, clock: Clock | None = None,
                  ai: list[Budget | None] | None = None) -> core.GameState:
        """The first state of a new game, if the core takes the game and its options and
        the clock and AI seats are within this server's limits (GameLimits.check): the one check
        every way of starting a game goes through, before anything is kept."""
        self.limits.check(clock, ai)
        try:
            return core.new_game(game, players, seed=seed, options=options)
        except ValueError as error:
            raise InvalidGame(str(error)) from None

    async def create_from(self, meta: Meta, state: core.GameState,
                          game_id: str | None = None) -> tuple[str, Session]:
        """Stores a new game made of meta and state (under game_id if given, else a new
        id); its id and session. GameExists if a game has that id already."""
        if self.webhook_seats is not None and meta.player_ids and any(meta.player_ids):
            meta = msgspec.structs.replace(meta, webhooks=await self.webhook_seats(
                meta.player_ids))
        record = GameRecord(0, state.to_bytes(), msgspec.json.encode(meta))
        game_id = game_id or new_game_id()
        deadline = meta.earliest_deadline()
        if deadline is not None:  # armed first, as for a commit
            await self.deadlines.arm(game_id, 0, deadline)
        if not await self.store.create(game_id, record):
            raise GameExists(game_id)
        if meta.watchable:  # its readers drop it once it is over or gone
            await self.store.index_add(keys.live_list(meta.game), game_id, meta.created)
        session = Session(game_id, record, meta)
        session.state = state  # already decoded
        return game_id, session

    async def load(self, game_id: str, budget: SeatBudget | None = None) -> Session:
        """The game; with a seat's budget, spent in the same round trip (RateLimited if
        the request does not fit)."""
        if budget is None:
            return await self.found(game_id, await self.store.load(game_id))
        return (await self._load_for_move(game_id, None, budget))[0]

    async def found(self, game_id: str, record: GameRecord | None) -> Session:
        """The session of record, or when the store has none, of the archived game."""
        if record is not None:
            return self.session(game_id, record)
        if self.archive is None:
            raise GameNotFound(game_id)
        try:
            archived = await self.archive.get(game_id)
        except DatabaseUnavailable as error:
            raise StoreUnavailable(f"the archive: {error}") from error
        if archived is None:
            raise GameNotFound(game_id)
        session = self.session(game_id, GameRecord(archived.version, archived.state,
                                                   archived.meta))
        session.archived = archived
        return session

    async def beginning(self, session: Session) -> tuple[bytes, list[dict[str, Any]]]:
        """The state a game began in and its whole log: what the core replays it from."""
        if session.archived is not None:
            return session.archived.initial, session.archived_log or []
        finished = (await self.store.finished([session.game_id]))[0]
        if finished is None:
            raise GameNotFound(session.game_id)
        return finished.initial, [msgspec.json.decode(raw) for raw in finished.log]

    @staticmethod
    def session(game_id: str, record: GameRecord | None) -> Session:
        if record is None:
            raise GameNotFound(game_id)
        return Session(game_id, record, msgspec.json.decode(record.meta, type=Meta))

    @staticmethod
    def seat_of(session: Session, token: str | None) -> int | None:
        """The seat a bearer token belongs to, None without a token; Unauthorized if unknown."""
        if token is None:
            return None
        digest = secret_hash(token)
        seat = None
        for index, stored in enumerate(session.meta.token_hashes):  # no early exit: constant time
            if stored is not None and hmac.compare_digest(digest, stored):
                seat = index
        if seat is None:
            raise Unauthorized("this token opens no seat of this game")
        return seat

    # -- what a viewer sees -----------------------------------------------------

    @staticmethod
    def view(session: Session, seat: int | None, version: int | None = None) -> dict[str, Any]:
        state, meta, status = session.state, session.meta, session.status
        active = status == "active"
        return {
            "id": session.game_id, "game": meta.game,
            "version": session.record.version if version is None else version,
            "status": status, "seeded": meta.seeded, "rated": meta.is_rated(),
            "to_move": list(state.to_move) if active else [], "you": seat,
            "legal_moves": state.legal_moves(seat)
            if active and seat is not None and seat not in meta.resigned else [],
            "result": Sessions.result(session), "view": state.view(seat),
            "seats": meta.seats(), "clock": meta.clock, "rematch": meta.rematch,
            "rematch_offer": meta.rematch_offer, "hints": meta.hints,
        }

    @staticmethod
    def result(session: Session) -> dict[str, Any] | None:
        """The core's result; or the result of the forfeit, or of the resignations, that
        ended the game: the seats that walked away rank last (docs/rules.md); resigned
        seats rank last in a game played on to its end as well."""
        meta, state = session.meta, session.state
        forfeited, resigned = meta.forfeited, meta.resigned
        if forfeited:
            result, reason = state.forfeit_result(sorted({*forfeited, *resigned})), "forfeit"
        elif resigned and (meta.resign_ended or state.is_over):
            result, reason = state.forfeit_result(resigned), "resigned"
        else:
            result, reason = state.result(), "finished"
        if result is not None:
            result.update(reason=reason, forfeited=forfeited, resigned=resigned)
        return result

    async def history(self, session: Session, seat: int | None) -> dict[str, Any]:
        """The move log that led to session's version, as seat (None: a spectator) may see
        it then. The store's log may have grown since session was loaded (an AI seat or
        another player moved meanwhile): its later entries belong to a state this
        session's is not, and the AI, which replays the log to learn what its seat knows,
        cannot make sense of a log that runs past the position it is asked about."""
        entries = session.archived_log if session.archived_log is not None else \
            [msgspec.json.decode(raw) for raw in await self.store.history(session.game_id)]
        state, version = session.state, session.record.version
        return {"id": session.game_id, "game": session.meta.game, "version": version,
                "entries": [self.visible_entry(state, entry, seat) for entry in entries
                            if entry["version"] <= version]}

    @staticmethod
    def visible_entry(state: core.GameState, entry: dict[str, Any],
                      viewer: int | None) -> dict[str, Any]:
        """A log entry as viewer may see it: a move as the core says viewer may see it
        now; what the mover was shown (a revealed hand) stays the mover's until the game
        is over. Entries of joins, leaves, forfeits and rematches are public."""
        kind = entry.get("kind", "move")  # entries logged before kinds existed are moves
        entry.setdefault("at", None)      # and before times were: null
        if "move" not in entry:
            return entry
        actor = entry["seat"]
        visible = {**entry, "kind": kind,
                   "move": state.visible_move(actor, entry["move"], viewer)}
        observed = visible.pop("observed", None)
        if observed and (viewer == actor or state.is_over):
            visible.update(observed)
        return visible

    # -- moves ------------------------------------------------------------------

    async def play(self, game_id: str, token: str | None, request: MoveRequest,
                   idempotency_key: str | None, budget: SeatBudget | None = None
                   ) -> tuple[dict[str, Any], Meta]:
        """Applies one move for the token's seat; that seat's new view, and the game's meta.
        The seat's budget, if any, is spent with the game's first read."""
        if token is None:
            raise Unauthorized("moves need the seat's token: Authorization: Bearer <token>")
        # Keys are scoped by token, i.e. by seat, and known before the game is loaded.
        replay_key = None if idempotency_key is None else f"{secret_hash(token)}:{idempotency_key}"
        move = request.move  # its form is checked by core, whose messages say what is wrong
        fingerprint = None if replay_key is None else self._fingerprint(move, request)
        with tracing.span("game.move", game_id):
            for attempt in range(MAX_COMMIT_ATTEMPTS):
                session, replayed = await self._load_for_move(
                    game_id, replay_key, budget if attempt == 0 else None)
                seat = self.seat_of(session, token)
                if replayed is not None:
                    return self._replayed(replayed, fingerprint), session.meta
                if seat in session.meta.resigned:
                    raise MoveRejected("you resigned this game: the AI plays your seat to the"
                                       " end", [])
                current = session.record.version
                if request.expected_version is not None and request.expected_version != current:
                    raise VersionConflict(request.expected_version, current)
                pending = self.moved(session, seat, move)
                response = self.view(pending, seat)
                record = None if replay_key is None else (replay_key, msgspec.json.encode(
                    {"fingerprint": fingerprint, "response": response}))
                if await self.commit(pending, self.move_entry(seat, move, session), record):
                    return response, pending.meta
                if request.expected_version is not None and replay_key is None:
                    raise VersionConflict(request.expected_version, current + 1)
            raise VersionConflict(current, current + 1)

    def moved(self, session: Session, seat: int, move: dict[str, Any]) -> "Session":
        """The next version of session after seat's move; MoveRejected (or NotStarted) if
        the move may not be made now. session.state is left as it was."""
        status = session.status
        if status == "waiting":
            raise NotStarted(f"the game is waiting for players: seats"
                             f" {session.meta.open_seats} are open; moves start once every"
                             f" seat is taken")
        if status == "over" and session.meta.forfeited:
            raise MoveRejected(f"the game is over: seats {session.meta.forfeited} forfeited"
                               " on time", [])
        if status == "over" and session.meta.resign_ended:
            raise MoveRejected(f"the game is over: seats {session.meta.resigned} resigned", [])
        state = session.state.clone()
        try:
            state.apply(seat, move)
        except core.IllegalMove as error:
            raise MoveRejected(str(error), session.state.legal_moves(seat)) from None
        return self.next_version(session, state, mover=seat)

    @staticmethod
    def move_entry(seat: int, move: dict[str, Any], before: Session,
                   kind: str = "move") -> dict[str, Any]:
        """The log entry of seat's move in before's position, with what the seat was shown
        then (state.observed_by), so that the history can give it back to that seat, and
        to its AI, later."""
        entry = {"seat": seat, "kind": kind, "move": move}
        observed = before.state.observed_by(seat)
        if observed is not None:
            entry["observed"] = observed
        return entry

    @staticmethod
    def next_version(session: Session, state: core.GameState, mover: int | None,
                     meta: Meta | None = None) -> "Session":
        """The version after session with state and meta (default: unchanged), the turn
        clock's deadlines moved on for mover (None: nobody moved, e.g. a join)."""
        meta = (meta or session.meta).with_deadlines(state.to_move, mover)
        pending = Session(session.game_id, GameRecord(
            session.record.version + 1, state.to_bytes(), msgspec.json.encode(meta)), meta)
        pending.state = state
        return pending

    @staticmethod
    def _fingerprint(move: dict[str, Any], request: MoveRequest) -> str:
        """What makes two requests with one idempotency key the same request."""
        return hashlib.sha256(msgspec.json.encode(
            {"move": move, "expected_version": request.expected_version},
            order="sorted")).hexdigest()

    async def commit(self, pending: Session, entry: dict[str, Any],
                     replay: tuple[str, bytes] | None = None) -> bool:
        """Stores pending, the next version of its game, if nobody changed the game first;
        entry says what made it (its version and time are added).

        What must follow a commit is written before it, so that a replica dying between
        the two loses nothing: the turn clock's next deadline, or the archive's entry when
        the game ends (a commit that then fails leaves an entry its version shows stale)."""
        version, now = pending.record.version, time.time()
        deadline = pending.meta.earliest_deadline()
        ends = pending.status == "over"
        if deadline is not None:
            await self.deadlines.arm(pending.game_id, version, deadline)
        elif ends:
            await self.outbox.intend(pending.game_id, version, now)
        committed = await self.store.commit(pending.game_id, version - 1, Commit(
            blob=pending.record.blob, meta=pending.record.meta,
            entry=msgspec.json.encode({"version": version, **entry, "at": iso_time(now)}),
            idempotency_key=None if replay is None else replay[0],
            response=b"" if replay is None else replay[1], keep=ends))
        if committed and ends:
            await self.outbox.ended()  # (never raises: the commit is made)
        return committed

    async def change(self, game_id: str, build: Callable[[Session], Awaitable[Next | None]]
                     ) -> tuple[Session, Next | None]:
        """Loads the game, builds its next version with build (None: nothing to change)
        and commits it; when another change committed first, loads and builds again.
        (The game as build last saw it, what was committed or None.) A move has a loop
        of its own (play): it also replays idempotent requests and spends a budget."""
        for _ in range(MAX_COMMIT_ATTEMPTS):
            session = await self.load(game_id)
            built = await build(session)
            if built is None:
                return session, None
            if session.archived is not None:
                raise GameArchived("this game is over and archived: it can be read, not changed")
            if await self.commit(built.pending, built.entry):
                return session, built
        raise VersionConflict(session.record.version, session.record.version + 1)

    async def _load_for_move(self, game_id: str, replay_key: str | None,
                             budget: SeatBudget | None) -> tuple[Session, bytes | None]:
        if budget is not None:
            allowance, record, replayed = await self.store.load_spending(
                game_id, budget.budget, replay_key)
            budget.settle(allowance)
            return await self.found(game_id, record), replayed
        if replay_key is None:
            return await self.load(game_id), None
        record, replayed = await self.store.load_with_replay(game_id, replay_key)
        return await self.found(game_id, record), replayed

    @staticmethod
    def _replayed(raw: bytes, fingerprint: str | None) -> dict[str, Any]:
        """The stored response of an earlier request with this idempotency key."""
        stored = msgspec.json.decode(raw)
        if stored["fingerprint"] != fingerprint:
            raise IdempotencyMismatch(
                "this Idempotency-Key was already used for a different request on this game;"
                " use a new key for a new move")
        return stored["response"]
