// Each rating pool's leaderboard, the best first by mu - 3 sigma, a page at a time
// (next_cursor), the five AI levels among the players as landmarks, and this browser's
// player's own line highlighted (its rank asked with `player=`, shown even when it is
// not on the page; before it is ranked, where its rating would place it).

import { api } from "./api.js";
import { h, patch } from "./dom.js";
import { decimal, t } from "./i18n.js";
import { currentPlayer } from "./player.js";
import { playerLabel, poolTitle, provisionalMark, rankText, rating } from "./pools.js";
import { logoLink } from "./screens.js";


export function openLeaderboard(root, { pool } = {}) {
  const me = currentPlayer();
  const state = { pools: null, board: null, lines: [], cursor: null, mine: null, error: "" };
  let closed = false;

  function render() {
    if (closed) return;
    patch(root, h("div.start.leaderboard", {},
      h("header.hero", {}, logoLink(), h("h1", {}, t("Leaderboards"))),
      h("nav.rated-nav", {}, h("a", { href: "#/" }, t("Back to the start")), me ? h("a", { href: "#/profile" }, t("Your profile")) : null, h("a", { href: "#/rated" }, t("Play a rated game"))),
      state.pools ? h("nav.pools", { "aria-label": t("Leaderboards") }, state.pools.map((p) =>
        h("a.button", { href: `#/leaderboards/${p.pool}`, class: p.pool === pool ? "primary" : "ghost", "aria-current": p.pool === pool ? "page" : null,
          "data-pool": p.pool }, poolTitle(p)))) : null,
      state.board ? board() : h("p.note", {}, state.error ? "" : t("Reading the leaderboard…")),
      h("p.error", { role: "alert" }, state.error)));
  }

  function board() {
    const rows = withMine(state.lines.map((line) => ({ ...line, shown: line.rank })));
    const you = state.board.you;
    const offPage = you && !state.lines.some((l) => l.player.id === you.player.id);
    return h("section.board-list", { "aria-label": poolTitle(state.board) },
      h("p.note", {}, t("Ordered by the rating, 1500 + 20 × (μ − 3σ): the skill μ less three times its uncertainty σ. A player enters after {n} rated games; the AI levels are always shown, fixed landmarks of the scale.", { n: state.board.ranked_after })),
      h("table.ranking.leaders", {},
        h("thead", {}, h("tr", {}, [t("Rank"), t("Player"), t("Rating"), t("μ"), t("σ"), t("Rated games")].map((c) => h("th", {}, c)))),
        h("tbody", {}, rows.map(row), offPage ? [h("tr.gap", {}, h("td", { colspan: 6 }, "…")), row({ ...you, shown: you.rank })] : null)),
      state.cursor ? h("button.ghost", { type: "button", "data-key": "more-players", onclick: more }, t("More players")) : null);
  }

  // This browser's player, not ranked yet, drawn where its rating would place it (unnumbered).
  function withMine(rows) {
    const mine = state.mine;
    if (!mine || mine.rank || rows.some((r) => r.player.id === mine.player.id)) return rows;
    const at = rows.findIndex((r) => r.value < mine.value);
    if (at === -1 && state.cursor) return rows;  // below this page
    const line = { ...mine, shown: "–", unranked: true };
    return at === -1 ? [...rows, line] : [...rows.slice(0, at), line, ...rows.slice(at)];
  }

  function row(line) {
    const mine = me && line.player.id === me.id;
    const ai = line.player.kind === "ai";
    return h("tr", { class: [mine && "me", ai && "landmark", line.unranked && "unranked"].filter(Boolean).join(" "), "data-player": line.player.id,
      title: line.unranked ? t("Your rating, not ranked yet") : null },
      h("td", {}, line.shown),
      h("td.who", {}, h("a", { href: mine ? "#/profile" : `#/player/${line.player.id}` }, playerLabel(line.player)),
        ai ? h("span.badge.ai", {}, t("AI")) : null, mine ? h("span.badge.you", {}, t("you")) : null, provisionalMark(line.provisional),
        line.unranked ? h("span.note", {}, ` ${rankText(line)}`) : null),
      h("td.num", {}, rating(line.value)), h("td.num", {}, decimal(line.mu, 1)), h("td.num", {}, decimal(line.sigma, 1)),
      h("td.num", {}, ai ? t("fixed") : line.rated_games));
  }

  async function load() {
    try {
      state.pools = (await api.pools()).pools;
      if (!pool) { location.replace(`#/leaderboards/${state.pools[0].pool}`); return; }
      const [board, profile] = await Promise.all([api.leaderboard(pool, { player: me?.id }), me ? api.player(me.id).catch(() => null) : null]);
      if (closed) return;
      const standing = profile?.ratings.find((r) => r.pool === pool);
      state.mine = standing ? { ...standing, player: { id: me.id, name: profile.name, kind: profile.kind } } : null;
      Object.assign(state, { board, lines: board.lines, cursor: board.next_cursor, error: "" });
    } catch (error) {
      state.error = error.message;
    }
    if (!closed) render();
  }

  async function more() {
    try {
      const page = await api.leaderboard(pool, { cursor: state.cursor, player: me?.id });
      state.lines.push(...page.lines);
      state.cursor = page.next_cursor;
    } catch (error) { state.error = error.message; }
    render();
  }

  render();
  load();
  return { close() { closed = true; } };
}
