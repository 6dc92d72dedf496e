"""TypeScript types generated from the served document with the command docs/api.md gives
(openapi-typescript, pinned by tests/service/typescript/package-lock.json) compile a strict
openapi-fetch program (tests/service/typescript/play.ts) that creates games without any
optional field and plays a whole game of each game against the served API, on both stores.

Needs node and npm; `npm ci` installs the pinned packages from the registry into
tests/service/typescript/node_modules (git-ignored), once per run of this module.
"""

import json
import os
import shlex
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.service.servers import ROOT, server

PROJECT = Path(__file__).resolve().parent / "typescript"
DOCUMENTED_URL = "http://127.0.0.1:8000/schema/openapi.json"
TYPES = "crab-api.d.ts"

pytestmark = pytest.mark.skipif(
    shutil.which("node") is None or shutil.which("npm") is None,
    reason="node and npm are needed to generate and compile the TypeScript client")


def documented_command() -> list[str]:
    """The one `npx openapi-typescript ...` line of docs/api.md, as argv."""
    lines = [line for line in (ROOT / "docs" / "api.md").read_text().splitlines()
             if line.startswith("npx openapi-typescript ")]
    assert len(lines) == 1, f"docs/api.md should give one openapi-typescript command: {lines}"
    command = shlex.split(lines[0])
    assert DOCUMENTED_URL in command and command[command.index("-o") + 1] == TYPES, command
    return command


def run(command: list[str], cwd: Path, timeout: float = 120) -> subprocess.CompletedProcess:
    # CI=1 keeps npm from asking questions; NO_COLOR keeps the output readable in failures.
    env = {**os.environ, "CI": "1", "NO_COLOR": "1", "NO_UPDATE_NOTIFIER": "1"}
    return subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=timeout)


@pytest.fixture(scope="module")
def node_modules() -> Path:
    """The pinned packages, installed exactly as the lockfile says."""
    installed = run(["npm", "ci", "--no-audit", "--no-fund", "--prefer-offline"], PROJECT, 300)
    assert installed.returncode == 0, installed.stdout + installed.stderr
    return PROJECT / "node_modules"


@pytest.fixture
def workdir(node_modules, tmp_path) -> Iterator[Path]:
    """A copy of the TypeScript project, sharing the installed packages, to generate into."""
    for name in ("package.json", "tsconfig.json", "play.ts"):
        shutil.copy(PROJECT / name, tmp_path / name)
    (tmp_path / "node_modules").symlink_to(node_modules, target_is_directory=True)
    yield tmp_path


def generate(workdir: Path, url: str, command: list[str]) -> str:
    """Runs the command with the served document's URL in place of the documented one."""
    served = [part.replace(DOCUMENTED_URL, f"{url}/schema/openapi.json") for part in command]
    generated = run(served, workdir)
    assert generated.returncode == 0, generated.stdout + generated.stderr
    pinned = json.loads((PROJECT / "package-lock.json").read_text())[
        "packages"]["node_modules/openapi-typescript"]["version"]
    assert f"openapi-typescript {pinned}" in generated.stdout, "npx ran another version"
    return (workdir / TYPES).read_text()


def compile_strict(workdir: Path) -> subprocess.CompletedProcess:
    return run(["npx", "tsc", "-p", "tsconfig.json", "--strict"], workdir)


def test_the_documented_types_compile_a_strict_client_that_plays_both_games(api, workdir):
    types = generate(workdir, api.url, documented_command())
    assert "Record<string, any>" not in types

    compiled = compile_strict(workdir)
    assert compiled.returncode == 0, compiled.stdout + compiled.stderr

    played = run(["node", "out/play.js", api.url, "18"], workdir, timeout=60)
    assert played.returncode == 0, played.stdout + played.stderr
    games = [json.loads(line) for line in played.stdout.splitlines()]
    assert [(game["game"], game["players"]) for game in games] == [
        ("cup-the-crab", 3), ("crabe-vs-poulpe", 2)]
    for game in games:
        served = httpx.get(f"{api.url}/v1/games/{game['id']}").json()
        assert served["status"] == "over" and served["version"] == game["version"] == game["moves"]
        assert served["result"] == game["result"] and served["result"]["reason"] == "finished"
        assert served["seeded"] is False  # created without a seed, as without every option


def test_without_the_flag_the_same_client_does_not_compile(workdir):
    """openapi-typescript's default (defaultNonNullable) makes every field with a default
    required: the flag in docs/api.md is what lets a client leave the optional ones out."""
    command = documented_command()
    flags = [part for part in command if part.startswith("--default-non-nullable")]
    assert flags == ["--default-non-nullable=false"], command
    with server({}) as running:
        generate(workdir, running.url, [part for part in command if part not in flags])
    compiled = compile_strict(workdir)
    assert compiled.returncode != 0
    for refused in ("is missing the following properties from type", ": options, seed, seats",
                    "Property 'expected_version' is missing"):
        assert refused in compiled.stdout, compiled.stdout
