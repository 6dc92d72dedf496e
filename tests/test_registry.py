"""Every game core registers has every layer, and each layer finds it through the one
registry (core/registry.py): a game missing a layer fails here, naming the game and the
layer."""

import ctypes
import importlib
import re
from pathlib import Path

import pytest

import core
import core.ai
import core.rl.per_game
from core import _codec, registry
from core.registry import GameEntry

WEB = Path(__file__).resolve().parent.parent / "service" / "web" / "js"
RULES = ("NAME", "PLAYERS", "OPTIONS", "new_game", "from_payload", "from_snapshot",
         "random_playouts")
SEARCH = ("vtable", "raw_state", "info", "determinize_for")
OBSERVER = ("observation_shape", "observation_layout", "N_ACTIONS", "Memory")
CAPSULE = b"core.vtable.GameVTable"

_get_name = ctypes.pythonapi.PyCapsule_GetName
_get_name.restype, _get_name.argtypes = ctypes.c_char_p, [ctypes.py_object]
_get_pointer = ctypes.pythonapi.PyCapsule_GetPointer
_get_pointer.restype, _get_pointer.argtypes = ctypes.c_void_p, [ctypes.py_object, ctypes.c_char_p]


def _module_problems(entry: GameEntry) -> list[str]:
    problems = []
    for layer, module_name, needed in (("rules", entry.rules, RULES),
                                       ("search", entry.search, SEARCH),
                                       ("observer", entry.observer, OBSERVER)):
        try:
            module = importlib.import_module(module_name)
        except ImportError as error:
            problems.append(f"{entry.name}: its {layer} module {module_name} is missing ({error})")
            continue
        missing = [name for name in needed if not hasattr(module, name)]
        if missing:
            problems.append(f"{entry.name}: its {layer} module {module_name} lacks {missing}")
        elif layer == "rules" and module.NAME != entry.name:
            problems.append(f"{entry.name}: its rules module {module_name} is {module.NAME!r}")
    return problems


def _vtable_problems(entry: GameEntry) -> list[str]:
    """The C function table the search and the vector read: a capsule of the right name
    whose table names this game (its first field, `const char* name`)."""
    try:
        capsule = entry.vtable()
    except (ImportError, AttributeError) as error:
        return [f"{entry.name}: no vtable capsule from {entry.search}.vtable() ({error})"]
    if _get_name(capsule) != CAPSULE:
        return [f"{entry.name}: {entry.search}.vtable() is not a {CAPSULE.decode()} capsule"]
    table_name = ctypes.cast(_get_pointer(capsule, CAPSULE), ctypes.POINTER(ctypes.c_char_p))[0]
    if table_name != entry.name.encode():
        return [f"{entry.name}: its vtable describes {table_name!r}"]
    return []


def _web_problems(entry: GameEntry) -> list[str]:
    """Its web module exists, registers this game, and games.js imports it."""
    module = WEB / entry.web
    if not module.exists():
        return [f"{entry.name}: no web module service/web/js/{entry.web}"]
    problems = []
    text = module.read_text()
    if not re.search(r'register\(\{\s*name:\s*"' + re.escape(entry.name) + '"', text):
        problems.append(f"{entry.name}: its web module {entry.web} does not register it"
                        f' (register({{ name: "{entry.name}", ... }}))')
    if f'import "./{entry.web}";' not in (WEB / "games.js").read_text():
        problems.append(f'{entry.name}: service/web/js/games.js lacks import "./{entry.web}";')
    return problems


def layer_problems(entry: GameEntry) -> list[str]:
    return _module_problems(entry) + _vtable_problems(entry) + _web_problems(entry)


@pytest.mark.parametrize("entry", registry.GAMES, ids=lambda entry: entry.name)
def test_a_registered_game_has_rules_a_search_table_an_observer_and_a_web_module(entry):
    problems = layer_problems(entry)
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("entry", registry.GAMES, ids=lambda entry: entry.name)
def test_the_search_and_the_vector_run_a_registered_game_from_its_one_table(entry):
    import core.rl
    players = min(core.PLAYERS[entry.name])
    vec = core.rl.Vector(entry.name, players, 4, seed=1)
    for _ in range(50):
        vec.step(vec.sample_actions())
    state = core.new_game(entry.name, players, seed=1)
    seat = state.to_move[0]
    assert core.ai.suggest(state, seat, iterations=50, seed=1)["move"] in state.legal_moves(seat)


def test_a_game_lacking_its_layers_is_named_with_each_layer():
    ghost = GameEntry("ghost-crab", 99, "ghost", "ghost.js")
    problems = layer_problems(ghost)
    for layer in ("rules module", "search module", "observer module", "vtable", "web module"):
        assert any(p.startswith("ghost-crab:") and layer in p for p in problems), (layer, problems)


def test_the_registry_hands_out_each_game_s_table_and_refuses_an_unregistered_game():
    import core.rl
    for entry in registry.GAMES:
        assert _get_pointer(registry.vtable(entry.name), CAPSULE) == _get_pointer(
            entry.vtable(), CAPSULE)
    for refuse in (lambda: registry.vtable("chess"), lambda: core.rl.Vector("chess", 2, 4)):
        with pytest.raises(ValueError, match="cup-the-crab, crabe-vs-poulpe"):
            refuse()


def test_every_layer_reads_the_registry():
    names = tuple(entry.name for entry in registry.GAMES)
    assert core.GAMES == names and tuple(core.PLAYERS) == names
    assert tuple(core.ai.ADAPTERS) == names and tuple(core.rl.per_game.OBSERVERS) == names
    assert tuple(_codec.GAME_CODES) == names
    assert len({entry.code for entry in registry.GAMES}) == len(names)  # codes never shared
    games_js = (WEB / "games.js").read_text()
    imported = re.findall(r'^import "\./([\w-]+\.js)";$', games_js, re.MULTILINE)
    assert imported == [entry.web for entry in registry.GAMES]  # the start page's order
