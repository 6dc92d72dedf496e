"""The compiled core is what runs: no silent pure-Python fallback can pass."""

import importlib
import importlib.machinery
import tomllib
from pathlib import Path

import core
from core import registry

ROOT = Path(__file__).resolve().parent.parent


def test_every_game_engine_is_a_compiled_extension_module():
    for entry in registry.GAMES:
        for name in entry.modules:
            module = importlib.import_module(name)
            assert module.__file__.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES)), module
    assert set(core.GAMES) == {"cup-the-crab", "crabe-vs-poulpe"}


def test_only_core_and_service_are_packaged():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert config["tool"]["setuptools"]["packages"]["find"]["include"] == ["core*", "service*"]


def test_compiled_modules_ship_typing_stubs():
    assert (ROOT / "core" / "py.typed").exists()
    for entry in registry.GAMES:
        for name in entry.modules:
            assert (ROOT / (name.replace(".", "/") + ".pyi")).exists(), name
