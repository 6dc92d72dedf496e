"""What is a game's own in the client is in its files: its module (service/web/js/<web>,
with its French) and the stylesheet that module names. No shared module or stylesheet
names a game, so a new game touches no shared file but games.js's list of imports, and a
game's look and words go with it."""

import re
from pathlib import Path

import httpx
import pytest

from core import registry
from core.registry import GameEntry

WEB = Path(__file__).resolve().parents[2] / "service" / "web"
STYLESHEET = re.compile(r'^\s*stylesheet: "([\w-]+\.css)",$', re.MULTILINE)


def stylesheet_of(entry: GameEntry) -> str:
    """The stylesheet the game's module registers (register({ ..., stylesheet }))."""
    named = STYLESHEET.findall((WEB / "js" / entry.web).read_text())
    assert len(named) == 1, f"{entry.web} names {named or 'no stylesheet'}"
    return named[0]


def own_files() -> set[Path]:
    return {path for entry in registry.GAMES
            for path in (WEB / "js" / entry.web, WEB / stylesheet_of(entry))}


def names(entry: GameEntry) -> set[str]:
    """The ways the client may name a game: as the API spells it, its title, its folder and
    its module's name (crabe-vs-poulpe, Crabe vs Poulpe, cvp)."""
    return {entry.name, entry.name.replace("-", " "), entry.package, Path(entry.web).stem}


def naming(text: str) -> set[str]:
    """The names of registered games that text holds (any case)."""
    return {name for entry in registry.GAMES for name in names(entry)
            if re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", text, re.IGNORECASE)}


def shared_text(path: Path) -> str:
    """The file as the check reads it: games.js's import lines are the one list of game
    modules (tests/test_registry.py holds it to the registry), so they are left out."""
    text = path.read_text()
    if path.name == "games.js":
        modules = "|".join(re.escape(entry.web) for entry in registry.GAMES)
        text = re.sub(rf'^import "\./(?:{modules})";$', "", text, flags=re.MULTILINE)
    return text


def test_no_shared_module_stylesheet_or_page_of_the_client_names_a_game():
    shared = [path for pattern in ("*.html", "*.css", "js/*.js") for path in WEB.glob(pattern)
              if path not in own_files()]
    assert len(shared) > 20  # the check reads the client, not an empty folder
    found = {path.relative_to(WEB).as_posix(): sorted(naming(shared_text(path)))
             for path in shared}
    assert {path: said for path, said in found.items() if said} == {}


def test_the_check_finds_a_game_named_in_a_comment_a_selector_or_a_title():
    assert naming("/* the pile */ .crabe-vs-poulpe .board { }") == {"crabe-vs-poulpe"}
    assert naming("// drawn by cupcrab.js") == {"cupcrab"}
    assert naming('t("A game of Crabe vs Poulpe")') == {"crabe vs poulpe"}
    assert naming(".card.cvp { color: #fff; }") == {"cvp"}
    assert naming("the cup; a crab; an octopus") == set()


@pytest.mark.parametrize("entry", registry.GAMES, ids=lambda entry: entry.name)
def test_a_games_stylesheet_is_its_own_file_served_under_the_clients_policy(web, entry):
    sheet = stylesheet_of(entry)
    assert (WEB / sheet).is_file()
    answer = httpx.get(f"{web.url}/play/{sheet}")
    assert answer.status_code == 200 and answer.headers["content-type"].startswith("text/css")
    assert "style-src 'self'" in answer.headers["content-security-policy"]
    assert naming(answer.text) <= names(entry)  # it styles its own game only
