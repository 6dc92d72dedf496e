"""Playing through the web client as a person does: by clicking what the page offers."""

from playwright.sync_api import Browser, Page

MOVE_TIMEOUT_MS = 15_000

# What a player of Crabe vs Poulpe clicks, in order of preference: a card or effect choice
# over passing or declining (so that games end soon).
CVP_CHOICES = [".prompt .word-moves button.primary", ".hand button.card.choosable",
               ".prompt .zone button.card", ".prompt .word-moves button.ghost"]


def open_page(browser: Browser, url: str, motion: str = "reduce", locale: str = "en-GB",
              width: int = 1200) -> Page:
    """A page in a browser context of its own (own storage: a player of its own) whose
    browser speaks `locale`. Script errors are collected in page.errors for the tests to
    check. With reduced motion (the default here, for speed) the page shows moves at once
    instead of one by one."""
    context = browser.new_context(viewport={"width": width, "height": 900}, reduced_motion=motion,
                                  locale=locale)
    page = context.new_page()
    page.set_default_timeout(MOVE_TIMEOUT_MS)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda message: message.type == "error" and errors.append(message.text))
    page.errors = errors
    page.goto(url)
    return page


def choose(page: Page, name: str, value: str) -> None:
    """Clicks the label of a radio button, as a person does."""
    page.locator(f"label:has(input[name={name}][value='{value}'])").click()


def create_game(page: Page, game: str, players: int = 2, mode: str | None = None,
                friends: tuple[int, ...] = (), name: str = "", clock: str = "") -> None:
    """Fills the start page (AI seats at the lowest strength) and creates the game."""
    page.locator("[data-key=name]").fill(name)
    choose(page, "game", game)
    if game == "cup-the-crab":
        choose(page, "players", str(players))
    if mode:
        choose(page, "mode", mode)
    for seat in range(1, players):
        page.locator(f"[data-key=type-{seat}]").select_option("friend" if seat in friends else "ai")
        if seat not in friends:
            page.locator(f"[data-key=strength-{seat}]").select_option("0")
    if clock:
        page.locator("[data-key=clock]").select_option(label=clock)
    page.locator("[data-key=create]").click()
    page.wait_for_selector(".table[data-version]")


def wait_for_turn(page: Page) -> bool:
    """Waits until this player has to act (True) or the game is over (False)."""
    page.wait_for_function("""() => {
        const table = document.querySelector('.table');
        return table && (table.dataset.status === 'over' || document.querySelector('.status.turn'));
    }""", timeout=MOVE_TIMEOUT_MS)
    return page.locator(".table").get_attribute("data-status") != "over"


def version(page: Page) -> int:
    return int(page.locator(".table").get_attribute("data-version"))


def play_one_turn(page: Page) -> None:
    """Makes this player's move by clicks, then waits until the server has taken it."""
    before = version(page)
    if page.locator(".table.cup-the-crab").count():
        if page.locator("[data-key=confirm]").count():
            while page.locator(".tray button.card").count() < 3:  # a hint may have chosen
                page.locator(".reserve button.card:enabled").first.click()
            page.locator("[data-key=confirm]").click()
        else:
            page.locator(".tray button.card").first.click()
            page.locator("button.slot.target").first.click()
    else:
        choice = next(page.locator(s) for s in CVP_CHOICES if page.locator(s).count())
        choice.first.click()
    page.wait_for_function(f"""() => {{
        const table = document.querySelector('.table');
        return table && (Number(table.dataset.version) > {before} || table.dataset.status === 'over');
    }}""", timeout=MOVE_TIMEOUT_MS)


def token_of(page: Page, game_id: str) -> str:
    return page.evaluate(f"JSON.parse(localStorage.getItem('crab-table.games'))['{game_id}'].token")


def game_id_of(page: Page) -> str:
    return page.evaluate("location.hash.split('/')[2]")


def layout(page: Page) -> tuple[float, ...]:
    """Where the board, the prompt and the hand sit: they must not move as cards change."""
    return tuple(page.evaluate("""() => ['.board', '.prompt', '.hand'].flatMap((part) => {
        const box = document.querySelector(part).getBoundingClientRect();
        return [Math.round(box.y + scrollY), Math.round(box.height)];
    })"""))


def shown_hand(page: Page) -> list[str]:
    return page.locator(".hand .tray [data-card]").evaluate_all("nodes => nodes.map(n => n.dataset.card)")
