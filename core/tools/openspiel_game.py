"""Our two games as OpenSpiel games, so that OpenSpiel's own IS-MCTS can play them.

Needs the `openspiel` extra (``pip install -e .[openspiel]``; it is in `dev` too).
Importing this module registers two Python games with pyspiel:

- ``python_cup_the_crab`` (2 players), ``python_crabe_vs_poulpe`` (2 players, parameter
  ``mode``: ``symmetrical`` or ``asymmetrical``); both take a ``seed`` for their deals.

Each state wraps a compiled core state, and every rule is the core's: legal actions are
its action ids, applying one is ``core``'s ``apply_action``.  What OpenSpiel asks beyond
the rules is answered from what a seat may know:

- **Cup the Crab's secret selection** is sequentialised with hidden moves: while several
  seats have still to select, the lowest of them acts, and the others' information states
  never contain its choice (the core hides it: ``visible_move``), so a later selector
  cannot react to an earlier one.  This is OpenSpiel's own turn-based view of a
  simultaneous move (``TurnBasedSimultaneousGame``), written here because that transform
  is C++ and cannot resample a Python game, and because the core's rules are already
  sequential with hidden moves in that phase (its search does the same).
- **Information state** (perfect recall): the seat's view (``state.view(seat)``: its cards
  and everything public) and the game's moves as that seat saw them (its own selections
  and discards, the others' hidden; the hands it was shown by a Pincer or Mimic), the
  latter kept as a running hash.  The observation string is the view alone.
- **resample_from_infostate(seat, sampler)** is ``core.ai.determinize`` for that seat with
  its history: every card the seat cannot place is re-dealt uniformly among the places it
  could be, and the copy gets a fresh PRNG (docs/ai.md, "Honesty").  The sampler only
  chooses the determinizer's seed.  In the resampled world the other seats' past hidden
  moves are not known (the determinizer re-deals their effects, not the moves), so the
  log keeps them as the resampling seat saw them, and an opponent's information state
  there is its view plus the moves as the table saw them: it does not recall its own past
  hidden moves beyond what its view shows.  That is the only approximation, and it can
  make the search's opponents know less, never the searching seat know more.
- **Returns**: +1 for the winner, -1 for the loser, 0 each for a shared victory
  (zero-sum, the scale OpenSpiel's UCT constants are written for).

The game's own randomness (shuffles, draws) is inside the core's apply (sampled
stochastic: no chance nodes).  ``CoreRollout`` is OpenSpiel's ``RandomRolloutEvaluator``
(one uniformly random playout to the end, uniform priors) run by the core in C instead of
one Python call per move; the result is the same kind of estimate, only cheaper.
"""

from __future__ import annotations

import json
from typing import Any, Callable

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

import core
import core.ai

GAMES = {"cup-the-crab": "python_cup_the_crab", "crabe-vs-poulpe": "python_crabe_vs_poulpe"}
MODES = ("symmetrical", "asymmetrical")
PLAYERS = 2
# Longest games, the core search's bounds (core/games/*/search.pyx, max_depth): Cup the
# Crab's 7 rounds of a selection and 21 cards a seat at 5 seats; Crabe vs Poulpe's rounds
# x plays a round x decisions a play.
MAX_GAME_LENGTH = {"cup-the-crab": 7 * 5 + 21 * 5, "crabe-vs-poulpe": 80 * 80 * 4}


def _game_type(game: str) -> pyspiel.GameType:
    parameters: dict[str, Any] = {"seed": -1}
    if game == "crabe-vs-poulpe":
        parameters["mode"] = MODES[0]
    return pyspiel.GameType(
        short_name=GAMES[game], long_name=f"{game} (crab engines core)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=PLAYERS, min_num_players=PLAYERS,
        provides_information_state_string=True, provides_information_state_tensor=False,
        provides_observation_string=True, provides_observation_tensor=False,
        parameter_specification=parameters)


class CoreGame(pyspiel.Game):
    """One of our games for OpenSpiel; each new initial state is a fresh seeded deal
    (the `seed` parameter seeds the sequence of deals; -1: a random sequence)."""

    def __init__(self, params: dict[str, Any] | None = None, *, game: str) -> None:
        params = dict(params or {})
        self.name = game
        n_actions = len(core.new_game(game, PLAYERS, seed=0).action_mask(0))
        info = pyspiel.GameInfo(num_distinct_actions=n_actions, max_chance_outcomes=0,
                                num_players=PLAYERS, min_utility=-1.0, max_utility=1.0,
                                utility_sum=0.0, max_game_length=MAX_GAME_LENGTH[game])
        super().__init__(_game_type(game), info, params)
        self.options = None
        if game == "crabe-vs-poulpe":
            mode = params.get("mode", MODES[0])
            if mode not in MODES:
                raise ValueError(f"mode must be one of {', '.join(MODES)}, got {mode!r}")
            self.options = {"mode": mode}
        seed = int(params.get("seed", -1))
        self._deals = np.random.default_rng(None if seed < 0 else seed)

    def new_initial_state(self) -> "CoreState":
        deal = core.new_game(self.name, PLAYERS, seed=int(self._deals.integers(2 ** 63)),
                             options=self.options)
        return CoreState(self, deal)

    def state_of(self, state: Any) -> "CoreState":
        """A game of the core, at its start (the log of its moves starts here), as this
        game's OpenSpiel state."""
        if state.game != self.name or state.players != PLAYERS:
            raise ValueError(f"expected a {PLAYERS}-player {self.name} game")
        return CoreState(self, state)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> "Observer":
        perfect_recall = iig_obs_type is None or iig_obs_type.perfect_recall
        return Observer(perfect_recall)


class CoreState(pyspiel.State):
    """A core game state seen through OpenSpiel's sequential interface."""

    def __init__(self, game: CoreGame, state: Any) -> None:
        super().__init__(game)
        self.core = state
        # (actor, move, what the actor was shown): the log core.ai reads as history.
        self.log: list[tuple[int, dict[str, Any], dict[str, Any] | None]] = []
        # Per seat, a hash of the moves as that seat saw them; then as the table saw them
        # (each move as a seat other than its actor sees it): see resample_from_infostate.
        self.recall = [0] * PLAYERS + [0]
        # This position's information states and histories, by seat: the search asks for
        # the same ones several times a node, and the root's history every simulation.
        self.known: dict[tuple[str, int], Any] = {}

    # -- the rules: the core's ----------------------------------------------------------

    def current_player(self) -> int:
        if self.core.is_over:
            return pyspiel.PlayerId.TERMINAL
        return min(self.core.to_move)

    def _legal_actions(self, player: int) -> list[int]:
        return sorted(self.core.legal_actions(player))

    def _apply_action(self, action: int) -> None:
        actor = min(self.core.to_move)
        move = self.core.move_of(action)
        observed = self.core.observed_by(actor)
        for seat in range(PLAYERS):
            seen = self.core.visible_move(actor, move, seat)
            self.recall[seat] = hash((self.recall[seat], actor, repr(seen),
                                      repr(observed) if seat == actor else None))
        public = self.core.visible_move(actor, move, (actor + 1) % PLAYERS)
        self.recall[PLAYERS] = hash((self.recall[PLAYERS], actor, repr(public)))
        self.log.append((actor, move, observed))
        self.core.apply_action(actor, action)
        self.known.clear()

    def _action_to_string(self, player: int, action: int) -> str:
        return json.dumps(self.core.move_of(action))

    def is_terminal(self) -> bool:
        return self.core.is_over

    def returns(self) -> list[float]:
        if not self.core.is_over:
            return [0.0] * PLAYERS
        winners = self.core.result()["winners"]
        if len(winners) > 1:
            return [0.0] * PLAYERS
        return [1.0 if seat in winners else -1.0 for seat in range(PLAYERS)]

    def __str__(self) -> str:
        return json.dumps(self.core.snapshot())

    # -- what a seat knows ----------------------------------------------------------------

    def history_of(self, seat: int) -> list[dict[str, Any]]:
        """The moves as `seat` saw them (what it was shown included): core.ai's history."""
        key = ("history", seat)
        if key not in self.known:
            self.known[key] = self._history_of(seat)
        return self.known[key]

    def _history_of(self, seat: int) -> list[dict[str, Any]]:
        return [{"seat": actor, "move": self.core.visible_move(actor, move, seat),
                 **(observed if actor == seat and observed else {})}
                for actor, move, observed in self.log]

    def infostate(self, seat: int) -> str:
        """What `seat` knows: its view and its recall of the moves."""
        key = ("infostate", seat)
        if key not in self.known:
            self.known[key] = f"{self.core.view(seat)!r}#{self.recall[seat]:x}"
        return self.known[key]

    def information_state_string(self, player: int | None = None) -> str:
        return self.infostate(self.current_player() if player is None else player)

    def observation_string(self, player: int | None = None) -> str:
        return repr(self.core.view(self.current_player() if player is None else player))

    def resample_from_infostate(self, player: int, sampler: Callable[[], float]
                                ) -> "CoreState":
        """A state `player` cannot tell from this one, drawn by core.ai.determinize."""
        seed = int(sampler() * 2 ** 53)
        world = core.ai.determinize(self.core, player, seed=seed,
                                    history=self.history_of(player))
        out = CoreState(self.get_game(), world)
        out.log = [(actor, move if actor == player else
                    self.core.visible_move(actor, move, player), observed if actor == player
                    else None) for actor, move, observed in self.log]
        out.recall = [self.recall[player] if seat == player else self.recall[PLAYERS]
                      for seat in range(PLAYERS)] + [self.recall[PLAYERS]]
        return out


class Observer:
    """OpenSpiel's observer interface: strings only (no tensors)."""

    def __init__(self, perfect_recall: bool) -> None:
        self.perfect_recall = perfect_recall
        self.tensor = np.zeros(0, np.float32)
        self.dict: dict[str, Any] = {}

    def set_from(self, state: CoreState, player: int) -> None:
        pass

    def string_from(self, state: CoreState, player: int) -> str:
        if self.perfect_recall:
            return state.infostate(player)
        return state.observation_string(player)


class CoreRollout(mcts.Evaluator):
    """OpenSpiel's RandomRolloutEvaluator with one rollout, played by the core in C."""

    def __init__(self, random_state: np.random.RandomState) -> None:
        self._random = random_state

    def evaluate(self, state: CoreState) -> np.ndarray:
        end = state.core.clone()
        end.playout(int(self._random.randint(2 ** 62)))
        winners = end.result()["winners"]
        if len(winners) > 1:
            return np.zeros(PLAYERS)
        return np.array([1.0 if seat in winners else -1.0 for seat in range(PLAYERS)])

    def prior(self, state: CoreState) -> list[tuple[int, float]]:
        legal = state.legal_actions()
        return [(action, 1.0 / len(legal)) for action in legal]


def ismcts_bot(game: CoreGame, simulations: int, seed: int, *, uct_c: float,
               evaluator: str = "core") -> ismcts.ISMCTSBot:
    """OpenSpiel's IS-MCTS (open_spiel.python.algorithms.ismcts) with `simulations` a
    decision, most visited move.  Its resampler draws from the bot's own seeded PRNG: the
    default one builds a new, identically seeded sampler at every call, so every
    simulation would search the same world.  evaluator: "core" (CoreRollout) or
    "openspiel" (its RandomRolloutEvaluator, one Python call a move)."""
    random_state = np.random.RandomState(seed)
    rollout = (CoreRollout(random_state) if evaluator == "core" else
               mcts.RandomRolloutEvaluator(1, random_state))
    bot = ismcts.ISMCTSBot(game, rollout, uct_c, simulations, random_state=random_state,
                           final_policy_type=ismcts.ISMCTSFinalPolicyType.MAX_VISIT_COUNT)
    bot.set_resampler(lambda state, player: state.resample_from_infostate(
        player, random_state.uniform))
    return bot


def load(game: str, **params: Any) -> CoreGame:
    """The registered OpenSpiel game of `game` ("cup-the-crab" or "crabe-vs-poulpe")."""
    return pyspiel.load_game(GAMES[game], params)


class CupTheCrab(CoreGame):
    def __init__(self, params: dict[str, Any] | None = None) -> None:
        super().__init__(params, game="cup-the-crab")


class CrabeVsPoulpe(CoreGame):
    def __init__(self, params: dict[str, Any] | None = None) -> None:
        super().__init__(params, game="crabe-vs-poulpe")


pyspiel.register_game(_game_type("cup-the-crab"), CupTheCrab)
pyspiel.register_game(_game_type("crabe-vs-poulpe"), CrabeVsPoulpe)
