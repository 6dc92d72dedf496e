"""The rating model: a Gaussian skill (mu, sigma) per player and game, updated by
OpenSkill's Plackett-Luce model from a rated game's ranking (ties share a rank, so a
shared victory of Cup the Crab is a tie for first).

The five AI levels are players whose skill never changes: their (mu, sigma) were computed
once from games between the levels through this same model (`python -m
service.players.ratings.calibrate`, stored in anchors.json), so a new player's first games against
a level place it on the scale everyone else is on. Arithmetic is plain floats in a fixed
order, so replaying the archive's rated games in their order gives every rating back
bit for bit.
"""

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from openskill.models import PlackettLuce

MODEL = PlackettLuce()          # mu 25, sigma 25/3: OpenSkill's defaults
PROVISIONAL_GAMES = 10          # rated games before a rating stops being provisional
ANCHORS = Path(__file__).with_name("anchors.json")


@dataclass(frozen=True)
class Skill:
    mu: float
    sigma: float

    @property
    def conservative(self) -> float:
        """mu - 3 sigma: what the player is at least, with 99.7% confidence; the
        leaderboard's order."""
        return self.mu - 3 * self.sigma


DEFAULT = Skill(MODEL.mu, MODEL.sigma)


@dataclass(frozen=True)
class Pool:
    """One rating: a game at some table sizes, and the AI levels' skills in it."""
    name: str
    game: str
    players: tuple[int, ...]
    levels: dict[int, Skill]


@cache
def pools() -> dict[str, Pool]:
    """The rating pools, as the calibration measured and stored them (anchors.json)."""
    data = json.loads(ANCHORS.read_text())["pools"]
    return {name: Pool(name, found["game"], tuple(found["players"]),
                       {int(level): Skill(**skill) for level, skill in found["levels"].items()})
            for name, found in data.items()}


def pool(game: str, players: int) -> str:
    """The rating a game of `players` updates. Whether a game needs one per table size is
    measured (docs/players.md); a game the calibration does not know has one rating,
    named as the game."""
    return next((found.name for found in pools().values()
                 if found.game == game and players in found.players), game)


def pool_names(games: list[str]) -> list[str]:
    """Every rating pool of these games, in their order."""
    return [name for game in games for name in
            ([found.name for found in pools().values() if found.game == game] or [game])]


def game_of(rating_pool: str) -> str:
    """The game a pool rates."""
    found = pools().get(rating_pool)
    return rating_pool if found is None else found.game


def ai_player(level: int) -> str:
    """The player id of an AI strength level."""
    return f"ai-{level}"


def level_of(player_id: str) -> int | None:
    """The AI level a player id stands for, None for a person's or a bot's."""
    prefix, _, level = player_id.partition("-")
    return int(level) if prefix == "ai" and level.isdigit() else None


def anchor(rating_pool: str, level: int) -> Skill | None:
    """An AI level's fixed skill in a pool (None: not calibrated for it)."""
    found = pools().get(rating_pool)
    return None if found is None else found.levels.get(level)


def rated(skills: list[Skill], ranks: list[int], fixed: list[bool]) -> list[Skill]:
    """Every seat's skill after a game ranked `ranks` (1 the best, equal ranks a tie);
    fixed seats (the AI levels) keep theirs."""
    teams = [[MODEL.rating(mu=skill.mu, sigma=skill.sigma)] for skill in skills]
    after = MODEL.rate(teams, ranks=[float(rank) for rank in ranks])
    return [before if keep else Skill(team[0].mu, team[0].sigma)
            for before, team, keep in zip(skills, after, fixed)]
