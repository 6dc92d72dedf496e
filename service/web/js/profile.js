// A player's profile: per rating pool its rating (mu - 3 sigma, with mu and sigma), the
// provisional mark, games, wins and rank, a chart of its history among the AI levels;
// then its recent games, each linking to its table. This browser's own profile
// (#/profile) also renames its player.

import { api } from "./api.js";
import { h, patch } from "./dom.js";
import { ratingChart } from "./chart.js";
import { gameOf } from "./games.js";
import { decimal, localized, when } from "./lang.js";
import { currentPlayer, ensurePlayer, renamePlayer } from "./player.js";
import { NEWCOMER, levelRatings, placeAmongLevels, playerLabel, poolTitle, provisionalMark, rankText, rating } from "./pools.js";

const T = localized({
  en: {
    brand: "Crab Table", loading: "Reading the profile…", yours: "Your profile", theirs: "Profile",
    none: "This browser has no player yet: it gets one when you play, or now.", make: "Make my player",
    name: "Your name", save: "Save the name", saved: "Saved.", noRatings: "No game played yet.",
    rating: "Rating", mu: "μ (skill)", sigma: "σ (uncertainty)", games: "Games", wins: "Wins",
    recent: "Recent games", noGames: "No finished game yet.", more: "More games",
    place: (rank) => rank === 1 ? "won" : `finished ${rank}${{ 2: "nd", 3: "rd" }[rank] || "th"}`,
    seat: (n) => `seat ${n}`, leaderboard: "Leaderboard", boards: "Leaderboards", rated: "Play a rated game", home: "Back to the start",
    scale: "The conservative rating, μ − 3σ: what the player is at least, with 99.7% confidence. The AI levels are fixed landmarks on the same scale.",
  },
  fr: {
    brand: "Crab Table", loading: "Lecture du profil…", yours: "Votre profil", theirs: "Profil",
    none: "Ce navigateur n’a pas encore de joueur : il en reçoit un quand vous jouez, ou maintenant.", make: "Créer mon joueur",
    name: "Votre nom", save: "Enregistrer le nom", saved: "Enregistré.", noRatings: "Aucune partie jouée pour l’instant.",
    rating: "Cote", mu: "μ (niveau)", sigma: "σ (incertitude)", games: "Parties", wins: "Victoires",
    recent: "Parties récentes", noGames: "Aucune partie terminée pour l’instant.", more: "Plus de parties",
    place: (rank) => rank === 1 ? "gagnée" : `${rank}e place`,
    seat: (n) => `place ${n}`, leaderboard: "Classement général", boards: "Classements", rated: "Jouer une partie classée", home: "Retour à l’accueil",
    scale: "La cote prudente, μ − 3σ : le niveau minimal du joueur, avec 99,7 % de confiance. Les niveaux de l’IA sont des repères fixes sur la même échelle.",
  },
});

export function openProfile(root, { id } = {}) {
  const own = !id || id === currentPlayer()?.id;
  const state = { player: null, games: [], cursor: null, levels: {}, error: "", note: "", name: currentPlayer()?.name || "" };
  let closed = false;

  function render() {
    if (closed) return;
    patch(root, h("div.start.profile", {},
      h("header.hero", {}, h("a.brand", { href: "#/" }, h("span.logo.big", {})), h("h1", {}, own ? T.yours : T.theirs)),
      nav(),
      own && !currentPlayer() ? makeForm() : state.player ? [identity(), ratings(), recent()] : h("p.note", {}, state.error ? "" : T.loading),
      h("p.error", { role: "alert" }, state.error)));
  }

  function nav() {
    return h("nav.rated-nav", {}, h("a", { href: "#/" }, T.home), h("a", { href: "#/leaderboards" }, T.boards), h("a", { href: "#/rated" }, T.rated));
  }

  function makeForm() {
    return h("form.setup", { onsubmit: make }, h("p", {}, T.none), nameField(), h("button.primary", { type: "submit", "data-key": "make-player" }, T.make));
  }

  function nameField() {
    return h("label.field", {}, `${T.name} `, h("input", { type: "text", value: state.name, maxLength: 24, "data-key": "player-name",
      oninput: (e) => { state.name = e.target.value; state.note = ""; } }));
  }

  function identity() {
    if (!own) return h("h2.player-name", {}, playerLabel(state.player));
    return h("form.setup.rename", { onsubmit: rename }, nameField(),
      h("button.ghost", { type: "submit", "data-key": "rename" }, T.save), h("span.note", { role: "status" }, state.note));
  }

  function ratings() {
    const list = state.player.ratings;
    if (!list.length) return h("p.note", {}, T.noRatings);
    return h("section.ratings", {}, h("p.note", {}, T.scale), list.map(poolCard));
  }

  function poolCard(r) {
    const landmarks = state.levels[r.pool] || [];
    const fromStart = r.history.length === r.rated_games && state.player.kind !== "ai";
    const points = fromStart ? [NEWCOMER, ...r.history] : r.history;
    return h("article.pool", { "data-pool": r.pool },
      h("h2", {}, poolTitle(r), " ", provisionalMark(r.provisional)),
      h("div.pool-figures", {},
        h("div.big-rating", {}, h("span.label", {}, T.rating), h("b", { "data-key": `value-${r.pool}` }, rating(r.value))),
        h("dl", {},
          h("dt", {}, T.mu), h("dd", {}, decimal(r.mu, 2)), h("dt", {}, T.sigma), h("dd", {}, decimal(r.sigma, 2)),
          h("dt", {}, T.games), h("dd", {}, r.games), h("dt", {}, T.wins), h("dd", {}, r.wins))),
      h("p.rank", {}, h("a", { href: `#/leaderboards/${r.pool}` }, rankText(r)),
        landmarks.length && state.player.kind !== "ai" ? ` · ${placeAmongLevels(r.value, landmarks)}` : ""),
      points.length ? ratingChart(points, landmarks, fromStart) : null);
  }

  function recent() {
    return h("section.recent", { "aria-label": T.recent }, h("h2", {}, T.recent),
      state.games.length ? h("ul.game-list", {}, state.games.map((g) => h("li", {},
        h("a", { href: `#/g/${g.id}`, "data-game": g.id }, gameOf(g.game)?.title || g.game),
        ` · ${T.place(g.rank)} · ${T.seat(g.seat + 1)} · ${when(g.ended_at)}`))) : h("p.note", {}, T.noGames),
      state.cursor ? h("button.ghost", { type: "button", "data-key": "more-games", onclick: more }, T.more) : null);
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
      state.note = T.saved;
      state.error = "";
    } catch (error) { state.error = error.message; }
    render();
  }

  render();
  load();
  return { close() { closed = true; } };
}
