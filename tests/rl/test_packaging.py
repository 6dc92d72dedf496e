"""The learning interface is compiled, typed, and optional: the service never loads it."""

import importlib
import importlib.machinery
import subprocess
import sys
import tomllib
from pathlib import Path

import core.vector
from core import registry

ROOT = Path(__file__).resolve().parents[2]
RL_LIBRARIES = ("numpy", "pettingzoo", "gymnasium")


def test_the_observation_writers_and_the_vector_are_compiled_and_ship_stubs():
    observers = [importlib.import_module(entry.observer) for entry in registry.GAMES]
    for module in (*observers, core.vector):
        assert module.__file__.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES))
        assert Path(module.__file__.split(".")[0] + ".pyi").exists()


def test_numpy_pettingzoo_and_gymnasium_are_the_optional_rl_extra_and_in_dev():
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    dependencies = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    for library in RL_LIBRARIES:
        assert any(d.startswith(library) for d in extras["rl"])
        assert any(d.startswith(library) for d in extras["dev"])
        assert not any(d.startswith(library) for d in dependencies)


def test_the_service_and_a_whole_game_run_without_importing_them():
    script = ("import sys, core, service.app\n"
              "service.app.create_app()\n"
              "s = core.new_game('cup-the-crab', 3, seed=1)\n"
              "while not s.is_over:\n"
              "    seat = s.to_move[0]; s.apply_action(seat, s.legal_actions(seat)[0])\n"
              "s.view(0); s.result()\n"
              f"print([m for m in {RL_LIBRARIES!r} if m in sys.modules])\n")
    out = subprocess.run([sys.executable, "-c", script], cwd=ROOT, check=True,
                         capture_output=True, text=True).stdout
    assert out.strip() == "[]"
