// Taking a seat through a join link: the player gives a name, the server gives a token.

import { api } from "./api.js";
import { alarm } from "./announce.js";
import { h, patch } from "./dom.js";
import { gameOf } from "./games.js";
import { isolate, labelled, plural, t } from "./i18n.js";
import { languageSwitch } from "./language.js";
import { playerName, remember, setPlayerName } from "./saved.js";
import { ensurePlayer } from "./player.js";
import { failedScreen } from "./screens.js";
import { turnClock } from "./clock-words.js";

export function openJoin(root, { id, seat }) {
  let game = null;
  let error = "";
  let busy = false;
  let name = playerName();  // kept as typed: the page redraws when the game's details arrive
  let closed = false;
  let failed = false;  // the game cannot be read: nothing to fill or take

  async function join(event) {
    event.preventDefault();
    name = name.trim();
    setPlayerName(name);
    busy = true;
    render();
    try {
      const player = await ensurePlayer(name).catch(() => null);  // bound, so it can be rated
      const joined = await api.join(id, name, seat, player?.key);
      remember(id, { token: joined.token, game: game?.game });
      location.hash = `#/g/${id}`;
    } catch (problem) {
      busy = false;
      error = problem.message;
      render();
    }
  }

  function render() {
    if (closed || failed) return;  // the page of a game that cannot be joined stays
    alarm(error);
    // Until the game's details arrive the name can be typed, and nothing can be taken.
    const open = game?.seats.filter((s) => s.type === "open") || [];
    const known = game && gameOf(game.game);
    patch(root, h("div.start.join", {},
      h("header.hero", {}, h("span.logo.big", {}), h("h1", {}, "Crab Table"), languageSwitch()),
      h("form.setup", { onsubmit: join, "aria-label": t("Join the game") },
          game ? [h("h2", {}, t("{game}, {n} players", { game: known?.title || game.game, n: game.view.players })),
            details(game, known),
            h("p", {}, game.status === "waiting" ? plural(open.length, "{n} seat still open.", "{n} seats still open.") : t("This game has already started."))]
            : h("p.loading-note", { role: "status" }, t("Shuffling the cards…")),
          h("label.field", {}, t("Your name"), " ", h("input", { name: "name", type: "text", value: name, maxLength: 24, placeholder: t("so the others know who you are"), "data-key": "name",
            oninput: (e) => { name = e.target.value; } })),
          h("button.primary.big", { type: "submit", disabled: busy || game?.status !== "waiting", "data-key": "join" },
            seat === undefined ? t("Take a seat") : t("Take seat {n}", { n: seat + 1 })),
          h("p.error", {}, error)),
      h("p", {}, h("a", { href: "#/" }, t("Back to the start")))));
  }

  // A game that cannot be read is explained, with nothing to fill or take.
  api.game(id).then((body) => { game = body; render(); }).catch((problem) => {
    if (closed) return;
    failed = true;
    const why = t("This game cannot be joined. {why}", { why: problem.message });
    alarm(why);
    patch(root, failedScreen(why));
  });
  render();
  return { close() { closed = true; } };
}

// What a player wants to know before sitting down: who invites, which variant, which clock,
// whether it counts.
function details(game, known) {
  const hosts = game.seats.filter((s) => s.type === "human" && s.name).map((s) => isolate(s.name));
  const ais = game.seats.filter((s) => s.type === "ai").length;
  const variant = known?.variant(game.view);
  return h("ul.details", { "data-key": "details" },
    hosts.length ? h("li", {}, t("Invited by {who}", { who: hosts.join(", ") })) : null,
    ais ? h("li", {}, plural(ais, "{n} seat played by the AI", "{n} seats played by the AI")) : null,
    variant ? h("li", {}, labelled(t("Variant"), variant)) : null,
    h("li", {}, game.clock ? `${turnClock(game.clock.turn_seconds)}, ${
      t(game.clock.on_timeout === "forfeit" ? "then the player forfeits" : "then the AI moves for the player")}` : t("No turn clock")),
    h("li", {}, t(game.rated ? "Rated: the result moves your rating (and there are no hints)" : "Not rated")));
}
