"""Ratings: OpenSkill's Plackett-Luce over each rated game's ranking, the five AI levels
as fixed, calibrated players (docs/players.md)."""

from service.players.ratings.model import (
                                   DEFAULT,
                                   MODEL,
                                   PROVISIONAL_GAMES,
                                   Pool,
                                   Skill,
                                   ai_player,
                                   anchor,
                                   game_of,
                                   level_of,
                                   pool,
                                   pool_names,
                                   pools,
                                   rated,
)

__all__ = ["DEFAULT", "MODEL", "PROVISIONAL_GAMES", "Pool", "Skill", "ai_player", "anchor",
           "game_of", "level_of", "pool", "pool_names", "pools", "rated"]
