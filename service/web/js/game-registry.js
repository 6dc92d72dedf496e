// The games this client plays, one entry each: every game module registers itself here
// (games.js imports them all first), and the shared modules read only this list. This
// module imports no game, so no import circle (tests/web/test_modules.py checks that the
// client has none), and no shared module or stylesheet names a game (tests/web/
// test_per_game.py): what is a game's own is in its module and its stylesheet.

// What a game gives. Its start tile: title, description, icon (a picture of cards.js),
// players ([fewest, most]), options ({ defaults, form(chosen, choose) }: its creation
// options and the fieldset that chooses them, or null). Its cards: back ((view, seat) =>
// the picture on the back of that seat's face-down cards). Its table, each a function of the table's context (table-view.js):
// seatInfo, board, hand, prompt, choices (optional), narrator (ctx => entry => what the
// entry's seat did, in words, told in the log's order), applyHint, changes,
// resultColumns, rounds (a number, or null when the game has no fixed rounds) and variant
// (optional: view => the words after its title that tell this game's kind apart, such as
// its deck, or null). Its
// replay: replayBoard(ctx, position) and replaySeat(ctx, position, seat), the table and a
// seat's cards at a complete position (GET .../replay), every card face up. Its look:
// stylesheet, the file under /play/ of its rules (its cards, its board), linked as it registers.
// Its French: the game module adds its sentences to french.js's table itself (addFrench).
const FIELDS = ["name", "title", "description", "icon", "players", "options", "back", "seatInfo",
                "board", "hand", "prompt", "narrator", "applyHint", "changes", "resultColumns", "rounds",
                "replayBoard", "replaySeat", "stylesheet"];

const registered = [];
const stylesheets = [];  // each game's, as a promise settled once it loaded (or failed to)

export function register(game) {
  const missing = FIELDS.filter((field) => !(field in game));
  if (missing.length) throw new Error(`game ${game.name ?? "?"} registered without ${missing.join(", ")}`);
  if (registered.some((known) => known.name === game.name)) throw new Error(`game ${game.name} registered twice`);
  registered.push(Object.freeze({ choices: null, variant: () => null, ...game }));
  stylesheets.push(linked(game.stylesheet));
}

// The stylesheet linked after the page's own (style.css), so that a game's rule wins over a
// shared rule as specific.
function linked(file) {
  const link = document.createElement("link");
  link.rel = "stylesheet";
  link.href = `/play/${file}`;
  const settled = new Promise((resolve) => { link.onload = link.onerror = resolve; });
  document.head.append(link);
  return settled;
}

// Settles once every game's stylesheet has loaded: the page draws nothing before, so no
// table shows, even for a moment, without its game's look.
export function styled() {
  return Promise.all(stylesheets);
}

// Every registered game, in the order games.js imports them (the start page's order).
export function games() {
  return registered;
}

// The game of this name (as the API spells it), or null.
export function gameOf(name) {
  return registered.find((game) => game.name === name) || null;
}
