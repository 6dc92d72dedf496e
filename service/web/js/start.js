// The start page: choose a game and its seats, create it; or resume a game of yours, take
// a seat in a game that is waiting for players, or watch one in play.

import { api } from "./api.js";
import { alarm } from "./announce.js";
import { h, patch } from "./dom.js";
import { icon } from "./cards.js";
import { gameOf, games } from "./games.js";
import { language, plural, t } from "./i18n.js";
import { languageSwitch } from "./language.js";
import { playerName, recentGames, remember, setPlayerName } from "./saved.js";
import { yourGames } from "./your-games.js";
import { ensurePlayer, humanSeat } from "./player.js";
import { ratedLink } from "./queue.js";

// The service's strength levels (core.ai.LEVELS, measured against each other in docs/ai.md).
export const STRENGTHS = [["Level 1 · beginner", 1], ["Level 2 · casual", 2], ["Level 3 · club", 3],
                          ["Level 4 · strong", 4], ["Level 5 · expert", 5]];
const CLOCKS = [["No clock", null], ["30 s a turn", 30], ["2 min a turn", 120], ["1 day a turn", 86400]];

export function openStart(root) {
  // Each game's creation options are kept apart, so that switching games loses none.
  const form = { game: games()[0].name, players: 3, options: Object.fromEntries(games().map((g) => [g.name, { ...g.options?.defaults }])),
                 seats: [], clock: null, onTimeout: "ai", listed: false, rated: false, name: playerName() };
  let error = "";
  let busy = false;
  let waiting = null;
  let live = null;
  const chosen = () => gameOf(form.game);
  // The seats of the chosen game: the players picked, within what the game takes.
  const seatCount = () => { const [fewest, most] = chosen().players; return Math.min(Math.max(form.players, fewest), most); };
  const seatsFor = (n) => Array.from({ length: n }, (_, i) => form.seats[i] || (i === 0 ? { type: "human" } : { type: "ai", strength: 2 }));

  function set(changes) {
    Object.assign(form, changes);
    form.seats = seatsFor(seatCount());
    render();
  }

  async function create(event) {
    event.preventDefault();
    if (busy) return;
    busy = true;
    error = "";
    render();
    try {
      // The seat is bound to this browser's player (so the game can be rated); a player
      // that cannot be made now (a rate limit) leaves the game unrated, not unplayed.
      const player = await ensurePlayer(form.name).catch(() => null);
      const created = await api.create(spec(player));
      const mine = created.seats[0];
      remember(created.id, { token: mine.token, game: form.game });
      location.hash = `#/g/${created.id}`;
    } catch (problem) {
      busy = false;
      error = problem.message;
      render();
    }
  }

  function spec(player) {
    const seats = form.seats.map((seat, i) => {
      if (i === 0) return humanSeat(player, form.name.trim());
      if (seat.type === "ai") return { type: "ai", level: STRENGTHS[seat.strength][1] };
      return { type: "open" };
    });
    const body = { game: form.game, players: form.seats.length, seats };
    if (chosen().options) body.options = { ...form.options[form.game] };
    if (form.clock) Object.assign(body, { turn_seconds: form.clock, on_timeout: form.onTimeout });
    if (seats.some((s) => s.type === "open")) body.listed = form.listed;
    body.rated = form.rated;  // casual unless asked: a rated game has no hints
    return body;
  }

  function render() {
    alarm(error);
    patch(root, h("div.start", {},
      h("header.hero", {}, h("span.logo.big", {}), h("h1", {}, "Crab Table"), h("p", {}, t("Two card games from the seaside. Play against the AI or with friends.")),
        ratedLink(), languageSwitch()),
      h("form.setup", { onsubmit: create, "aria-label": t("New game") },
        h("fieldset.games", {}, h("legend", {}, t("Game")), games().map(gameTile)),
        playersFieldset(),
        optionsFieldset(),
        seatsFieldset(),
        clockFieldset(),
        h("div.actions", {},
          h("button.primary.big", { type: "submit", disabled: busy, "data-key": "create" }, t(busy ? "Dealing…" : "Create game")),
          h("p.error", {}, error))),
      lobby(),
      watching(),
      finished(),
      recent()));
  }

  function gameTile(game) {
    const value = game.name;
    return h("label.tile", { class: `${value} ${form.game === value ? "chosen" : ""}` },
      h("input", { type: "radio", name: "game", value, checked: form.game === value, onchange: () => set({ game: value }) }),
      icon(game.icon), h("b", {}, game.title), h("span", {}, t(game.description)));
  }

  // A choice of player counts, for a game that takes more than one.
  function playersFieldset() {
    const [fewest, most] = chosen().players;
    if (fewest === most) return null;
    const counts = Array.from({ length: most - fewest + 1 }, (_, i) => fewest + i);
    return h("fieldset.options", {}, h("legend", {}, t("Players")),
      h("div.segmented", {}, counts.map((n) => h("label", { class: form.players === n ? "chosen" : "" },
        h("input", { type: "radio", name: "players", value: n, checked: form.players === n, onchange: () => set({ players: n }) }), `${n}`))));
  }

  // The chosen game's own creation options (its module draws them).
  function optionsFieldset() {
    const options = chosen().options;
    if (!options) return null;
    const mine = form.options[form.game];
    return options.form(mine, (changes) => { Object.assign(mine, changes); render(); });
  }

  function seatsFieldset() {
    return h("fieldset.seat-list", {}, h("legend", {}, t("Seats")),
      form.seats.map((seat, i) => h("div.seat-row", {},
        h("span.seat-label", {}, t("Seat {n}", { n: i + 1 })),
        i === 0
          ? h("input", { type: "text", placeholder: t("Your name"), value: form.name, maxLength: 24, "aria-label": t("Your name"), "data-key": "name",
              oninput: (e) => { form.name = e.target.value; setPlayerName(form.name); } })
          : [h("select", { "aria-label": t("Seat {n} is", { n: i + 1 }), "data-key": `type-${i}`, onchange: (e) => { form.seats[i] = { ...seat, type: e.target.value }; render(); } },
              h("option", { value: "ai", selected: seat.type === "ai" }, t("AI")),
              h("option", { value: "friend", selected: seat.type === "friend" }, t("A friend (gets a link)"))),
            seat.type === "ai"
              ? h("select", { "aria-label": t("Seat {n} strength", { n: i + 1 }), "data-key": `strength-${i}`, onchange: (e) => { form.seats[i] = { ...seat, strength: Number(e.target.value) }; render(); } },
                  STRENGTHS.map(([label], index) => h("option", { value: index, selected: seat.strength === index }, t(label))))
              : h("span.note", {}, t("open seat"))])),
      form.seats.some((s) => s.type === "friend")
        ? h("label.check", {}, h("input", { type: "checkbox", checked: form.listed, "data-key": "listed", onchange: (e) => { form.listed = e.target.checked; } }),
            " ", t("Also list it for anyone to join (else only those with a link)"))
        : null,
      h("label.check", {}, h("input", { type: "checkbox", checked: form.rated, "data-key": "rated", onchange: (e) => { form.rated = e.target.checked; } }),
        " ", t("Rated: the result moves your rating (and there are no hints)")));
  }

  function clockFieldset() {
    return h("fieldset.options", {}, h("legend", {}, t("Turn clock")),
      h("select", { "aria-label": t("Turn clock"), "data-key": "clock", onchange: (e) => set({ clock: Number(e.target.value) || null }) },
        CLOCKS.map(([label, seconds]) => h("option", { value: seconds ?? "", selected: form.clock === seconds }, t(label)))),
      form.clock ? h("select", { "aria-label": t("When time runs out"), "data-key": "on-timeout", onchange: (e) => set({ onTimeout: e.target.value }) },
        h("option", { value: "ai", selected: form.onTimeout === "ai" }, t("then the AI moves for the player")),
        h("option", { value: "forfeit", selected: form.onTimeout === "forfeit" }, t("then the player forfeits"))) : null);
  }

  function lobby() {
    const games = waiting?.games || [];
    return h("section.lobby", { "aria-label": t("Games waiting for players") }, h("h2", {}, t("Waiting for players")),
      waiting === null ? h("p.note", {}, t("Looking…")) : games.length ? h("ul.game-list", {}, games.map((g) => {
        const open = g.seats.filter((s) => s.type === "open").length;
        return h("li", {}, h("b", {}, gameOf(g.game)?.title || g.game),
          ` · ${t("{n} players", { n: g.players })} · ${plural(open, "{n} open seat", "{n} open seats")}`,
          g.clock ? ` · ${t("{n} s a turn", { n: g.clock.turn_seconds })}` : "",
          h("a.button.ghost", { href: `#/join/${g.id}`, "data-key": `join-${g.id}` }, t("Join")));
      })) : h("p.note", {}, t("No game is waiting. Create one and invite friends!")));
  }

  // Games in play anyone may watch (listed by their creator, or the rated queue's).
  function watching() {
    const games = live?.games || [];
    if (!games.length) return null;
    return h("section.live", { "aria-label": t("Games in play to watch") }, h("h2", {}, t("Watch a game in play")),
      h("ul.game-list", {}, games.map((g) => h("li", { "data-game": g.id }, h("b", {}, gameOf(g.game)?.title || g.game),
        h("span.who", {}, "· ", g.seats.map((seat, i) => [i ? ", " : "", h("bdi", {}, seat.name || t(seat.type === "ai" ? "Robot {n}" : "Player {n}", { n: seat.seat + 1 }))])),
        g.clock ? h("span.note", {}, t("{n} s a turn", { n: g.clock.turn_seconds })) : null,
        g.spectators ? h("span.note.watching", { "data-key": `watching-${g.id}` },
          plural(g.spectators, "{n} spectator", "{n} spectators")) : null,
        h("a.button.ghost", { href: `#/g/${g.id}`, "data-key": `watch-${g.id}` }, t("Watch"))))));
  }

  // The tables this browser opened lately (games in play among them), to go back to.
  function recent() {
    const games = recentGames().slice(0, 6);
    if (!games.length) return null;
    return h("section.recent", { "aria-label": t("Recently opened") }, h("h2", {}, t("Recently opened")),
      h("ul.game-list", {}, games.map((g) => h("li", {}, h("a", { href: `#/g/${g.id}` }, gameOf(g.game)?.title || t("Game")), ` · ${new Date(g.at).toLocaleString(language())}`))));
  }

  async function refreshLobby() {
    try { waiting = await api.waiting(); } catch { waiting = { games: [] }; }
    try { live = await api.live(); } catch { live = { games: [] }; }
    if (root.querySelector(".lobby")) render();
  }

  const finished = yourGames(() => { if (root.querySelector(".start")) render(); });
  set({});
  refreshLobby();
  const timer = setInterval(refreshLobby, 5000);
  return { close() { clearInterval(timer); } };
}
