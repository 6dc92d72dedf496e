"""/v1/games/{id}/reviews: a finished game's review for one seat, asked for, then read."""

import json
from typing import Any

from litestar import Controller, Response, get, post
from litestar.datastructures import ResponseHeader

from service.games import bodies
from service.games.addressing import load
from service.games.bodies.archived import ReviewRequest
from service.games.sessions import Sessions
from service.http.openapi import problems
from service.reviews.storage import Review
from service.reviews.worker import Reviewer


def review_body(game: str, review: Review) -> Any:
    return bodies.review_body({
        "game": game, "id": review.game_id, "seat": review.seat, "status": review.status,
        "level": review.level, "done": review.done, "total": review.total,
        # A review stored before the judge existed has no win_chance: it is null.
        "decisions": [{"win_chance": None, **decision}
                      for decision in json.loads(review.document)["decisions"]]})


class ReviewsController(Controller):
    path = "/v1/games"
    tags = ["archive"]

    @post("/{game_id:str}/reviews", status_code=202,
          responses=problems(400, 404, 409, 413, 422, 429, 503),
          response_headers=[ResponseHeader(name="Location", documentation_only=True,
                                           description="the review's URL, to read its progress")],
          summary="Ask for a finished game's review for one seat, computed in the background",
          description="For each decision of the seat (forced moves left out), the move the AI"
                      " at the server's REVIEW_LEVEL would have chosen from what the seat knew,"
                      " and both moves' estimated win rates, the worst few marked. 409"
                      " `game-not-over` before the game's end. Asked for twice, the same"
                      " review: it is computed once and kept in the archive. Read its"
                      " progress, then its decisions, at the Location.")
    async def ask(self, game_id: str, data: ReviewRequest, sessions: Sessions,
                  reviewer: Reviewer) -> Response[bodies.ReviewBody]:
        session = await load(sessions, game_id)
        review = await reviewer.request(session, data.seat)
        return Response(review_body(session.meta.game, review), status_code=202,
                        headers={"Location": f"/v1/games/{game_id}/reviews/{data.seat}"})

    @get("/{game_id:str}/reviews/{seat:int}", responses=problems(404, 409, 503),
         summary="A review's progress (queued, running: done of total), then its decisions",
         description="404 `review-not-found` until it is asked for (POST .../reviews).")
    async def read(self, game_id: str, seat: int, sessions: Sessions,
                   reviewer: Reviewer) -> bodies.ReviewBody:
        session = await load(sessions, game_id)
        return review_body(session.meta.game, await reviewer.get(session, seat))
