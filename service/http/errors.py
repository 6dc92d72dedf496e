"""The base of every error the API answers as a problem, and all that its answer is made of.

An error says, where its domain defines it, its status and problem type, its words in the
document's description of that status and the web client's sentence for it; problems.py
answers every one with one handler, and service/http/problem_types.py makes the document's
descriptions and the client's sentences from the same classes. This module knows no
domain: the domains import it.
"""

from typing import Any


class ApiError(Exception):
    """An error answered as `status` with the problem type `type` (its slug); the message
    it is raised with is the problem's detail, unless detail() says otherwise."""

    status: int
    type: str
    # Its fragment of the document's description of `status`, connecting words included
    # (", or ...", "; ..."): the fragments of a status, by `when_order`, make that
    # description. Empty for an error the description does not name.
    when: str = ""
    when_order: int = 0
    # What the web client says of a problem of this type (french.js has its French); None
    # where the client shows the detail itself.
    sentence: str | None = None

    def detail(self) -> str:
        return str(self)

    def headers(self) -> dict[str, str] | None:
        return None

    def extensions(self) -> dict[str, Any]:
        """The problem's extension members (Problem lists each)."""
        return {}
