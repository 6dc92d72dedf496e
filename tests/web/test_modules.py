"""The client's modules (service/web/js) import one another without a circle: a module
in a circle may run before what it imports has, and sees its exports undefined."""

import re
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

MODULES = Path(__file__).resolve().parents[2] / "service" / "web" / "js"
IMPORT = re.compile(r'^(?:import|export)\s[^;]*?from\s+"\./([\w-]+\.js)"|^import\s+"\./([\w-]+\.js)"',
                    re.MULTILINE)


def imports() -> dict[str, set[str]]:
    return {path.name: {a or b for a, b in IMPORT.findall(path.read_text())}
            for path in MODULES.glob("*.js")}


def circle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import circle of graph, as the modules along it, or None."""
    done: set[str] = set()

    def visit(module: str, path: list[str]) -> list[str] | None:
        if module in path:
            return path[path.index(module):] + [module]
        if module in done:
            return None
        for imported in sorted(graph.get(module, ())):
            found = visit(imported, path + [module])
            if found:
                return found
        done.add(module)
        return None

    return next((found for module in sorted(graph) if (found := visit(module, []))), None)


def test_every_import_names_a_module_that_exists():
    graph = imports()
    missing = {(module, name) for module, names in graph.items() for name in names
               if name not in graph}
    assert not missing and graph["app.js"], missing


def test_the_clients_modules_import_one_another_without_a_circle():
    assert circle(imports()) is None, " -> ".join(circle(imports()))


def test_every_module_parses_as_an_es_module():
    """A syntax error shows only in a browser that loads that module: node parses them all
    (as .mjs: node checks a .js file as a script, and lets pass what a module refuses)."""
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed (.ci/setup installs nodejs)")
    with tempfile.TemporaryDirectory() as folder:
        failures = []
        for module in sorted(MODULES.glob("*.js")):
            copy = Path(folder) / f"{module.stem}.mjs"
            copy.write_text(module.read_text())
            run = subprocess.run([node, "--check", str(copy)], capture_output=True, text=True)
            if run.returncode != 0:
                said = [line for line in run.stderr.splitlines() if "Error" in line]
                failures.append(f"{module.name}: {said[0] if said else run.stderr.strip()}")
    assert not failures, failures


def test_the_circle_check_finds_a_circle():
    assert circle({"a.js": {"b.js"}, "b.js": {"c.js"}, "c.js": {"a.js"}}) == \
        ["a.js", "b.js", "c.js", "a.js"]
