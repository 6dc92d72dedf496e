"""/play: the browser client (plain HTML, CSS and ES modules in service/web, no build step)."""

from pathlib import Path

from litestar import get
from litestar.handlers import BaseRouteHandler
from litestar.response import File

from service.controllers.static import static_files

WEB = Path(__file__).resolve().parent.parent / "web"


@get("/play", include_in_schema=False)
async def play_page() -> File:
    """The client's single page; the game to show is in the URL's fragment (never sent)."""
    return File(WEB / "index.html", filename="index.html", media_type="text/html",
                content_disposition_type="inline")


def play_routes() -> list[BaseRouteHandler]:
    """The page at /play and its assets under /play/ (the page is also /play/index.html)."""
    return [play_page, static_files("/play", WEB, "play-assets")]
