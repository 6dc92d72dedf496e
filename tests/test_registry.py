"""Every game core registers has every layer, and each layer finds it through the one
registry (core/registry.py): a game missing a layer fails here, naming the game and the
layer."""

import importlib

import pytest

import core
import core.ai
import core.rl_games
from core import _codec, registry

RULES = ("NAME", "PLAYERS", "OPTIONS", "new_game", "from_payload", "from_snapshot",
         "random_playouts")
SEARCH = ("vtable", "raw_state", "info", "determinize_for")
OBSERVER = ("observation_shape", "observation_layout", "N_ACTIONS", "Memory")


@pytest.mark.parametrize("entry", registry.GAMES, ids=lambda entry: entry.name)
def test_a_registered_game_has_rules_a_search_table_and_an_observer(entry):
    for layer, module_name, needed in (("rules", entry.rules, RULES),
                                       ("search", entry.search, SEARCH),
                                       ("observer", entry.observer, OBSERVER)):
        module = importlib.import_module(module_name)
        missing = [name for name in needed if not hasattr(module, name)]
        assert not missing, f"{entry.name}: its {layer} module {module_name} lacks {missing}"
    assert importlib.import_module(entry.rules).NAME == entry.name
    assert registry.vtable(entry.name) is not None, f"{entry.name}: no vtable capsule"


def test_every_layer_reads_the_registry():
    names = tuple(entry.name for entry in registry.GAMES)
    assert core.GAMES == names and tuple(core.PLAYERS) == names
    assert tuple(core.ai.ADAPTERS) == names and tuple(core.rl_games.OBSERVERS) == names
    assert tuple(_codec.GAME_CODES) == names
    assert len({entry.code for entry in registry.GAMES}) == len(names)  # codes never shared
