// The start page: choose a game and its seats, create it; or resume a game of yours, or
// take a seat in a game that is waiting for players.

import { api } from "./api.js";
import { h, patch } from "./dom.js";
import { icon } from "./cards.js";
import { playerName, recentGames, remember, setPlayerName } from "./saved.js";

// The service's strength levels (core.ai.LEVELS, measured against each other in docs/ai.md).
export const STRENGTHS = [["Level 1 · beginner", 1], ["Level 2 · casual", 2], ["Level 3 · club", 3],
                          ["Level 4 · strong", 4], ["Level 5 · expert", 5]];
const TITLES = { "cup-the-crab": "Cup the Crab", "crabe-vs-poulpe": "Crabe vs Poulpe" };
const CLOCKS = [["No clock", null], ["30 s a turn", 30], ["2 min a turn", 120], ["1 day a turn", 86400]];

export function openStart(root) {
  const form = { game: "cup-the-crab", players: 3, mode: "symmetrical", seats: [], clock: null, onTimeout: "ai", listed: true, name: playerName() };
  let error = "";
  let busy = false;
  let waiting = null;
  const seatsFor = (n) => Array.from({ length: n }, (_, i) => form.seats[i] || (i === 0 ? { type: "human" } : { type: "ai", strength: 2 }));

  function set(changes) {
    Object.assign(form, changes);
    form.seats = seatsFor(form.game === "crabe-vs-poulpe" ? 2 : form.players);
    render();
  }

  async function create(event) {
    event.preventDefault();
    if (busy) return;
    busy = true;
    error = "";
    render();
    try {
      const created = await api.create(spec());
      const mine = created.seats[0];
      remember(created.id, { token: mine.token, game: form.game });
      location.hash = `#/g/${created.id}`;
    } catch (problem) {
      busy = false;
      error = problem.message;
      render();
    }
  }

  function spec() {
    const seats = form.seats.map((seat, i) => {
      if (i === 0) return form.name.trim() ? { type: "human", name: form.name.trim() } : { type: "human" };
      if (seat.type === "ai") return { type: "ai", level: STRENGTHS[seat.strength][1] };
      return { type: "open" };
    });
    const body = { game: form.game, players: form.seats.length, seats };
    if (form.game === "crabe-vs-poulpe") body.options = { mode: form.mode };
    if (form.clock) Object.assign(body, { turn_seconds: form.clock, on_timeout: form.onTimeout });
    if (seats.some((s) => s.type === "open")) body.listed = form.listed;
    return body;
  }

  function render() {
    patch(root, h("div.start", {},
      h("header.hero", {}, h("span.logo.big", {}), h("h1", {}, "Crab Table"), h("p", {}, "Two card games from the seaside. Play against the AI or with friends.")),
      h("form.setup", { onsubmit: create, "aria-label": "New game" },
        h("fieldset.games", {}, h("legend", {}, "Game"),
          gameTile("cup-the-crab", "Cup the Crab", "2 to 5 players. Pick 3 cards in secret each round, build stacks of cups and claim them with Crabs and Octopuses.", "crab"),
          gameTile("crabe-vs-poulpe", "Crabe vs Poulpe", "A duel. Climb the pile with higher cards, use effects, Resist your opponent's. Empty your hand and draw pile first.", "octopus")),
        options(),
        seatsFieldset(),
        clockFieldset(),
        h("div.actions", {},
          h("button.primary.big", { type: "submit", disabled: busy, "data-key": "create" }, busy ? "Dealing…" : "Create game"),
          h("p.error", { role: "alert" }, error))),
      lobby(),
      recent()));
  }

  function gameTile(value, title, text, picture) {
    return h("label.tile", { class: form.game === value ? "chosen" : "" },
      h("input", { type: "radio", name: "game", value, checked: form.game === value, onchange: () => set({ game: value }) }),
      icon(picture), h("b", {}, title), h("span", {}, text));
  }

  function options() {
    if (form.game === "cup-the-crab") {
      return h("fieldset.options", {}, h("legend", {}, "Players"),
        h("div.segmented", {}, [2, 3, 4, 5].map((n) => h("label", { class: form.players === n ? "chosen" : "" },
          h("input", { type: "radio", name: "players", value: n, checked: form.players === n, onchange: () => set({ players: n }) }), `${n}`))));
    }
    return h("fieldset.options", {}, h("legend", {}, "Deck"),
      h("div.segmented", {}, [["symmetrical", "Classic: 24 cards each"], ["asymmetrical", "With species cards: 27 each"]].map(([mode, text]) =>
        h("label", { class: form.mode === mode ? "chosen" : "" },
          h("input", { type: "radio", name: "mode", value: mode, checked: form.mode === mode, onchange: () => set({ mode }) }), text))));
  }

  function seatsFieldset() {
    return h("fieldset.seat-list", {}, h("legend", {}, "Seats"),
      form.seats.map((seat, i) => h("div.seat-row", {},
        h("span.seat-label", {}, `Seat ${i + 1}`),
        i === 0
          ? h("input", { type: "text", placeholder: "Your name", value: form.name, maxLength: 24, "aria-label": "Your name", "data-key": "name",
              oninput: (e) => { form.name = e.target.value; setPlayerName(form.name); } })
          : [h("select", { "aria-label": `Seat ${i + 1} is`, "data-key": `type-${i}`, onchange: (e) => { form.seats[i] = { ...seat, type: e.target.value }; render(); } },
              h("option", { value: "ai", selected: seat.type === "ai" }, "AI"),
              h("option", { value: "friend", selected: seat.type === "friend" }, "A friend (gets a link)")),
            seat.type === "ai"
              ? h("select", { "aria-label": `Seat ${i + 1} strength`, "data-key": `strength-${i}`, onchange: (e) => { form.seats[i] = { ...seat, strength: Number(e.target.value) }; render(); } },
                  STRENGTHS.map(([label], index) => h("option", { value: index, selected: seat.strength === index }, label)))
              : h("span.note", {}, "open seat")])),
      form.seats.some((s) => s.type === "friend")
        ? h("label.check", {}, h("input", { type: "checkbox", checked: form.listed, "data-key": "listed", onchange: (e) => { form.listed = e.target.checked; } }),
            " Also list it for anyone to join (else only those with a link)")
        : null);
  }

  function clockFieldset() {
    return h("fieldset.options", {}, h("legend", {}, "Turn clock"),
      h("select", { "aria-label": "Turn clock", "data-key": "clock", onchange: (e) => set({ clock: Number(e.target.value) || null }) },
        CLOCKS.map(([label, seconds]) => h("option", { value: seconds ?? "", selected: form.clock === seconds }, label))),
      form.clock ? h("select", { "aria-label": "When time runs out", "data-key": "on-timeout", onchange: (e) => set({ onTimeout: e.target.value }) },
        h("option", { value: "ai", selected: form.onTimeout === "ai" }, "then the AI moves for the player"),
        h("option", { value: "forfeit", selected: form.onTimeout === "forfeit" }, "then the player forfeits")) : null);
  }

  function lobby() {
    const games = waiting?.games || [];
    return h("section.lobby", { "aria-label": "Games waiting for players" }, h("h2", {}, "Waiting for players"),
      waiting === null ? h("p.note", {}, "Looking…") : games.length ? h("ul.game-list", {}, games.map((g) => {
        const open = g.seats.filter((s) => s.type === "open").length;
        return h("li", {}, h("b", {}, TITLES[g.game] || g.game), ` · ${g.players} players · ${open} open seat${open === 1 ? "" : "s"}`,
          g.clock ? ` · ${g.clock.turn_seconds}s a turn` : "",
          h("a.button.ghost", { href: `#/join/${g.id}`, "data-key": `join-${g.id}` }, "Join"));
      })) : h("p.note", {}, "No game is waiting. Create one and invite friends!"));
  }

  function recent() {
    const games = recentGames().slice(0, 6);
    if (!games.length) return null;
    return h("section.recent", { "aria-label": "Your games" }, h("h2", {}, "Your games"),
      h("ul.game-list", {}, games.map((g) => h("li", {}, h("a", { href: `#/g/${g.id}` }, TITLES[g.game] || "Game"), ` · ${new Date(g.at).toLocaleString()}`))));
  }

  async function refreshLobby() {
    try { waiting = await api.waiting(); } catch { waiting = { games: [] }; }
    if (root.querySelector(".lobby")) render();
  }

  set({});
  refreshLobby();
  const timer = setInterval(refreshLobby, 5000);
  return { close() { clearInterval(timer); } };
}
