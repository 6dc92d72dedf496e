// "Play a rated game": this browser's player joins the matchmaking queue (a game and a
// table size, AI seats after a delay if chosen), sees how long it has waited and how far
// the window of ratings it is paired within has widened, may cancel; once seated, the
// ticket's seat token is kept as saved.js keeps every seat's, and the table opens.
// The ticket is followed by polling its GET (the window widens every second, which its
// event stream, sent at each change of status only, does not tell).

import { api } from "./api.js";
import { h, patch } from "./dom.js";
import { icon } from "./cards.js";
import { gameOf, games } from "./games.js";
import { decimal, isolate, t } from "./i18n.js";
import { turnClock } from "./clock-words.js";
import { currentPlayer, ensurePlayer } from "./player.js";
import { poolTitle } from "./pools.js";
import { remember, playerName } from "./saved.js";
import { logoLink } from "./screens.js";

const POLL_MS = 1000;
// The clock the queue's games get: service/matchmaking/queue.py's TURN_SECONDS (a server
// whose TURN_SECONDS_MIN is longer gives that; the table shows the clock it runs).
const QUEUE_TURN_SECONDS = 120;
const FILLS = [null, 10, 30, 60];


// The start page's way in.
export function ratedLink() {
  return h("nav.rated-nav.hero-nav", {}, h("a.button.primary", { href: "#/rated", "data-key": "rated" }, t("Play a rated game")),
    h("a", { href: "#/profile", "data-key": "profile" }, t("Your profile")), h("a", { href: "#/leaderboards", "data-key": "leaderboards" }, t("Leaderboards")));
}

export function openQueue(root) {
  const form = { game: games()[0].name, players: 2, fill: 30, name: currentPlayer()?.name || playerName() };
  const state = { ticket: null, busy: false, error: "", note: "", shownAt: 0 };
  let timer = null;
  let closed = false;

  function render() {
    if (closed) return;
    patch(root, h("div.start.queue", {},
      h("header.hero", {}, logoLink(), h("h1", {}, t("Play a rated game")), h("p", {}, t("Meet players of your strength. Rated games change your rating; the AI levels are on the same scale."))),
      h("nav.rated-nav", {}, h("a", { href: "#/" }, t("Back to the start")), h("a", { href: "#/profile" }, t("Your profile")), h("a", { href: "#/leaderboards" }, t("Leaderboards"))),
      waiting() ? waitingPanel() : setup(),
      h("p.error", { role: "alert" }, state.error)));
  }

  const waiting = () => state.ticket && ["waiting", "seating", "seated"].includes(state.ticket.status);

  function setup() {
    const [fewest, most] = gameOf(form.game).players;
    const counts = Array.from({ length: most - fewest + 1 }, (_, i) => fewest + i);
    const player = currentPlayer();
    return h("form.setup", { onsubmit: join, "aria-label": t("Play a rated game") },
      h("fieldset.games", {}, h("legend", {}, t("Game")), games().map((game) => h("label.tile", { class: `${game.name} ${form.game === game.name ? "chosen" : ""}` },
        h("input", { type: "radio", name: "rated-game", value: game.name, checked: form.game === game.name,
          onchange: () => { form.game = game.name; form.players = Math.min(Math.max(form.players, game.players[0]), game.players[1]); render(); } }),
        icon(game.icon), h("b", {}, game.title), h("span", {}, t(game.description))))),
      counts.length > 1 ? h("fieldset.options", {}, h("legend", {}, t("Players")), h("div.segmented", {}, counts.map((n) =>
        h("label", { class: form.players === n ? "chosen" : "" }, h("input", { type: "radio", name: "rated-players", value: n, checked: form.players === n,
          onchange: () => { form.players = n; render(); } }), `${n}`)))) : null,
      h("fieldset.options", {}, h("legend", {}, t("If nobody comes")), h("select", { "data-key": "fill", "aria-label": t("If nobody comes"), onchange: (e) => { form.fill = Number(e.target.value) || null; } },
        FILLS.map((s) => h("option", { value: s ?? "", selected: form.fill === s }, s ? t("let the AI fill the table after {seconds} s", { seconds: s }) : t("keep waiting for people"))))),
      h("p.note", { "data-key": "clock" }, t("Rated games are played at {clock}: a player who runs out of time loses the game.", { clock: turnClock(QUEUE_TURN_SECONDS) })),
      player ? h("p.note", {}, t("You play as {name}.", { name: isolate(player.name) }))
        : h("label.field", {}, `${t("Your name")} `, h("input", { type: "text", value: form.name, maxLength: 24, "data-key": "name", oninput: (e) => { form.name = e.target.value; } })),
      h("div.actions", {}, h("button.primary.big", { type: "submit", disabled: state.busy, "data-key": "find" }, state.busy ? t("Joining the queue…") : t("Find a game")),
        h("span.note", { role: "status" }, state.note)));
  }

  function waitingPanel() {
    const ticket = state.ticket;
    const waited = ticket.waited_seconds + (Date.now() - state.shownAt) / 1000;
    const seated = ticket.status !== "waiting";
    return h("section.setup.waiting-room", { "aria-label": t("Looking for players…"), "data-status": ticket.status },
      h("h2", {}, poolTitle({ game: ticket.game, players: [ticket.players] })),
      h("p.say", { role: "status" }, seated ? t("Found! Opening the table…") : t("Looking for players…")),
      h("p.big-clock", { "data-key": "waited" }, t("Waited {time}", { time: clock(waited) })),
      seated ? null : h("p", {}, t("Pairing with ratings within {window} of yours (μ {rating}); the window widens as you wait.", { window: decimal(ticket.window), rating: decimal(ticket.rating) })),
      seated || ticket.fill_with_ai_after === null ? null : h("p.note", {}, t("The AI fills the table at {time}.", { time: clock(ticket.fill_with_ai_after) })),
      seated ? null : h("button.ghost", { type: "button", "data-key": "cancel", onclick: cancel }, t("Cancel")));
  }

  async function join(event) {
    event.preventDefault();
    if (state.busy) return;
    Object.assign(state, { busy: true, error: "", note: "" });
    render();
    try {
      const player = await ensurePlayer(form.name);
      const spec = { game: form.game, players: form.players };
      if (form.fill !== null) spec.fill_with_ai_after = form.fill;
      arrive(await api.queue(player.key, spec));
    } catch (error) {
      state.error = error.message;
    }
    state.busy = false;
    render();
  }

  function arrive(ticket) {
    state.ticket = ticket;
    state.shownAt = Date.now();
    if (ticket.status === "seated") {
      remember(ticket.game_id, { token: ticket.token, game: ticket.game });
      location.hash = `#/g/${ticket.game_id}`;
      return;
    }
    if (ticket.status === "cancelled" || ticket.status === "expired") {
      state.note = ticket.status === "cancelled" ? t("You left the queue.") : t("Nobody came in time: the ticket expired.");
      state.ticket = null;
    } else {
      clearTimeout(timer);
      timer = setTimeout(follow, POLL_MS);
    }
    render();
  }

  async function follow() {
    if (closed || !state.ticket) return;
    try {
      arrive(await api.ticket(currentPlayer().key, state.ticket.id));
    } catch (error) {
      state.error = error.message;
      render();
      timer = setTimeout(follow, POLL_MS * 3);
    }
  }

  async function cancel() {
    clearTimeout(timer);
    try {
      arrive(await api.cancelTicket(currentPlayer().key, state.ticket.id));
    } catch (error) {
      state.error = error.message;
      render();
    }
  }

  // Leaving the page leaves the queue: nobody must be seated at a table they never see.
  function leave() {
    if (state.ticket?.status !== "waiting") return;
    fetch(`/v1/queue/${encodeURIComponent(state.ticket.id)}`, { method: "DELETE", keepalive: true,
      headers: { Authorization: `Bearer ${currentPlayer().key}` } }).catch(() => {});
  }

  window.addEventListener("pagehide", leave);
  render();
  return { close() { closed = true; clearTimeout(timer); leave(); window.removeEventListener("pagehide", leave); } };
}

function clock(seconds) {
  const s = Math.max(0, Math.floor(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}
