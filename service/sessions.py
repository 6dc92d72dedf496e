"""Game sessions over a Store: creation, seat tokens, views, moves and history.

Everything game-specific is asked of `core` through its shared interface; this module
only knows versions, tokens and who may see what the core says they may see.
"""

import hashlib
import hmac
import secrets
import time
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import msgspec

import core
from service.schemas import Budget, CreateGame, MoveRequest
from service.store import Commit, GameRecord, Store

MAX_COMMIT_ATTEMPTS = 8  # retries of a move whose client gave no expected_version


class GameNotFound(Exception):
    pass


class Unauthorized(Exception):
    pass


class InvalidGame(Exception):
    """Creation parameters that core refuses (unknown game, player count, options)."""


class MoveRejected(Exception):
    def __init__(self, reason: str, legal_moves: list[dict[str, Any]]) -> None:
        super().__init__(reason)
        self.legal_moves = legal_moves


class VersionConflict(Exception):
    def __init__(self, expected: int, current: int) -> None:
        super().__init__(f"expected_version is {expected} but the game is at version {current}:"
                         " reload the game and choose again")
        self.current = current


class IdempotencyMismatch(Exception):
    pass


class Meta(msgspec.Struct, frozen=True):
    """What a game's record says besides its state; written once at creation."""
    game: str
    players: int
    seeded: bool
    token_hashes: list[str | None]        # None for a seat the server's AI plays
    created: float
    ai: list[Budget | None] | None = None  # each AI seat's thinking budget

    def is_ai(self, seat: int) -> bool:
        return self.ai is not None and self.ai[seat] is not None


@dataclass
class Session:
    """A loaded game: its record, decoded metadata and (decoded when first used) state."""
    game_id: str
    record: GameRecord
    meta: Meta

    @cached_property
    def state(self) -> core.GameState:
        return core.from_bytes(self.record.blob)


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def new_game_id() -> str:
    return secrets.token_urlsafe(12)


class Sessions:
    def __init__(self, store: Store) -> None:
        self.store = store

    # -- creation and loading ------------------------------------------------

    async def create(self, request: CreateGame,
                     ai_seats: list[Budget | None] | None = None
                     ) -> tuple[str, Session, list[str | None]]:
        """A new game; its id, session and a secret token per human seat (None for AI)."""
        try:
            options = None if request.options is None else msgspec.to_builtins(request.options)
            state = core.new_game(request.game, request.players, seed=request.seed,
                                  options=options)
        except ValueError as error:
            raise InvalidGame(str(error)) from None
        ai_seats = ai_seats or [None] * state.players
        tokens = [None if ai else secrets.token_urlsafe(32) for ai in ai_seats]
        meta = Meta(state.game, state.players, request.seed is not None,
                    [None if t is None else _hash(t) for t in tokens], time.time(),
                    ai_seats if any(ai_seats) else None)
        record = GameRecord(0, state.to_bytes(), msgspec.json.encode(meta))
        game_id = new_game_id()
        await self.store.create(game_id, record)
        session = Session(game_id, record, meta)
        session.state = state  # already decoded
        return game_id, session, tokens

    async def load(self, game_id: str) -> Session:
        return self.session(game_id, await self.store.load(game_id))

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
        digest = _hash(token)
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
        state = session.state
        return {
            "id": session.game_id, "game": session.meta.game,
            "version": session.record.version if version is None else version,
            "status": "over" if state.is_over else "active", "seeded": session.meta.seeded,
            "to_move": list(state.to_move), "you": seat,
            "legal_moves": [] if seat is None else state.legal_moves(seat),
            "result": state.result(), "view": state.view(seat),
        }

    async def history(self, session: Session, seat: int | None) -> dict[str, Any]:
        """The move log as seat (None: a spectator) may see it now."""
        entries = [msgspec.json.decode(raw) for raw in await self.store.history(session.game_id)]
        state = session.state
        return {"id": session.game_id, "game": session.meta.game,
                "version": session.record.version,
                "entries": [self.visible_entry(state, entry, seat) for entry in entries]}

    @staticmethod
    def visible_entry(state: core.GameState, entry: dict[str, Any],
                      viewer: int | None) -> dict[str, Any]:
        """A log entry as viewer may see it; what the mover was shown (a revealed hand)
        stays the mover's until the game is over."""
        actor = entry["seat"]
        visible = {"version": entry["version"], "seat": actor,
                   "move": state.visible_move(actor, entry["move"], viewer)}
        if entry.get("observed") and (viewer == actor or state.is_over):
            visible.update(entry["observed"])
        return visible

    # -- moves ------------------------------------------------------------------

    async def play(self, game_id: str, token: str | None, request: MoveRequest,
                   idempotency_key: str | None) -> tuple[dict[str, Any], Meta]:
        """Applies one move for the token's seat; that seat's new view, and the game's meta."""
        if token is None:
            raise Unauthorized("moves need the seat's token: Authorization: Bearer <token>")
        # Keys are scoped by token, i.e. by seat, and known before the game is loaded.
        replay_key = None if idempotency_key is None else f"{_hash(token)}:{idempotency_key}"
        move = request.move  # its form is checked by core, whose messages say what is wrong
        fingerprint = None if replay_key is None else self._fingerprint(move, request)
        for _ in range(MAX_COMMIT_ATTEMPTS):
            session, replayed = await self._load_for_move(game_id, replay_key)
            seat = self.seat_of(session, token)
            if replayed is not None:
                return self._replayed(replayed, fingerprint), session.meta
            current = session.record.version
            if request.expected_version is not None and request.expected_version != current:
                raise VersionConflict(request.expected_version, current)
            observed = session.state.observed_by(seat)
            try:
                session.state.apply(seat, move)
            except core.IllegalMove as error:
                raise MoveRejected(str(error), session.state.legal_moves(seat)) from None
            response = self.view(session, seat, current + 1)
            record = None if replay_key is None else (replay_key, msgspec.json.encode(
                {"fingerprint": fingerprint, "response": response}))
            if await self.commit(session, seat, move, observed, record):
                return response, session.meta
            if request.expected_version is not None and replay_key is None:
                raise VersionConflict(request.expected_version, current + 1)
        raise VersionConflict(current, current + 1)

    @staticmethod
    def _fingerprint(move: dict[str, Any], request: MoveRequest) -> str:
        """What makes two requests with one idempotency key the same request."""
        return hashlib.sha256(msgspec.json.encode(
            {"move": move, "expected_version": request.expected_version},
            order="sorted")).hexdigest()

    async def commit(self, session: Session, seat: int, move: dict[str, Any],
                     observed: dict[str, Any] | None = None,
                     replay: tuple[str, bytes] | None = None) -> bool:
        """Stores session's state (a move of seat already applied) if nobody moved first.

        observed: what the seat was shown before the move (state.observed_by), logged so
        that the history can give it back to that seat, and to its AI, later.
        """
        current = session.record.version
        entry = {"version": current + 1, "seat": seat, "move": move}
        if observed is not None:
            entry["observed"] = observed
        return await self.store.commit(session.game_id, current, Commit(
            blob=session.state.to_bytes(), meta=session.record.meta,
            entry=msgspec.json.encode(entry),
            idempotency_key=None if replay is None else replay[0],
            response=b"" if replay is None else replay[1]))

    async def _load_for_move(self, game_id: str,
                             replay_key: str | None) -> tuple[Session, bytes | None]:
        if replay_key is None:
            return await self.load(game_id), None
        record, replayed = await self.store.load_with_replay(game_id, replay_key)
        return self.session(game_id, record), replayed

    @staticmethod
    def _replayed(raw: bytes, fingerprint: str | None) -> dict[str, Any]:
        """The stored response of an earlier request with this idempotency key."""
        stored = msgspec.json.decode(raw)
        if stored["fingerprint"] != fingerprint:
            raise IdempotencyMismatch(
                "this Idempotency-Key was already used for a different request on this game;"
                " use a new key for a new move")
        return stored["response"]
