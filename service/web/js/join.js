// Taking a seat through a join link: the player gives a name, the server gives a token.

import { api } from "./api.js";
import { alarm } from "./announce.js";
import { h, patch } from "./dom.js";
import { gameOf } from "./games.js";
import { plural, t } from "./i18n.js";
import { languageSwitch } from "./language.js";
import { playerName, remember, setPlayerName } from "./saved.js";
import { ensurePlayer } from "./player.js";

export function openJoin(root, { id, seat }) {
  let game = null;
  let error = "";
  let busy = false;
  let name = playerName();  // kept as typed: the page redraws when the game's details arrive

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
    alarm(error);
    const open = game?.seats?.filter((s) => s.type === "open") || [];
    patch(root, h("div.start.join", {},
      h("header.hero", {}, h("span.logo.big", {}), h("h1", {}, "Crab Table"), languageSwitch()),
      h("form.setup", { onsubmit: join, "aria-label": t("Join the game") },
          h("h2", {}, game ? t("{game}, {n} players", { game: gameOf(game.game)?.title || game.game, n: game.view.players }) : t("A game")),
          game ? h("p", {}, game.status === "waiting" ? plural(open.length, "{n} seat still open.", "{n} seats still open.") : t("This game has already started.")) : null,
          h("label.field", {}, t("Your name"), " ", h("input", { name: "name", type: "text", value: name, maxLength: 24, placeholder: t("so the others know who you are"), "data-key": "name",
            oninput: (e) => { name = e.target.value; } })),
          h("button.primary.big", { type: "submit", disabled: busy || (game && game.status !== "waiting"), "data-key": "join" },
            seat === undefined ? t("Take a seat") : t("Take seat {n}", { n: seat + 1 })),
          h("p.error", {}, error)),
      h("p", {}, h("a", { href: "#/" }, t("Back to the start")))));
  }

  api.game(id).then((body) => { game = body; render(); }).catch((problem) => { error = problem.message; render(); });
  render();
  return { close() {} };
}
