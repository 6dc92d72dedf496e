"""The base of every error the API answers as a problem, and all that its answer is made of.

An error says, where its domain defines it, its status and problem type; problems.py
answers every one with one handler. This module knows no domain: the domains import it.
"""

from typing import Any


class ApiError(Exception):
    """An error answered as `status` with the problem type `type` (its slug); the message
    it is raised with is the problem's detail, unless detail() says otherwise."""

    status: int
    type: str

    def detail(self) -> str:
        return str(self)

    def headers(self) -> dict[str, str] | None:
        return None

    def extensions(self) -> dict[str, Any]:
        """The problem's extension members (Problem lists each)."""
        return {}
