"""/play: the browser client (plain HTML, CSS and ES modules in service/web, no build step)."""

from pathlib import Path
from urllib.parse import quote

from litestar import get
from litestar.handlers import BaseRouteHandler
from litestar.response import File, Redirect

from service.http.static import static_files

WEB = Path(__file__).resolve().parent.parent / "web"

# The client loads nothing from elsewhere and runs no inline script or style, so its page
# allows only its own origin: an injected script, a foreign frame around the table or a
# leaked referrer (a join link's game id) has nowhere to go. Style attributes set through
# the CSSOM (element.style) are not inline styles and stay allowed.
CONTENT_SECURITY_POLICY = "; ".join([
    "default-src 'none'", "script-src 'self'", "style-src 'self'", "img-src 'self'",
    "connect-src 'self'", "font-src 'self'", "manifest-src 'self'", "base-uri 'none'",
    "form-action 'self'", "frame-ancestors 'none'"])
HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",  # frame-ancestors for browsers that predate it
    "Cross-Origin-Opener-Policy": "same-origin",
}


@get("/play", include_in_schema=False)
async def play_page() -> File:
    """The client's single page; the game to show is in the URL's fragment (never sent)."""
    return File(WEB / "index.html", filename="index.html", media_type="text/html",
                content_disposition_type="inline", headers=HEADERS)


@get("/play/replay/{game_id:str}", include_in_schema=False)
async def replay_page(game_id: str) -> Redirect:
    """A replay's shareable address: the client's own (its router reads the fragment)."""
    return Redirect(f"/play#/replay/{quote(game_id, safe='')}", headers=HEADERS)


@get("/play/review/{game_id:str}/{seat:int}", include_in_schema=False)
async def review_page(game_id: str, seat: int) -> Redirect:
    """A review's shareable address: one seat's decisions, once the game is over."""
    return Redirect(f"/play#/review/{quote(game_id, safe='')}/{seat}", headers=HEADERS)


def play_routes() -> list[BaseRouteHandler]:
    """The page at /play and its assets under /play/ (the page is also /play/index.html),
    and /play/replay/<id> and /play/review/<id>/<seat>."""
    return [play_page, replay_page, review_page, static_files("/play", WEB, "play-assets", HEADERS)]
