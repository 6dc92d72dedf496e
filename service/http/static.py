"""Static files served from a list made at start-up: a path is one of the files, or 404.

Litestar's static files router hands the request's path to the file system, which raises
on what no file name can be (a NUL byte, a name longer than the system allows) and so
answered 500. Looking the path up among the files that exist answers every other path 404
before the file system is asked anything.
"""

from pathlib import Path

from litestar import get
from litestar.exceptions import NotFoundException
from litestar.handlers import HTTPRouteHandler
from litestar.response import File


def files_under(directory: Path) -> dict[str, Path]:
    """Every file under directory by its path relative to it, with `/` separators."""
    return {path.relative_to(directory).as_posix(): path
            for path in sorted(directory.rglob("*")) if path.is_file()}


def static_files(prefix: str, directory: Path, name: str,
                 headers: dict[str, str] | None = None) -> HTTPRouteHandler:
    """GET {prefix}/<file> for the files under directory as they are at start-up, each
    answer with `headers`."""
    files = files_under(directory)

    @get(f"{prefix}/{{file:path}}", include_in_schema=False, name=name,
         sync_to_thread=False)
    def serve(file: str) -> File:
        found = files.get(file.lstrip("/"))
        if found is None:
            raise NotFoundException()
        return File(found, filename=found.name, content_disposition_type="inline",
                    headers=headers)

    return serve
