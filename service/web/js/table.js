// The table of one game, its state and transport: follows it (event stream or polling),
// keeps what the player is choosing, sends moves, and redraws the table (table-view.js,
// a function of this state) on each change.

import { api, ApiError } from "./api.js";
import { h, patch } from "./dom.js";
import { failedScreen, loadingScreen } from "./screens.js";
import { follow } from "./stream.js";
import { attend } from "./presence.js";
import { remember, seatOf } from "./saved.js";
import { gameOf } from "./games.js";
import { isolate, t } from "./i18n.js";
import { promptText, seatName, tableView, tickClocks } from "./table-view.js";
import { alarm, announce } from "./announce.js";
import { muted, REST_MS, setMuted, SHOWN_MS } from "./reactions.js";

// How long each move stays on screen when several arrive at once (none for those who ask
// their system for reduced motion).
const STEP_MS = matchMedia("(prefers-reduced-motion: reduce)").matches ? 0 : 450;
const FLASH_MS = 1400;   // how long a changed part of the table stays highlighted
const HINT_LEVEL = 4;  // core.ai.LEVELS: ISMCTS, a few milliseconds a hint

export function openTable(root, { id }) {
  const saved = seatOf(id) || {};
  const token = saved.token || null;
  // error: what the player's last action met, said until it no longer holds (errorKind:
  // "network" until the server answers again, "move" until the game moves on).
  const state = { body: null, history: [], ui: {}, changed: new Set(), error: null, errorKind: null, trouble: null,
                  gone: null, busy: false, thinking: false, presence: null, confirmResign: false,
                  heard: [], resting: false, muted: muted(), reacting: false };
  const queue = [];
  let showing = false;  // arrivals are being shown, one step at a time
  let closed = false;
  let flashTimer = null;

  function render() {
    if (closed) return;  // a late answer (the log, a move) must not draw over the next page
    if (!state.body) {
      patch(root, loadingScreen(state.error || state.trouble));
      return;
    }
    const ctx = context();
    patch(root, tableView(state, ctx));
    document.title = title(ctx);
    announce(promptText(ctx));
    alarm(state.gone || state.error || state.trouble);
  }

  function context() {
    const body = state.body;
    const game = gameOf(body.game);
    const you = body.you;
    return {
      game, body, view: body.view, you, id, token,
      legal: state.busy || state.gone || body.status !== "active" ? [] : body.legal_moves,
      hints: body.hints !== false && !state.gone,
      ui: state.ui, changed: state.changed,
      plain: (seat) => seatName(body, seat),
      name: (seat) => (body.seats?.[seat]?.name && seat !== you ? isolate(seatName(body, seat)) : seatName(body, seat)),
      send, set: (changes) => { Object.assign(state.ui, changes); failed(null); render(); },
      hint, rematch, leave, busy: state.busy, thinking: state.thinking,
      declineRematch, resign, presence: state.presence, confirmResign: state.confirmResign,
      askResign: (asking) => { state.confirmResign = asking; render(); },
      // The log never runs ahead of the board: a history read may be newer than the body.
      history: state.history.filter((entry) => entry.version <= body.version),
      error: state.error, trouble: state.gone || state.trouble, gone: !!state.gone,
      heard: state.heard, resting: state.resting, muted: state.muted, react, toggleMute,
      reacting: state.reacting, openReactions,
    };
  }

  function show(body, entry) {
    const previous = state.body;
    if (previous && body.version < previous.version) return;
    const moved = !previous || body.version !== previous.version || body.status !== previous.status;
    state.body = body;
    // The rematch this seat wanted is made (the last acceptance was another's): go there.
    if (previous && !previous.rematch && body.rematch && token && body.rematch_offer?.accepted.includes(body.you)) {
      return goTo(body.rematch);
    }
    if (moved) {
      if (previous) failed(null);  // an error said of the position before no longer holds
      // What the player was choosing stays while its choices stay (another seat's secret
      // selection must not undo this player's half-made one).
      if (JSON.stringify(body.legal_moves) !== JSON.stringify(previous?.legal_moves)) state.ui = {};
      state.changed = previous ? gameOf(body.game).changes(previous.view, body.view) : new Set();
      clearTimeout(flashTimer);
      flashTimer = setTimeout(() => { state.changed = new Set(); render(); }, FLASH_MS);
      if (entry) addEntry(entry); else refreshHistory();
      if (body.status === "over") refreshHistory(); // hidden selections show once it is over
      if (body.status === "over" && previous?.status !== "over") presence.now();
    }
    render();
  }

  function addEntry(entry) {
    if (!state.history.some((e) => e.version === entry.version && e.kind === entry.kind)) state.history.push(entry);
  }

  async function refreshHistory() {
    try {
      const { entries } = await api.history(id, token);
      state.history = entries;
      render();
    } catch { /* the log is a convenience: the table itself is already drawn */ }
  }

  async function showArrivals() {
    showing = true;
    while (queue.length) {
      const [body, entry] = queue.shift();
      show(body, entry);
      if (queue.length) await new Promise((resolve) => setTimeout(resolve, STEP_MS));
    }
    showing = false;
  }

  function arrive(body, entry) {
    queue.push([body, entry]);
    if (!showing) showArrivals();
  }

  async function send(move) {
    if (state.busy) return;
    state.busy = true;
    failed(null);
    render();
    try {
      const body = await api.move(id, token, move, state.body.version);
      state.busy = false;
      render(); // events that came meanwhile may already be newer than this answer
      arrive(body, null);
    } catch (error) {
      state.busy = false;
      if (isGone(error)) return lost(error);
      failed(error);
      render();
    }
    follower.poke();
  }

  async function hint() {
    if (state.thinking) return;
    state.thinking = true;
    failed(null);
    render();
    try {
      const found = await api.suggest(id, token, HINT_LEVEL);
      state.thinking = false;
      if (found.version === state.body.version) Object.assign(state.ui, gameOf(state.body.game).applyHint(context(), found.move));
    } catch (error) {
      state.thinking = false;
      failed(error);
    }
    render();
  }

  // Offers a rematch or accepts the one offered: the next game opens once every person
  // wants it; until then the offer shows (the game's next version, read at once).
  async function rematch() {
    try {
      if (state.body.rematch) return goTo(state.body.rematch);
      const answer = await api.rematch(id, token);
      if (answer.rematch_offer) return arrive(await api.game(id, token), null);
      goTo(answer.id);
    } catch (error) {
      failed(error);
      render();
    }
  }

  function goTo(next) {
    remember(next, { token, game: state.body.game });
    location.hash = `#/g/${next}`;
  }

  async function declineRematch() {
    try {
      await api.declineRematch(id, token);
      arrive(await api.game(id, token), null);
    } catch (error) {
      failed(error);
      render();
    }
  }

  async function resign() {
    state.confirmResign = false;
    state.busy = true;
    render();
    try {
      const body = await api.resign(id, token);
      state.busy = false;
      arrive(body, null);
    } catch (error) {
      state.busy = false;
      if (isGone(error)) return lost(error);
      failed(error);
      render();
    }
    follower.poke();
  }

  // A reaction said at the table (this page's own included): shown for SHOWN_MS, once (a
  // page hears its own words as it says them, and again from the stream or a beat).
  let heardCount = 0;
  function hear(said) {
    if (state.heard.some((heard) => heard.seat === said.seat && heard.at === said.at)) return;
    const key = ++heardCount;
    state.heard = [...state.heard.slice(-2), { ...said, key }];
    setTimeout(() => { state.heard = state.heard.filter((h) => h.key !== key); render(); }, SHOWN_MS);
    render();
  }

  // Says a phrase; the buttons rest as long as the server would refuse another.
  async function react(phrase) {
    if (state.resting) return;
    state.resting = true;
    openReactions(false);
    setTimeout(() => { state.resting = false; render(); }, REST_MS);
    try {
      hear(await api.react(id, token, phrase));
    } catch (error) {
      failed(error);
      render();
    }
  }

  // The phrases drawn over the table, or not; closing gives the focus back to "React".
  function openReactions(open) {
    const inside = !!document.activeElement?.closest?.(".react-panel");
    state.reacting = open;
    render();
    if (!open && inside) root.querySelector("[data-key=react-menu]")?.focus();
  }

  // A click anywhere else closes the phrases, as a menu does.
  function onPointer(event) {
    if (state.reacting && !event.target.closest?.(".reactions")) openReactions(false);
  }

  function toggleMute() {
    state.muted = !state.muted;
    setMuted(state.muted);
    render();
  }

  async function leave() {
    try {
      await api.leave(id, token);
      location.hash = "#/";
    } catch (error) {
      failed(error);
      render();
    }
  }

  // What the player's last action met (null: nothing), and for how long it holds: a
  // request the network refused, until the server answers again; any other, until the
  // game moves on or the player does something else.
  function failed(error) {
    state.error = error ? words(error) : null;
    state.errorKind = !error ? null : error instanceof ApiError && error.status === 0 ? "network" : "move";
  }

  // The connection's state, from the follower: null once the server answers again, which
  // also unsays an action's network error.
  function connection(message) {
    const stale = message === null && state.errorKind === "network";
    if (stale) failed(null);
    if (message !== state.trouble || stale) {
      state.trouble = message;
      render();
    }
  }

  // The server no longer knows the game (expired) or the seat: nothing more is read or
  // offered, and the player is told so.
  function lost(error) {
    follower.close();
    state.gone = error.status === 401
      ? t("This seat's token is no longer accepted here: the game goes on without this browser.")
      : t("This game is no longer on the server (it expired after going idle). Start a new one from the start page.");
    state.ui = {};
    render();
  }

  function onKey(event) {
    if (event.target.closest?.("input, select, textarea")) return;
    if (event.key === "Escape" && state.reacting) return openReactions(false);
    if (event.key === "Escape") context().set({ picked: null, pickedIndex: null, selection: [], hint: null });
    if (event.key === "h" && state.body && context().legal.length && context().hints) hint();
  }

  let follower = { close() {}, poke() {} };
  let presence = { now() {}, close() {} };
  // One read first: a game that cannot be opened (unknown, expired, a stale token) is
  // explained in words instead of waiting for a stream that will not come.
  api.game(id, token).then((body) => {
    if (closed) return;
    arrive(body, null);
    presence = attend({ id, token, onChange: (found) => { state.presence = found; render(); },
      onHeard: hear,  // what was said after the game
      over: () => state.body.status === "over" });
    follower = follow({ id, token, rematches: !!token, onGame: arrive, onGone: lost, onTrouble: connection, onReaction: hear });
  }).catch((error) => {
    const why = t("This game cannot be opened. {why}", { why: error.message });
    alarm(why);
    patch(root, failedScreen(why));
  });
  const clock = setInterval(() => tickClocks(root), 1000);
  document.addEventListener("keydown", onKey);
  document.addEventListener("pointerdown", onPointer);
  if (token) remember(id, { ...saved });
  render();
  return { close() { closed = true; follower.close(); presence.close(); clearInterval(clock); clearTimeout(flashTimer); document.removeEventListener("keydown", onKey);
    document.removeEventListener("pointerdown", onPointer); } };
}

const isGone = (error) => error instanceof ApiError && (error.status === 404 || error.status === 401);

// The tab's title says when the player has something to do, for a player in another tab.
function title(ctx) {
  if (ctx.gone) return "Crab Table";
  if (ctx.legal.length) return `● ${t("Your turn")} · ${ctx.game.title} · Crab Table`;
  if (ctx.body.status === "over") return `${t("Game over")} · ${ctx.game.title} · Crab Table`;
  return `${ctx.game.title} · Crab Table`;
}

function words(error) {
  return error.message || String(error);
}
