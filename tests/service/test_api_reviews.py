"""Reviews: for a finished game and one seat, each of its decisions beside the move the AI
would have chosen, computed in the background, once, and kept in the archive. Run on both
deployments (Redis with PostgreSQL, the embedded store with SQLite), and across replicas:
a review a replica left half done is finished by another once its lease lapses."""

import asyncio
import json
import time
from pathlib import Path

import httpx

import core
from service.archive.storage import Archive
from service.games import bodies
from service.reviews.review import MIN_LOSS, WORST, decisions, reviewed
from service.reviews.storage import Reviews
from service.sql.database import Database
from tests.service.archives import drained
from tests.service.play import create, play_to_end
from tests.service.servers import server
from tests.service.test_api_archive import forgetful, forgotten_game  # noqa: F401 (a fixture)
from tests.service.test_api_errors import assert_problem
from tests.service.test_bodies_exact import assert_exact


def finished(client: httpx.Client, game: str, players: int, seed: int) -> tuple[dict, list]:
    created = create(client, game, players, seed=seed)
    return created, play_to_end(client, created, seed=seed)


def review_done(client: httpx.Client, location: str, seconds: float = 60) -> dict:
    deadline = time.monotonic() + seconds
    while True:
        response = client.get(location)
        assert response.status_code == 200, response.text
        review = response.json()
        assert_exact(review, bodies.ReviewBody)
        if review["status"] == "done" or time.monotonic() > deadline:
            assert review["status"] == "done", f"the review did not finish: {review}"
            return review
        assert review["status"] in ("queued", "running")
        assert review["done"] == len(review["decisions"])  # progress lists what is done
        time.sleep(0.1)


def asked(client: httpx.Client, game_id: str, seat: int) -> str:
    response = client.post(f"/v1/games/{game_id}/reviews", json={"seat": seat})
    assert response.status_code == 202, response.text
    assert_exact(response.json(), bodies.ReviewBody)
    assert response.headers["location"] == f"/v1/games/{game_id}/reviews/{seat}"
    return response.headers["location"]


def test_a_review_is_refused_until_the_game_is_over_and_nothing_is_queued(client):
    created = create(client, "cup-the-crab", 2, seed=5)
    path = f"/v1/games/{created['id']}/reviews"
    assert_problem(client.post(path, json={"seat": 0}), 409, "game-not-over")
    assert_problem(client.get(f"{path}/0"), 409, "game-not-over")
    play_to_end(client, created, seed=5)
    assert_problem(client.get(f"{path}/0"), 404, "review-not-found")


def test_a_review_lists_each_unforced_decision_of_the_seat_beside_the_ais_choice(client):
    created, moves = finished(client, "cup-the-crab", 3, seed=12)
    review = review_done(client, asked(client, created["id"], 1))
    assert review["game"] == "cup-the-crab" and review["seat"] == 1 and review["level"] == 5
    # The seat's decisions, played again in the core: every move of seat 1 that had a choice.
    state = core.new_game("cup-the-crab", 3, seed=12)
    expected = []
    for version, (seat, move) in enumerate(moves, start=1):
        if seat == 1 and len(state.legal_actions(1)) > 1:
            expected.append((version, move, len(state.legal_actions(1)),
                             [state.move_of(a) for a in state.legal_actions(1)]))
        state.apply(seat, move)
    assert review["total"] == review["done"] == len(expected) > 0
    for decision, (version, move, count, legal) in zip(review["decisions"], expected):
        assert (decision["version"], decision["played"], decision["legal_moves"]) == \
            (version, move, count)
        assert decision["best"] in legal
        assert 0 <= decision["best_win_rate"] <= 1 and decision["best_visits"] > 0
        assert 0 <= decision["win_chance"] <= 1
        if decision["played_win_rate"] is None:  # a move the search never tried
            assert decision["played_visits"] == 0 and decision["loss"] is None
        else:
            assert decision["loss"] == max(0.0, decision["best_win_rate"]
                                           - decision["played_win_rate"])
        if decision["played"] == decision["best"]:
            assert decision["loss"] == 0


def test_the_worst_decisions_marked_are_the_few_largest_losses(client):
    created, _ = finished(client, "crabe-vs-poulpe", 2, seed=3)
    review = review_done(client, asked(client, created["id"], 0))
    losses = sorted((d["loss"] for d in review["decisions"]
                     if d["loss"] is not None and d["loss"] >= MIN_LOSS), reverse=True)
    worst = [d for d in review["decisions"] if d["worst"]]
    assert len(worst) == min(WORST, len(losses)) > 0  # random moves lose somewhere
    assert sorted((d["loss"] for d in worst), reverse=True) == losses[:len(worst)]


def test_a_review_is_computed_once_and_read_back_the_same(client):
    created, _ = finished(client, "crabe-vs-poulpe", 2, seed=8)
    first = review_done(client, asked(client, created["id"], 1))
    again = client.post(f"/v1/games/{created['id']}/reviews", json={"seat": 1})
    assert again.status_code == 202 and again.json() == first  # kept, not computed again
    assert client.get(f"/v1/games/{created['id']}/reviews/1").json() == first
    assert_problem(client.get(f"/v1/games/{created['id']}/reviews/0"), 404, "review-not-found")


def test_a_review_of_a_game_the_live_store_forgot_is_computed_from_the_archive(forgetful):
    client, created, _ = forgotten_game(forgetful)
    review = review_done(client, asked(client, created["id"], 0))
    assert review["total"] == len(review["decisions"]) > 0
    client.close()


def test_bad_review_requests_are_refused_with_a_precise_problem(client):
    created, _ = finished(client, "crabe-vs-poulpe", 2, seed=4)
    path = f"/v1/games/{created['id']}/reviews"
    assert "seats 0 to 1" in assert_problem(client.post(path, json={"seat": 2}), 422,
                                            "invalid-seat")["detail"]
    assert_problem(client.post(path, json={"seat": "1"}), 400, "invalid-request")
    assert_problem(client.post(path, json={"seat": 1, "level": 1}), 400, "invalid-request")
    assert_problem(client.post(path, json={}), 400, "invalid-request")
    assert_problem(client.get(f"{path}/2"), 404, "review-not-found")
    assert_problem(client.get(f"{path}/-1"), 404, "review-not-found")
    assert_problem(client.post("/v1/games/nope/reviews", json={"seat": 0}), 404,
                   "game-not-found")
    assert_problem(client.get(f"{path}/0"), 404, "review-not-found")  # none was queued


def test_a_review_a_replica_left_half_done_is_finished_by_another(tmp_path: Path):
    """A replica claims a review, writes its first decision and dies: the lease lapses,
    another replica takes the review over and carries on from the decision written."""
    url = f"sqlite:///{tmp_path}/archive.sqlite3"
    env = {"DATABASE_URL": url, "REVIEW_LEASE_SECONDS": "2"}
    with server(env) as first, httpx.Client(base_url=first.url, timeout=30) as client:
        created, _ = finished(client, "crabe-vs-poulpe", 2, seed=6)
        drained(first.url)
    game_id = created["id"]

    async def claim_and_die() -> dict:
        archive = Archive(Database(url))
        try:
            reviews = Reviews(archive.database)
            now = int(time.time() * 1000)
            await reviews.request(game_id, 0, 5, now)
            lease, review = await reviews.claim(now, 6_000)
            row = await archive.get(game_id)
            entries = json.loads(row.document)["entries"]
            first_decision = reviewed(next(decisions(row.initial, entries, 0)), 0, 5)
            await reviews.progress(lease, lease.until_ms, 1, review.total or 0,
                                   json.dumps({"decisions": [first_decision]}), False)
            return first_decision
        finally:
            await archive.database.close()

    written = asyncio.run(claim_and_die())
    with server(env) as second, httpx.Client(base_url=second.url, timeout=30) as client:
        location = f"/v1/games/{game_id}/reviews/0"
        held = client.get(location).json()
        assert held["status"] == "running" and held["done"] == 1  # the dead replica's lease
        review = review_done(client, location)
    assert {**review["decisions"][0], "worst": False} == written
    assert review["total"] == len(review["decisions"]) > 1


def test_a_replica_computes_one_review_at_a_time(tmp_path: Path):
    """Reviews asked for together wait their turn: never two running at once on a replica
    (one worker), however many are queued."""
    with server({"DATABASE_URL": f"sqlite:///{tmp_path}/archive.sqlite3"}) as alone, \
            httpx.Client(base_url=alone.url, timeout=30) as client:
        created, _ = finished(client, "cup-the-crab", 5, seed=9)
        locations = [asked(client, created["id"], seat) for seat in range(5)]
        deadline, seen_running = time.monotonic() + 120, set()
        while True:
            # Read in the reverse of the order they are taken in (oldest first, then by
            # seat): a review seen running means every one before it is done already.
            statuses = [client.get(location).json()["status"] for location in locations[::-1]][::-1]
            assert statuses.count("running") <= 1, statuses
            seen_running.update(seat for seat, status in enumerate(statuses) if status == "running")
            if all(status == "done" for status in statuses) or time.monotonic() > deadline:
                break
        assert all(status == "done" for status in statuses)
        assert seen_running  # the reviews were caught running, one by one
