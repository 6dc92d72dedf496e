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
import { decimal, localized } from "./lang.js";
import { currentPlayer, ensurePlayer } from "./player.js";
import { poolTitle } from "./pools.js";
import { remember, playerName } from "./saved.js";

const POLL_MS = 1000;
const FILLS = [null, 10, 30, 60];

const T = localized({
  en: {
    title: "Play a rated game", intro: "Meet players of your strength. Rated games change your rating; the AI levels are on the same scale.",
    game: "Game", players: "Players", fill: "If nobody comes", noFill: "keep waiting for people",
    fillAfter: (s) => `let the AI fill the table after ${s} s`, name: "Your name", as: (name) => `You play as ${name}.`,
    find: "Find a game", joining: "Joining the queue…", waiting: "Looking for players…", waited: (t) => `Waited ${t}`,
    window: (r, w) => `Pairing with ratings within ${decimal(w)} of yours (μ ${decimal(r)}); the window widens as you wait.`,
    fillAt: (t) => `The AI fills the table at ${t}.`, cancel: "Cancel", seated: "Found! Opening the table…",
    cancelled: "You left the queue.", expired: "Nobody came in time: the ticket expired.", home: "Back to the start",
    profile: "Your profile", boards: "Leaderboards",
  },
  fr: {
    title: "Jouer une partie classée", intro: "Affrontez des joueurs de votre niveau. Les parties classées changent votre cote ; les niveaux de l’IA sont sur la même échelle.",
    game: "Jeu", players: "Joueurs", fill: "Si personne ne vient", noFill: "attendre des joueurs",
    fillAfter: (s) => `compléter la table avec l’IA après ${s} s`, name: "Votre nom", as: (name) => `Vous jouez sous le nom ${name}.`,
    find: "Trouver une partie", joining: "Entrée dans la file…", waiting: "Recherche de joueurs…", waited: (t) => `Attente : ${t}`,
    window: (r, w) => `Appariement avec les cotes à ${decimal(w)} de la vôtre (μ ${decimal(r)}) ; la fenêtre s’élargit avec l’attente.`,
    fillAt: (t) => `L’IA complète la table à ${t}.`, cancel: "Annuler", seated: "Trouvé ! Ouverture de la table…",
    cancelled: "Vous avez quitté la file.", expired: "Personne n’est venu à temps : le ticket a expiré.", home: "Retour à l’accueil",
    profile: "Votre profil", boards: "Classements",
  },
});

// The start page's way in.
export function ratedLink() {
  return h("nav.rated-nav.hero-nav", {}, h("a.button.primary", { href: "#/rated", "data-key": "rated" }, T.title),
    h("a", { href: "#/profile", "data-key": "profile" }, T.profile), h("a", { href: "#/leaderboards", "data-key": "leaderboards" }, T.boards));
}

export function openQueue(root) {
  const form = { game: games()[0].name, players: 2, fill: 30, name: currentPlayer()?.name || playerName() };
  const state = { ticket: null, busy: false, error: "", note: "", shownAt: 0 };
  let timer = null;
  let closed = false;

  function render() {
    if (closed) return;
    patch(root, h("div.start.queue", {},
      h("header.hero", {}, h("a.brand", { href: "#/" }, h("span.logo.big", {})), h("h1", {}, T.title), h("p", {}, T.intro)),
      h("nav.rated-nav", {}, h("a", { href: "#/" }, T.home), h("a", { href: "#/profile" }, T.profile), h("a", { href: "#/leaderboards" }, T.boards)),
      waiting() ? waitingPanel() : setup(),
      h("p.error", { role: "alert" }, state.error)));
  }

  const waiting = () => state.ticket && ["waiting", "seating", "seated"].includes(state.ticket.status);

  function setup() {
    const [fewest, most] = gameOf(form.game).players;
    const counts = Array.from({ length: most - fewest + 1 }, (_, i) => fewest + i);
    const player = currentPlayer();
    return h("form.setup", { onsubmit: join, "aria-label": T.title },
      h("fieldset.games", {}, h("legend", {}, T.game), games().map((game) => h("label.tile", { class: form.game === game.name ? "chosen" : "" },
        h("input", { type: "radio", name: "rated-game", value: game.name, checked: form.game === game.name,
          onchange: () => { form.game = game.name; form.players = Math.min(Math.max(form.players, game.players[0]), game.players[1]); render(); } }),
        icon(game.icon), h("b", {}, game.title), h("span", {}, game.description)))),
      counts.length > 1 ? h("fieldset.options", {}, h("legend", {}, T.players), h("div.segmented", {}, counts.map((n) =>
        h("label", { class: form.players === n ? "chosen" : "" }, h("input", { type: "radio", name: "rated-players", value: n, checked: form.players === n,
          onchange: () => { form.players = n; render(); } }), `${n}`)))) : null,
      h("fieldset.options", {}, h("legend", {}, T.fill), h("select", { "data-key": "fill", "aria-label": T.fill, onchange: (e) => { form.fill = Number(e.target.value) || null; } },
        FILLS.map((s) => h("option", { value: s ?? "", selected: form.fill === s }, s ? T.fillAfter(s) : T.noFill)))),
      player ? h("p.note", {}, T.as(player.name))
        : h("label.field", {}, `${T.name} `, h("input", { type: "text", value: form.name, maxLength: 24, "data-key": "name", oninput: (e) => { form.name = e.target.value; } })),
      h("div.actions", {}, h("button.primary.big", { type: "submit", disabled: state.busy, "data-key": "find" }, state.busy ? T.joining : T.find),
        h("span.note", { role: "status" }, state.note)));
  }

  function waitingPanel() {
    const t = state.ticket;
    const waited = t.waited_seconds + (Date.now() - state.shownAt) / 1000;
    const seated = t.status !== "waiting";
    return h("section.setup.waiting-room", { "aria-label": T.waiting, "data-status": t.status },
      h("h2", {}, poolTitle({ game: t.game, players: [t.players] })),
      h("p.say", { role: "status" }, seated ? T.seated : T.waiting),
      h("p.big-clock", { "data-key": "waited" }, T.waited(clock(waited))),
      seated ? null : h("p", {}, T.window(t.rating, t.window)),
      seated || t.fill_with_ai_after === null ? null : h("p.note", {}, T.fillAt(clock(t.fill_with_ai_after))),
      seated ? null : h("button.ghost", { type: "button", "data-key": "cancel", onclick: cancel }, T.cancel));
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
      state.note = T[ticket.status];
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
