// The table of one game: follows it (event stream or polling), keeps what the player is
// choosing, and redraws everything from the game state on each change.

import { api, ApiError } from "./api.js";
import { h, patch } from "./dom.js";
import { follow } from "./stream.js";
import { remember, seatOf } from "./saved.js";
import * as cupcrab from "./cupcrab.js";
import * as cvp from "./cvp.js";
import { endScreen } from "./end.js";
import { invitePanel } from "./invite.js";

const GAMES = { "cup-the-crab": cupcrab, "crabe-vs-poulpe": cvp };
// How long each move stays on screen when several arrive at once (none for those who ask
// their system for reduced motion).
const STEP_MS = matchMedia("(prefers-reduced-motion: reduce)").matches ? 0 : 450;
const FLASH_MS = 1400;   // how long a changed part of the table stays highlighted
const HINT_LEVEL = 4;  // core.ai.LEVELS: ISMCTS, a few milliseconds a hint

export function openTable(root, { id }) {
  const saved = seatOf(id) || {};
  const token = saved.token || null;
  const state = { body: null, history: [], ui: {}, changed: new Set(), error: null, trouble: null, busy: false, thinking: false };
  const queue = [];
  let draining = false;
  let flashTimer = null;

  function render() {
    if (!state.body) {
      patch(root, h("p.loading", {}, state.error || state.trouble || "Shuffling the cards…"));
      return;
    }
    patch(root, tableView(state, context()));
  }

  function context() {
    const body = state.body;
    const game = GAMES[body.game];
    const you = body.you;
    return {
      game, body, view: body.view, you, id, token,
      legal: state.busy || body.status !== "active" ? [] : body.legal_moves,
      ui: state.ui, changed: state.changed,
      name: (seat) => seatName(body, seat),
      send, set: (changes) => { Object.assign(state.ui, changes); state.error = null; render(); },
      hint, rematch, leave, history: state.history, busy: state.busy, thinking: state.thinking,
      error: state.error, trouble: state.trouble,
    };
  }

  function show(body, entry) {
    const previous = state.body;
    if (previous && body.version < previous.version) return;
    const moved = !previous || body.version !== previous.version || body.status !== previous.status;
    state.body = body;
    if (moved) {
      // What the player was choosing stays while its choices stay (another seat's secret
      // selection must not undo this player's half-made one).
      if (JSON.stringify(body.legal_moves) !== JSON.stringify(previous?.legal_moves)) state.ui = {};
      state.changed = previous ? GAMES[body.game].changes(previous.view, body.view) : new Set();
      clearTimeout(flashTimer);
      flashTimer = setTimeout(() => { state.changed = new Set(); render(); }, FLASH_MS);
      if (entry) addEntry(entry); else refreshHistory();
      if (body.status === "over") refreshHistory(); // hidden selections show once it is over
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

  async function drain() {
    draining = true;
    while (queue.length) {
      const [body, entry] = queue.shift();
      show(body, entry);
      if (queue.length) await new Promise((resolve) => setTimeout(resolve, STEP_MS));
    }
    draining = false;
  }

  function arrive(body, entry) {
    queue.push([body, entry]);
    if (!draining) drain();
  }

  async function send(move) {
    if (state.busy) return;
    state.busy = true;
    state.error = null;
    render();
    try {
      const body = await api.move(id, token, move, state.body.version);
      state.busy = false;
      render(); // events that came meanwhile may already be newer than this answer
      arrive(body, null);
    } catch (error) {
      state.busy = false;
      state.error = words(error);
      render();
    }
    follower.poke();
  }

  async function hint() {
    if (state.thinking) return;
    state.thinking = true;
    state.error = null;
    render();
    try {
      const found = await api.suggest(id, token, HINT_LEVEL);
      state.thinking = false;
      if (found.version === state.body.version) Object.assign(state.ui, GAMES[state.body.game].applyHint(context(), found.move));
    } catch (error) {
      state.thinking = false;
      state.error = words(error);
    }
    render();
  }

  async function rematch() {
    try {
      const next = state.body.rematch ? { id: state.body.rematch } : await api.rematch(id, token);
      remember(next.id, { token, game: state.body.game });
      location.hash = `#/g/${next.id}`;
    } catch (error) {
      state.error = words(error);
      render();
    }
  }

  async function leave() {
    try {
      await api.leave(id, token);
      location.hash = "#/";
    } catch (error) {
      state.error = words(error);
      render();
    }
  }

  function onKey(event) {
    if (event.target.closest?.("input, select, textarea")) return;
    if (event.key === "Escape") context().set({ picked: null, pickedIndex: null, selection: [], hint: null });
    if (event.key === "h" && state.body?.legal_moves.length) hint();
  }

  let follower = { close() {}, poke() {} };
  let closed = false;
  // One read first: a game that cannot be opened (unknown, expired, a stale token) is
  // explained in words instead of waiting for a stream that will not come.
  api.game(id, token).then((body) => {
    if (closed) return;
    arrive(body, null);
    follower = follow({ id, token, rematches: !!token, onGame: arrive,
      onTrouble: (message) => { if (message !== state.trouble) { state.trouble = message; render(); } } });
  }).catch((error) => {
    patch(root, h("div.start", {}, h("header.hero", {}, h("span.logo.big", {}), h("h1", {}, "Crab Table")),
      h("p.error", { role: "alert" }, `This game cannot be opened. ${error.message}`),
      h("p", {}, h("a", { href: "#/", "data-key": "home" }, "Back to the start"))));
  });
  const clock = setInterval(() => tickClocks(root), 1000);
  document.addEventListener("keydown", onKey);
  if (token) remember(id, { ...saved });
  render();
  return { close() { closed = true; follower.close(); clearInterval(clock); document.removeEventListener("keydown", onKey); } };
}

function words(error) {
  if (error instanceof ApiError && error.type.endsWith("version-conflict")) return "The game moved on meanwhile: here is where it stands now.";
  return error.message || String(error);
}

export function seatName(body, seat) {
  const named = body.seats?.[seat]?.name;
  if (seat === body.you) return "You";
  if (named) return named;
  return body.seats[seat].type === "ai" ? `Robot ${seat + 1}` : `Player ${seat + 1}`;
}

// -- the whole table -------------------------------------------------------------------

function tableView(state, ctx) {
  const { body, game } = ctx;
  const over = body.status === "over";
  return h("div.table", { class: `${body.game} ${over ? "over" : ""}`, "data-version": body.version, "data-status": body.status },
    header(ctx),
    h("section.seats", { "aria-label": "Players" }, body.view.seats.map((_, seat) => seatChip(ctx, seat))),
    h("section.board", { "aria-label": "Table" }, game.board(ctx)),
    // While seats are open the invitation takes the prompt's box, so that the table does
    // not move when the game starts.
    h("section.prompt", { class: ctx.legal.length ? "your-turn" : "" },
      body.status === "waiting" ? invitePanel(ctx)
        : [h("p.say", { role: "status" }, ctx.busy ? "Playing…" : game.prompt(ctx)),
           game.choices ? game.choices(ctx) : null],
      h("p.error", { role: "alert" }, ctx.error || ctx.trouble || "")),
    over ? endScreen(ctx) : h("section.hand", { "aria-label": "Your cards" }, game.hand(ctx)),
    over ? null : logPanel(ctx, 8));
}

function header(ctx) {
  const { body } = ctx;
  const status = body.status === "over" ? "Game over" : body.status === "waiting" ? "Waiting for players"
    : ctx.legal.length ? "Your turn" : "Waiting for others";
  return h("header.bar", {},
    h("a.brand", { href: "#/", "data-key": "home" }, h("span.logo", {}), "Crab Table"),
    h("span.game-name", {}, ctx.game.title, ctx.body.view.mode ? ` · ${ctx.body.view.mode}` : "",
      ctx.game.rounds ? ` · Round ${ctx.body.view.round} of ${ctx.game.rounds}` : ""),
    h("span.status", { class: ctx.legal.length ? "turn" : "" }, status),
    ctx.you === null || body.status === "over" ? null : h("button.hint-button", { type: "button", "data-key": "hint",
      disabled: !ctx.legal.length || ctx.thinking, onclick: ctx.hint, title: "Ask the AI for a move (key H)" },
      ctx.thinking ? "Thinking…" : "Hint"));
}

function seatChip(ctx, seat) {
  const { body, view } = ctx;
  const toMove = body.status === "active" && body.to_move.includes(seat);
  const type = body.seats[seat].type;
  const deadline = body.seats?.[seat]?.deadline;
  return h("div.seat", { class: [toMove && "to-move", seat === ctx.you && "me", ctx.changed.has(`seat-${seat}`) && "changed",
    body.result?.winners?.includes(seat) && "winner"].filter(Boolean).join(" "), "aria-label": ctx.name(seat) },
    h("div.seat-head", {},
      h("span.name", {}, seat === ctx.you && body.seats?.[seat]?.name ? `${body.seats[seat].name} (you)` : ctx.name(seat)),
      type !== "human" ? h("span.badge", { class: type }, type === "ai" ? "AI" : "open") : null,
      deadline && toMove ? h("span.clock", { "data-deadline": deadline }, clockText(deadline)) : null),
    ctx.game.seatInfo(ctx, seat));
}

function clockText(deadline) {
  const left = Math.max(0, Math.round(deadline - Date.now() / 1000));
  const hours = Math.floor(left / 3600);
  const minutes = Math.floor((left % 3600) / 60);
  const seconds = String(left % 60).padStart(2, "0");
  return hours ? `${hours}h${String(minutes).padStart(2, "0")}` : `${minutes}:${seconds}`;
}

function tickClocks(root) {
  for (const clock of root.querySelectorAll(".clock[data-deadline]")) {
    clock.textContent = clockText(Number(clock.dataset.deadline));
    clock.classList.toggle("short", Number(clock.dataset.deadline) - Date.now() / 1000 < 10);
  }
}

export function describeEntry(ctx, entry) {
  const who = ctx.name(entry.seat);
  switch (entry.kind) {
    case "join": return `${entry.name || who} sat down`;
    case "leave": return `${entry.name || who} left`;
    case "timeout": return `${who} ran out of time: ${ctx.game.describeMove(entry.move)}`;
    case "forfeit": return `${entry.forfeited.map(ctx.name).join(" and ")} ran out of time: forfeit`;
    case "rematch": return "A rematch was set up";
    default: return `${who} ${ctx.game.describeMove(entry.move)}`;
  }
}

export function logPanel(ctx, last) {
  const entries = last ? ctx.history.slice(-last).reverse() : ctx.history;
  return h("aside.log", { "aria-label": "What happened" },
    h("h2", {}, last ? "Latest moves" : "The whole game"),
    h("ul", {}, entries.map((entry, i) => h("li", { class: last && i === 0 && ctx.changed.size ? "fresh" : "" },
      h("span.v", {}, `#${entry.version}`), " ", describeEntry(ctx, entry)))),
    entries.length ? null : h("p.note", {}, "No move yet."));
}
