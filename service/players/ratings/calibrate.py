"""The AI levels' fixed ratings, computed once from games between the levels.

    python -m service.players.ratings.calibrate [--rounds 6] [--jobs 2] [--write]
    python -m service.players.ratings.calibrate --against-references [--jobs 2] [--write]

Plays seeded games between the five levels of core.ai (every pair with 2 players, every
set of distinct levels with 3 to 5, seats rotated), rates them in order through the
model of service.players.ratings (every level learning, from OpenSkill's default skill),
and prints each level's skill. For a game of several table sizes (core.PLAYERS; Cup the
Crab: 2 to 5) it also fits the 2-player games and the larger tables' apart, and where the
two fits disagree, ratings are kept apart: one rating pool for 2 players, one for more.
--write stores the pools and the levels' skills in each in
service/players/ratings/anchors.json, which the service reads and never changes. Every
game is seeded: a run repeats exactly.

    python -m service.players.ratings.calibrate --against-references --save F
    python -m service.players.ratings.calibrate --against-references --replay F --write
    python -m service.players.ratings.calibrate --against-references --replay F \\
        --play-again 5 --save G --write

--against-references puts redefined levels on the scale that is already there: the
levels as they were before issue 31 (core.ai.REFERENCE_LEVELS) are fixed players at the
skills anchors.json gives them (its "references", or its "levels" while it has none), and
only the levels whose play changed learn, in the same pools, from games against the
references and then among themselves with references at the table (`reference_schedule`).
A level whose play did not change is its reference and takes its skill. When one level
is redefined, --play-again N plays only the games that seat it and takes the others'
results from the --replay file (the schedule and its seeds do not depend on the levels'
definitions), and --save writes the whole schedule's results. --write stores
the levels' skills and keeps the references beside them, so that a later recalibration
starts from the same scale.
"""

import argparse
import itertools
import json
import math
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import core
import core.ai
from core.tools import ladder
from service.players.ratings.model import ANCHORS, DEFAULT, Skill, rated

LEVELS = (1, 2, 3, 4, 5)
TABLES = core.PLAYERS  # each game's table sizes, as the registry gives them
# Players of --against-references: "ref-N" is core.ai.REFERENCE_LEVELS[N], "level-N" is
# level N of core.ai (core.ai.LEVELS[N], changed at some tables by core.ai.TABLE_VARIANTS);
# only the levels that differ from their reference are played.
CHANGED = tuple(level for level in LEVELS
                if core.ai.LEVELS[level] != core.ai.REFERENCE_LEVELS[level])


def schedule(game: str, rounds: int) -> list[tuple[str, tuple[int, ...], int]]:
    """(game, levels by seat, seed) of every calibration game, in the order they are rated."""
    games = []
    for players in TABLES[game]:
        for group in itertools.combinations(LEVELS, players):
            for turn in range(rounds):
                shift = turn % players  # every level takes every seat in turn
                seating = group[shift:] + group[:shift]
                games.append((game, seating, 10_000 * players + len(games)))
    return games


def ranks_of(args: tuple[str, tuple[int, ...], int]) -> list[int]:
    """The ranks by seat of one game."""
    game, seating, seed = args
    result = ladder.played(game, list(seating), seed).result()
    ranks = [0] * len(seating)
    for place in result["ranking"]:
        ranks[place["seat"]] = place["rank"]
    return ranks


def fitted(games: list[tuple[tuple[int, ...], list[int]]]) -> dict[int, Skill]:
    """The levels' skills after rating the games in order, every level learning."""
    skills = {level: DEFAULT for level in LEVELS}
    for seating, ranks in games:
        after = rated([skills[level] for level in seating], ranks, [False] * len(seating))
        skills.update(zip(seating, after))
    return skills


def agree(a: dict[int, Skill], b: dict[int, Skill]) -> bool:
    """Whether two fits agree: every level's gap to level 1 the same within two standard
    errors of the difference."""
    for level in LEVELS[1:]:
        gap_a, gap_b = a[level].mu - a[1].mu, b[level].mu - b[1].mu
        spread = math.sqrt(sum(s[level].sigma ** 2 + s[1].sigma ** 2 for s in (a, b)))
        if abs(gap_a - gap_b) > 2 * spread:
            return False
    return True


def _pool(game: str, players: list[int], skills: dict[int, Skill]) -> dict[str, Any]:
    return {"game": game, "players": players,
            "levels": {str(level): {"mu": s.mu, "sigma": s.sigma} for level, s in skills.items()}}


def _sizes(players: tuple[int, ...]) -> str:
    """Table sizes as the fits and the pools name them: 2, 3-5."""
    return f"{players[0]}-{players[-1]}" if len(players) > 1 else str(players[0])


def _tables(game: str) -> tuple[tuple[int, ...], ...]:
    """The game's table sizes as rated apart if the fits disagree: its smallest tables and
    the larger ones ((2,), (3, 4, 5)), or all at once for a game of one size."""
    smallest, *larger = TABLES[game]
    return ((smallest,), tuple(larger)) if larger else ()


def fits_of(game: str, results: list[tuple[tuple[int, ...], list[int]]]
            ) -> dict[str, dict[int, Skill]]:
    """The levels' skills fitted on all the game's games ("all") and on each of its tables
    apart ("2 players", "3-5 players")."""
    fits = {"all": fitted(results)}
    for players in _tables(game):
        fits[f"{_sizes(players)} players"] = fitted([r for r in results if len(r[0]) in players])
    return fits


def pools_of(game: str, fits: dict[str, dict[int, Skill]]) -> dict[str, dict[str, Any]]:
    """The game's rating pools: one, or one per table where their fits disagree
    (cup-the-crab-2p, cup-the-crab-3-5p)."""
    tables = _tables(game)
    if not tables or agree(*(fits[f"{_sizes(players)} players"] for players in tables)):
        return {game: _pool(game, list(TABLES[game]), fits["all"])}
    return {f"{game}-{_sizes(players)}p": _pool(game, list(players),
                                                fits[f"{_sizes(players)} players"])
            for players in tables}


def table(title: str, fits: dict[str, dict[int, Skill]]) -> None:
    print(f"\n{title}\n")
    print("| level | " + " | ".join(f"{name}: mu, sigma" for name in fits) + " |")
    print("|---|" + "---|" * len(fits))
    for level in LEVELS:
        cells = [f"{fit[level].mu:.2f}, {fit[level].sigma:.2f}" for fit in fits.values()]
        print(f"| {level} | " + " | ".join(cells) + " |")


def reference_schedule(game: str) -> list[tuple[str, tuple[str, ...], int]]:
    """(game, players by seat, seed) of --against-references, in the order they are rated:
    first each changed level against the references (with 2 players each reference
    TWO_PLAYER_TURNS[0] times, seats alternated; with 3 to 5, every set of references that
    fills the table, the level taking every seat once), then the changed levels among
    themselves (with 2 players each pair TWO_PLAYER_TURNS[1] times; with 3, two or all
    three of them with references, and
    with 4 and 5 all three of them with every set of references that fills the table, in
    each order round the table and its reverse: both_ways)."""
    def against(players: int) -> list[tuple[str, ...]]:
        return [(f"level-{level}",) + tuple(f"ref-{r}" for r in refs) for level in CHANGED
                for refs in itertools.combinations(LEVELS, players - 1)]

    def among(players: int) -> list[tuple[str, ...]]:
        sizes = (2,) if players == 2 else (2, 3) if players == 3 else (len(CHANGED),)
        return [tuple(f"level-{n}" for n in order) + tuple(f"ref-{r}" for r in refs)
                for k in sizes for news in itertools.combinations(CHANGED, k)
                for order in both_ways(news, players)
                for refs in itertools.combinations(LEVELS, players - k)]

    two, more = [n for n in TABLES[game] if n == 2], [n for n in TABLES[game] if n > 2]
    against_turns, among_turns = TWO_PLAYER_TURNS
    return (_seeded(game, two, against, against_turns, 50_000)
            + _seeded(game, more, against, 0, 50_000)
            + _seeded(game, two, among, among_turns, 70_000)
            + _seeded(game, more, among, 0, 70_000))


# Two-player games of each pairing: a changed level against each reference, and two
# changed levels against each other. A 2-mu step is a 58% to 60% edge head to head, which
# 16 games of a pair cannot tell from even: with 16, level 5 of 2-player Cup the Crab
# rated 1.05 mu above level 4, which it beats in 66.5% of 400 games (docs/ai.md).
TWO_PLAYER_TURNS = (16, 64)


def both_ways(levels: tuple[int, ...], players: int) -> list[tuple[int, ...]]:
    """The changed levels' orders round a table of `players`: with 3 or more seats, each
    order and its reverse, since turning the seats keeps who sits right after whom, and
    that matters (measured: level 5 seated right after level 4 finished above it in 43.9%
    of the pairs, right before it in 71.8%; docs/ai.md); with two seats the turns cover it."""
    return [levels] if players == 2 else [levels, levels[::-1]]


def _seeded(game: str, tables: list[int], groups, turns: int, base: int
            ) -> list[tuple[str, tuple[str, ...], int]]:
    """Every group of every table size `turns` times (0: once per seat), its seats turned
    one further every time; game i of the list is dealt with seed base * players + i."""
    work: list[tuple[str, tuple[str, ...], int]] = []
    for players in tables:
        for group in groups(players):
            for turn in range(turns or players):
                shift = turn % players
                work.append((game, group[shift:] + group[:shift], base * players + len(work)))
    return work


def _reference_ranks(args: tuple[str, tuple[str, ...], int]) -> list[int]:
    game, seating, seed = args
    # A level by its number, so that it plays as suggest(level=N) does at this table
    # (core.ai.TABLE_VARIANTS included); a reference by its budget.
    budgets = [core.ai.REFERENCE_LEVELS[int(who[4:])] if who.startswith("ref")
               else int(who.split("-")[1]) for who in seating]
    result = ladder.played(game, budgets, seed).result()
    ranks = [0] * len(seating)
    for place in result["ranking"]:
        ranks[place["seat"]] = place["rank"]
    return ranks


def fit_pool(found: dict[str, Any], results: list[tuple[tuple[str, ...], list[int]]]) -> None:
    """A pool of anchors.json refitted from --against-references games (players by seat,
    ranks), rated in order: the references fixed, the changed levels learning from
    OpenSkill's default skill; its "levels" replaced, its "references" kept."""
    references = found.get("references", found["levels"])
    skills = {f"ref-{level}": Skill(**skill) for level, skill in references.items()}
    for seating, ranks in results:
        if len(seating) in found["players"]:
            after = rated([skills.get(who, DEFAULT) for who in seating], ranks,
                          [who.startswith("ref") for who in seating])
            skills.update(zip(seating, after))
    found["references"] = references
    found["levels"] = {str(level): vars(skills.get(f"level-{level}", skills[f"ref-{level}"]))
                       for level in LEVELS}


def to_play(work: list[tuple[str, tuple[str, ...], int]], saved: dict | None,
            again: tuple[int, ...]) -> list[int]:
    """Indices of the games of `work` to play: all without `saved` results, else those that
    seat a level of `again` (whose play changed since the saved games) or are not saved."""
    seats = {f"level-{level}" for level in again}
    return [i for i, key in enumerate(work)
            if saved is None or key not in saved or seats.intersection(key[1])]


def against_references(jobs: int, write: bool, save: str | None, replay: str | None,
                       again: tuple[int, ...] = ()) -> int:
    """--against-references: plays reference_schedule (or reads its results from a --save
    file, `replay`, playing again only the games that seat a level of `again`), fits every
    pool, prints it and with write stores it; `save` gets every game's result."""
    known = json.loads(ANCHORS.read_text())
    pools = known["pools"]
    saved = None
    if replay:
        with open(replay) as lines:
            saved = {(g, tuple(seating), seed): ranks
                     for g, seating, seed, ranks in map(json.loads, lines)}
    with ProcessPoolExecutor(jobs) as workers:
        for game in TABLES:
            work = reference_schedule(game)
            play = to_play(work, saved, again)
            started = time.perf_counter()
            ranks_of_game = {} if saved is None else {i: saved.get(key) for i, key in
                                                      enumerate(work)}
            for done, ranks in enumerate(workers.map(_reference_ranks,
                                                     [work[i] for i in play]), 1):
                ranks_of_game[play[done - 1]] = ranks
                sys.stderr.write(f"\r  {game}: {done}/{len(play)} games played"
                                 f" ({len(work) - len(play)} replayed),"
                                 f" {time.perf_counter() - started:.0f} s   ")
            sys.stderr.write("\n")
            results = [(work[i][1], ranks_of_game[i]) for i in range(len(work))]
            if save:
                with open(save, "a") as out:
                    for (g, seating, seed), (_, ranks) in zip(work, results):
                        out.write(json.dumps([g, seating, seed, ranks]) + "\n")
            for name, found in pools.items():
                if found["game"] == game:
                    fit_pool(found, results)
                    print(f"\n{name}: {sum(len(s) in found['players'] for s, _ in results)}"
                          " games\n\n| level | mu, sigma | reference mu, sigma |\n|---|---|---|")
                    for level in LEVELS:
                        now, ref = found["levels"][str(level)], found["references"][str(level)]
                        print(f"| {level} | {now['mu']:.2f}, {now['sigma']:.2f} |"
                              f" {ref['mu']:.2f}, {ref['sigma']:.2f} |")
    if write:
        ANCHORS.write_text(json.dumps(known, indent=1) + "\n")
        print(f"wrote {ANCHORS}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=6, help="games per group of levels")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--write", action="store_true", help="store the skills in anchors.json")
    parser.add_argument("--against-references", action="store_true",
                        help="fit the changed levels against the fixed references")
    parser.add_argument("--save", help="--against-references: append every game's result"
                        " to this file, one JSON list a line")
    parser.add_argument("--replay", help="--against-references: fit from a --save file"
                        " instead of playing the games again")
    parser.add_argument("--play-again", type=int, nargs="+", default=(), metavar="LEVEL",
                        help="--replay: play again the games that seat these levels (their"
                        " play changed since the file was saved), replay the others")
    args = parser.parse_args(argv)
    if args.against_references:
        if args.play_again and not args.replay:
            parser.error("--play-again needs --replay: the games not played again come from it")
        return against_references(args.jobs, args.write, args.save, args.replay,
                                  tuple(args.play_again))
    pools: dict[str, dict[str, Any]] = {}
    report: dict[str, Any] = {}
    with ProcessPoolExecutor(args.jobs) as workers:
        for game in TABLES:
            work = schedule(game, args.rounds)
            started, results = time.perf_counter(), []
            for done, ranks in enumerate(workers.map(ranks_of, work), 1):
                results.append((work[done - 1][1], ranks))
                sys.stderr.write(f"\r  {game}: {done}/{len(work)} games,"
                                 f" {time.perf_counter() - started:.0f} s   ")
            sys.stderr.write("\n")
            fits = fits_of(game, results)
            game_pools = pools_of(game, fits)
            if len(fits) > 1:
                report[game] = {"separate ratings needed": len(game_pools) > 1}
            pools.update(game_pools)
            table(f"{game}: {len(results)} games", fits)
    print("\n" + json.dumps(report))
    if args.write:
        ANCHORS.write_text(json.dumps({"rounds": args.rounds, "pools": pools}, indent=1) + "\n")
        print(f"wrote {ANCHORS}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
