"""The real service and a real headless Chromium (Debian's, driven by Playwright) for the
browser tests. Screenshots go to $WEB_SCREENSHOTS when set (docs/images refreshes them:
`WEB_SCREENSHOTS=docs/images python -m pytest tests/web`), else to a temporary folder."""

import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, sync_playwright

from tests.processes import START_SECONDS
from tests.service.servers import Server, server

CHROMIUM = "/usr/bin/chromium"
HERE = Path(__file__).resolve().parent
AXE = HERE / "node_modules" / "axe-core" / "axe.min.js"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]


@pytest.fixture(scope="session")
def web() -> Iterator[Server]:
    """The service with the embedded store; turn clocks as short as one second."""
    with server({"ACCESS_LOG": "0", "TURN_SECONDS_MIN": "1"}) as running:
        yield running


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """Chromium, for one test file: while Playwright's sync API is open its event loop runs
    in this process, and a worker of pytest-xdist goes on to other files, whose
    asyncio.run() must find no loop running."""
    if not Path(CHROMIUM).exists():  # .ci/run installs it: a missing browser is a failure
        pytest.fail(f"{CHROMIUM} is missing: apt-get install -y chromium")
    with sync_playwright() as playwright:
        # launch() gives every run a fresh temporary profile (user-data-dir), and a start
        # as long as a loaded machine needs (its error carries Chromium's own log); the
        # driver's exit ends the browser if close() cannot, and the session's end kills
        # any process left (tests/processes.py).
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS,
                                              headless=True, timeout=START_SECONDS * 1000)
        try:
            yield launched
        finally:
            launched.close()


@pytest.fixture(scope="session")
def shots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = Path(os.environ.get("WEB_SCREENSHOTS") or tmp_path_factory.mktemp("screenshots"))
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@pytest.fixture(scope="session")
def axe_source() -> str:
    """axe-core's script, installed from tests/web/package-lock.json by `npm ci` (.ci/setup
    runs it; here it runs once if it has not)."""
    if not AXE.exists():
        if shutil.which("npm") is None:
            pytest.fail("npm is missing: apt-get install -y npm (then npm ci --prefix tests/web)")
        subprocess.run(["npm", "ci", "--no-audit", "--no-fund", "--prefer-offline"], cwd=HERE,
                       check=True, timeout=300, env={**os.environ, "CI": "1"})
    return AXE.read_text()
