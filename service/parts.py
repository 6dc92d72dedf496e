"""What a domain adds to the application, in one shape: the composition root (service.app)
gathers each domain's `Part` and knows nothing else of it.

A part names its route handlers, the objects its handlers take by name, and what starts
and stops with the app. Each domain builds its own (its `parts` module): adding a
component is a line there, not five places in the app factory.
"""

import inspect
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from litestar.di import Provide

Hook = Callable[[], Awaitable[None] | None]


@dataclass(frozen=True)
class Provided:
    """An object handlers take by name, resolved after the dependency `after` names.

    Litestar resolves a handler's dependencies level by level of their graph and starts
    an anyio task group, a task per dependency, for every level of two or more: with
    independent providers every read and move paid for one, half of a read's CPU in the
    app (loadtests/asgi_bench.py, docs/benchmarks.md). So a provider names one object,
    the one the handlers taking it also take, and those handlers resolve one at a time:
    clocks (built on sessions and robots) comes after sessions, and a read that takes
    sessions and clocks needs no robots of its own. Each level costs a provider's
    signature check too, which is why it names one object and not every one it is
    built on (tests/service/test_parts.py pins a game's reads and moves to one at a
    time). The routes that take the caller's player (`me`, an SQL lookup of its key)
    resolve it beside their domain's object: there a task group costs little beside the
    lookup."""
    value: object
    after: str | None = None


@dataclass(frozen=True)
class Part:
    """routes: route handlers; provides: objects handlers take by name; resolves: what a
    handler takes that is made per request (the caller's player, say); start and stop:
    hooks run with the app's start-up and shutdown, in the parts' order."""
    routes: Sequence[Any] = ()
    provides: dict[str, Provided] = field(default_factory=dict)
    resolves: dict[str, Provide] = field(default_factory=dict)
    start: Sequence[Hook] = ()
    stop: Sequence[Hook] = ()


def providers(parts: Sequence[Part]) -> dict[str, Provide]:
    """Every part's dependencies for Litestar: its objects, each after the one it names,
    and what it resolves per request. A name given twice is a wiring mistake."""
    provided = {name: item for part in parts for name, item in part.provides.items()}
    resolved = {name: item for part in parts for name, item in part.resolves.items()}
    names = [name for part in parts for name in (*part.provides, *part.resolves)]
    twice = sorted({name for name in names if names.count(name) > 1})
    if twice:
        raise ValueError(f"dependencies provided by two parts: {', '.join(twice)}")
    return {**{name: Provide(_provider(item, provided), sync_to_thread=False)
               for name, item in provided.items()}, **resolved}


def _provider(item: Provided, provided: dict[str, Provided]) -> Callable[..., object]:
    """A function returning item.value whose signature names `item.after` (typed as that
    object's class), which is all Litestar reads to order it."""
    def provide(**_: object) -> object:
        return item.value

    kind = type(item.value)
    parameters = []
    if item.after is not None:
        before = type(provided[item.after].value)
        parameters.append(inspect.Parameter(item.after, inspect.Parameter.KEYWORD_ONLY,
                                            annotation=before))
        provide.__annotations__ = {item.after: before, "return": kind}
    else:
        provide.__annotations__ = {"return": kind}
    provide.__signature__ = inspect.Signature(parameters,  # type: ignore[attr-defined]
                                              return_annotation=kind)
    return provide
