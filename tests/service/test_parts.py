"""The app is assembled from each domain's parts (service/parts.py), and the reads and
moves of a game resolve their dependencies one at a time: a level of two or more would
start a task group on every request, which once cost a read half of its CPU in the app."""

import pytest

from service.app import create_app
from service.config import Settings
from service.parts import Part, Provided, providers
from service.store import MemoryStore

GAME = "/v1/games/{game_id:str}"
GAME_ROUTES = {("GET", GAME), ("GET", f"{GAME}/legal-moves"), ("GET", f"{GAME}/history"),
               ("POST", f"{GAME}/moves"), ("POST", f"{GAME}/suggest"), ("GET", f"{GAME}/events")}


def dependency_levels(app) -> dict[tuple[str, str], list[int]]:
    """Each route's dependencies as Litestar resolves them: how many at each level."""
    levels = {}
    for route in app.routes:
        for handler in getattr(route, "route_handlers", ()):
            model = handler.create_kwargs_model(
                path_parameters={name: name for name in route.path_parameters})
            for method in handler.http_methods:
                levels[(method, route.path)] = [len(batch) for batch in model.dependency_batches]
    return levels


def test_a_games_reads_and_moves_resolve_their_dependencies_one_at_a_time(tmp_path):
    app = create_app(Settings(database_url=f"sqlite:///{tmp_path}/archive.sqlite3"),
                     MemoryStore(60))
    levels = dependency_levels(app)
    assert GAME_ROUTES <= set(levels)
    for route in GAME_ROUTES:
        assert levels[route] and all(size == 1 for size in levels[route]), (route, levels[route])


def test_a_dependency_two_parts_provide_is_refused():
    with pytest.raises(ValueError, match="dependencies provided by two parts: clocks"):
        providers([Part(provides={"clocks": Provided(object())}),
                   Part(provides={"clocks": Provided(object())})])


def test_a_provided_object_is_resolved_after_the_one_it_names():
    first, second = object(), object()
    provided = providers([Part(provides={"first": Provided(first),
                                         "second": Provided(second, after="first")})])
    assert provided["second"].dependency(first=first) is second
    assert list(provided["first"].dependency.__signature__.parameters) == []
    assert list(provided["second"].dependency.__signature__.parameters) == ["first"]
