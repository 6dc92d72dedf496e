// A player's finished games as the archive tells them (GET /v1/players/{id}/games, a page
// at a time): each game's opponents, the player's place, how it ended and the rating it
// moved, linking to its table. The start page's "Your games" shows this browser's player's;
// the profile shows anyone's with the same lines.

import { api } from "./api.js";
import { h } from "./dom.js";
import { addFrench } from "./french.js";
import { gameOf } from "./games.js";
import { ordinal, t, when } from "./i18n.js";
import { currentPlayer } from "./player.js";
import { rating } from "./pools.js";

// One game of the player's, in a list item.
export function gameLine(g) {
  const place = g.rank === 1 ? t("won") : t("finished {rank}", { rank: ordinal(g.rank) });
  const ended = g.reason === "resigned" ? ` (${t("resignation")})` : g.reason === "forfeit" ? ` (${t("forfeit")})` : "";
  const before = g.rating && g.rating.mu_before - 3 * g.rating.sigma_before;
  const after = g.rating && g.rating.mu - 3 * g.rating.sigma;
  return h("li.played", {},
    h("a", { href: `#/g/${encodeURIComponent(g.id)}`, "data-game": g.id }, gameOf(g.game)?.title || g.game),
    h("span.against", {}, g.opponents.length ? [`${t("against")} `, g.opponents.flatMap((o, i) => [
      i ? ", " : "", h("a", { href: `#/player/${encodeURIComponent(o.player)}` }, h("bdi", {}, o.name))])]
      : t("{n} players", { n: g.players })),
    h("span.place", { class: g.rank === 1 ? "won" : "" }, place, ended),
    g.rating ? h("span.moved", { class: after >= before ? "up" : "down" },
      t("rating {before} → {after}", { before: rating(before), after: rating(after) })) : h("span.moved", {}, t("unrated")),
    h("span.when", {}, when(g.ended_at)));
}

// "Your games" on the start page: this browser's player's finished games, or nothing
// before it has a player. onChange redraws the page when a page of games arrives.
export function yourGames(onChange) {
  const me = currentPlayer();
  const state = { games: null, cursor: null, error: "" };

  async function load(cursor) {
    try {
      const page = await api.playerGames(me.id, cursor);
      state.games = [...(state.games || []), ...page.games];
      state.cursor = page.next_cursor;
      state.error = "";
    } catch (error) {
      state.games ??= [];
      state.error = error.message;
    }
    onChange();
  }

  if (me) load(null);
  return () => {
    if (!me) return null;
    return h("section.recent.your-games", { "aria-label": t("Your games") }, h("h2", {}, t("Your games")),
      state.games === null ? h("p.note", {}, t("Looking…"))
        : state.games.length ? h("ul.game-list.played-list", {}, state.games.map(gameLine))
        : h("p.note", {}, t("No finished game yet.")),
      state.error ? h("p.error", {}, state.error) : null,
      state.cursor ? h("button.ghost", { type: "button", "data-key": "more-your-games", onclick: () => load(state.cursor) }, t("More games")) : null);
  };
}

addFrench({
  "against": "contre",
  "resignation": "abandon",
  "forfeit": "forfait",
  "rating {before} → {after}": "cote {before} → {after}",
  "unrated": "non classée",
  "Recently opened": "Ouvertes récemment",
});
