"""Both games' core driven by hypothesis with arbitrary moves, legal or not, from any seat.

The machine mixes legal moves (so games advance to every phase and to their end) with
arbitrary JSON-ish moves, mutated legal moves, arbitrary action ids and arbitrary seats.
After every step the invariants of a usable state hold; every refusal is an IllegalMove
(or, on the integer path, an OverflowError for ids beyond a C int) that leaves the state
byte for byte as it was; everything accepted was in the seat's legal list.
"""

import hypothesis.strategies as st
from hypothesis import HealthCheck, event, settings
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

import core
from core.games.cupcrab import rules as cupcrab
from core.games.cvp import rules as cvp

CARD_NAMES = list(cupcrab.CARD_NAMES) + list(cvp.CARD_NAMES)
MOVE_TYPES = sorted(set(cupcrab._MOVE_FIELDS) | set(cvp._MOVE_FIELDS))
FIELDS = ["type", "card", "cards", "stack", "effect", "seat", ""]
C_INT = range(-2 ** 31, 2 ** 31)

json_scalars = (st.none() | st.booleans() | st.integers(-2 ** 70, 2 ** 70)
                | st.floats(allow_nan=True) | st.text(max_size=12)
                | st.sampled_from(CARD_NAMES + MOVE_TYPES + list(cvp.COPYABLE)))
json_values = st.recursive(
    json_scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner,
                                                                 max_size=4),
    max_leaves=12)
shaped_moves = st.builds(
    lambda kind, fields: {"type": kind, **fields},
    st.sampled_from(MOVE_TYPES) | json_scalars,
    st.dictionaries(st.sampled_from(FIELDS[1:]),
                    st.sampled_from(CARD_NAMES) | st.integers(-2, 5) | json_values
                    | st.lists(st.sampled_from(CARD_NAMES), max_size=4),
                    max_size=3))
any_seat = (st.integers(-3, 7) | st.integers() | st.none() | st.booleans() | st.text(max_size=2)
            | st.floats(allow_nan=True))
any_action = st.integers(-5, 400) | st.integers()


class CoreUnderAnyInput(RuleBasedStateMachine):
    """One game at a time; which game, how many players and the seed are drawn."""

    @initialize(game=st.sampled_from(core.GAMES), players=st.integers(2, 5),
                seed=st.integers(0, 2 ** 64 - 1))
    def start(self, game, players, seed):
        players = 2 if game == "crabe-vs-poulpe" else players
        self.state = core.new_game(game, players, seed=seed)
        self.refusals = 0

    def _refused_unchanged(self, attempt, *errors):
        """Runs attempt; if it raises one of errors the state must be unchanged."""
        before = self.state.to_bytes()
        try:
            attempt()
        except errors:
            assert self.state.to_bytes() == before
            self.refusals += 1
            return True
        return False

    def _legal_ids(self, seat):
        return (self.state.legal_actions(seat)
                if type(seat) is int and 0 <= seat < self.state.players else [])

    @rule(data=st.data(), moves=st.integers(1, 25))
    def legal_moves_are_accepted(self, data, moves):
        for _ in range(moves):
            if self.state.is_over:
                break
            seat = data.draw(st.sampled_from(self.state.to_move))
            move = data.draw(st.sampled_from(self.state.legal_moves(seat)))
            self.state.apply(seat, move)
        event(f"{self.state.game} {'over' if self.state.is_over else 'in play'}")

    @rule(seat=any_seat, move=json_values | shaped_moves)
    def an_arbitrary_move_is_applied_only_if_legal(self, seat, move):
        legal = self._legal_ids(seat)
        if not self._refused_unchanged(lambda: self.state.apply(seat, move), core.IllegalMove):
            assert self.state.action_of(move) in legal

    @rule(data=st.data(), seat=any_seat)
    def a_legal_move_mutated_is_applied_only_if_legal(self, data, seat):
        mover = self.state.to_move[0] if self.state.to_move else 0
        move = dict(data.draw(st.sampled_from(self.state.legal_moves(mover)
                                              or [{"type": "pass"}])))
        key = data.draw(st.sampled_from(FIELDS))
        move[key] = data.draw(json_values | st.sampled_from(CARD_NAMES))
        legal = self._legal_ids(seat)
        if not self._refused_unchanged(lambda: self.state.apply(seat, move), core.IllegalMove):
            assert self.state.action_of(move) in legal

    @rule(seat=st.integers(-3, 7) | st.integers(), action=any_action)
    def an_arbitrary_action_id_is_applied_only_if_legal(self, seat, action):
        legal = self._legal_ids(seat)
        errors = (core.IllegalMove,) if seat in C_INT and action in C_INT else (OverflowError,)
        if not self._refused_unchanged(lambda: self.state.apply_action(seat, action), *errors):
            assert action in legal

    @rule(seat=any_seat)
    def a_seat_not_at_the_table_has_no_moves(self, seat):
        if type(seat) is int and 0 <= seat < self.state.players:
            return
        refused = self._refused_unchanged(lambda: self.state.legal_moves(seat), ValueError)
        assert refused

    @invariant()
    def the_state_round_trips_byte_for_byte(self):
        blob = self.state.to_bytes()
        assert core.from_bytes(blob).to_bytes() == blob
        assert core.from_snapshot(self.state.snapshot()).snapshot() == self.state.snapshot()

    @invariant()
    def exactly_the_seats_to_move_have_moves_unless_over(self):
        state = self.state
        assert state.is_over == (state.to_move == ())
        assert (state.result() is None) != state.is_over
        for seat in range(state.players):
            actions = state.legal_actions(seat)
            assert bool(actions) == (seat in state.to_move)
            assert [state.action_of(m) for m in state.legal_moves(seat)] == actions

    @invariant()
    def every_view_is_available(self):
        for seat in [None, *range(self.state.players)]:
            assert self.state.view(seat)["game"] == self.state.game


TestCoreUnderAnyInput = CoreUnderAnyInput.TestCase
TestCoreUnderAnyInput.settings = settings(
    max_examples=60, stateful_step_count=80, deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
