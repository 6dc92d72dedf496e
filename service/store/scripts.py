"""The Redis store's Lua scripts, read once from scripts/ beside this file."""

from functools import cache
from pathlib import Path

SCRIPTS = Path(__file__).resolve().parent / "scripts"
# Scripts that call spend(): the GCRA function is defined in front of them.
_SPENDING = {"spend", "load_spending"}


@cache
def source(name: str) -> str:
    """The Lua source of scripts/<name>.lua, with what it calls defined in front."""
    text = (SCRIPTS / f"{name}.lua").read_text()
    return source("gcra") + text if name in _SPENDING else text
