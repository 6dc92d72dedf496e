// A player's profile: per rating pool its rating (mu - 3 sigma, with mu and sigma), the
// provisional mark, games, wins and rank, a chart of its history among the AI levels;
// then its recent games (your-games.js: opponents, place, rating moved), each linking to
// its table. This browser's own profile
// (#/profile) also renames its player.

import { api } from "./api.js";
import { h, patch } from "./dom.js";
import { ratingChart } from "./chart.js";
import { decimal, t } from "./i18n.js";
import { currentPlayer, ensurePlayer, renamePlayer } from "./player.js";
import { gameLine } from "./your-games.js";
import { NEWCOMER, levelRatings, placeAmongLevels, playerLabel, poolTitle, provisionalMark, rankText, rating } from "./pools.js";
import { logoLink } from "./screens.js";


export function openProfile(root, { id } = {}) {
  const own = !id || id === currentPlayer()?.id;
  const state = { player: null, games: [], cursor: null, levels: {}, error: "", note: "", name: currentPlayer()?.name || "" };
  let closed = false;

  function render() {
    if (closed) return;
    patch(root, h("div.start.profile", {},
      h("header.hero", {}, logoLink(), h("h1", {}, own ? t("Your profile") : t("Profile"))),
      nav(),
      own && !currentPlayer() ? makeForm() : state.player ? [identity(), ratings(), recent()] : h("p.note", {}, state.error ? "" : t("Reading the profile…")),
      h("p.error", { role: "alert" }, state.error)));
  }

  function nav() {
    return h("nav.rated-nav", {}, h("a", { href: "#/" }, t("Back to the start")), h("a", { href: "#/leaderboards" }, t("Leaderboards")), h("a", { href: "#/rated" }, t("Play a rated game")));
  }

  function makeForm() {
    return h("form.setup", { onsubmit: make }, h("p", {}, t("This browser has no player yet: it gets one when you play, or now.")), nameField(), h("button.primary", { type: "submit", "data-key": "make-player" }, t("Make my player")));
  }

  function nameField() {
    return h("label.field", {}, `${t("Your name")} `, h("input", { type: "text", value: state.name, maxLength: 24, "data-key": "player-name",
      oninput: (e) => { state.name = e.target.value; state.note = ""; } }));
  }

  function identity() {
    if (!own) return h("h2.player-name", {}, playerLabel(state.player));
    return h("form.setup.rename", { onsubmit: rename }, nameField(),
      h("button.ghost", { type: "submit", "data-key": "rename" }, t("Save the name")), h("span.note", { role: "status" }, state.note));
  }

  function ratings() {
    const list = state.player.ratings;
    if (!list.length) return h("p.note", {}, t("No game played yet."));
    return h("section.ratings", {}, h("p.note", {}, t("The rating is 1500 + 20 × (μ − 3σ): from what the player is at least, with 99.7% confidence; a newcomer starts at 1500. The AI levels are fixed landmarks on the same scale.")), list.map(poolCard));
  }

  function poolCard(r) {
    const landmarks = state.levels[r.pool] || [];
    const fromStart = r.history.length === r.rated_games && state.player.kind !== "ai";
    const points = fromStart ? [NEWCOMER, ...r.history] : r.history;
    return h("article.pool", { "data-pool": r.pool },
      h("h2", {}, poolTitle(r), " ", provisionalMark(r.provisional)),
      h("div.pool-figures", {},
        h("div.big-rating", {}, h("span.label", {}, t("Rating")), h("b", { "data-key": `value-${r.pool}` }, rating(r.value))),
        h("dl", {},
          h("dt", {}, t("μ (skill)")), h("dd", {}, decimal(r.mu, 2)), h("dt", {}, t("σ (uncertainty)")), h("dd", {}, decimal(r.sigma, 2)),
          h("dt", {}, t("Rated games")), h("dd", {}, r.rated_games), h("dt", {}, t("All games")), h("dd", {}, r.games),
          h("dt", {}, t("Wins")), h("dd", {}, r.wins))),
      h("p.rank", {}, h("a", { href: `#/leaderboards/${r.pool}` }, rankText(r)),
        landmarks.length && state.player.kind !== "ai" ? ` · ${placeAmongLevels(r.value, landmarks)}` : ""),
      points.length ? ratingChart(points, landmarks, fromStart) : null);
  }

  function recent() {
    return h("section.recent", { "aria-label": t("Recent games") }, h("h2", {}, t("Recent games")),
      state.games.length ? h("ul.game-list.played-list", {}, state.games.map(gameLine)) : h("p.note", {}, t("No finished game yet.")),
      state.cursor ? h("button.ghost", { type: "button", "data-key": "more-games", onclick: more }, t("More games")) : null);
  }

  async function load() {
    const playerId = id || currentPlayer()?.id;
    if (!playerId) return render();
    try {
      const [player, games] = await Promise.all([api.player(playerId), api.playerGames(playerId)]);
      if (closed) return;
      Object.assign(state, { player, games: games.games, cursor: games.next_cursor, error: "" });
      render();
      state.levels = await levelRatings();
    } catch (error) {
      state.error = error.message;
    }
    if (!closed) render();
  }

  async function more() {
    try {
      const page = await api.playerGames(state.player.id, state.cursor);
      state.games.push(...page.games);
      state.cursor = page.next_cursor;
    } catch (error) { state.error = error.message; }
    render();
  }

  async function make(event) {
    event.preventDefault();
    try { await ensurePlayer(state.name); } catch (error) { state.error = error.message; return render(); }
    state.name = currentPlayer().name;
    load();
  }

  async function rename(event) {
    event.preventDefault();
    try {
      state.player = { ...state.player, name: (await renamePlayer(state.name)).name };
      state.note = t("Saved.");
      state.error = "";
    } catch (error) { state.error = error.message; }
    render();
  }

  render();
  load();
  return { close() { closed = true; } };
}
