"""The reviews' part: the worker that computes asked-for reviews, kept in the SQL
database, and their routes."""

from dataclasses import dataclass

from service.config import Settings
from service.games.sessions import Sessions
from service.parts import Part, Provided
from service.reviews.controller import ReviewsController
from service.reviews.storage import Reviews
from service.reviews.worker import Reviewer
from service.sql.database import Database
from service.store import Store


@dataclass(frozen=True)
class ReviewParts:
    reviewer: Reviewer

    @staticmethod
    def build(sessions: Sessions, database: Database, store: Store,
              settings: Settings) -> "ReviewParts":
        return ReviewParts(Reviewer(sessions, Reviews(database), store, settings))

    def part(self) -> Part:
        return Part(routes=[ReviewsController],
                    provides={"reviewer": Provided(self.reviewer, after="sessions")},
                    start=[self.reviewer.start], stop=[self.reviewer.stop])
