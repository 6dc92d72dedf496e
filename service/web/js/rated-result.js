// The end screen's rating: once a rated game this browser's player sat in is over, its
// new rating and rank are read from its profile as soon as the archive has them (a few
// tries: the archive takes the game a moment after its end), with the change the game made.

import { api } from "./api.js";
import { h } from "./dom.js";
import { labelled, t } from "./i18n.js";
import { currentPlayer } from "./player.js";
import { NEWCOMER, conservative, poolTitle, provisionalMark, rankText, rating, ratingChange } from "./pools.js";

const TRIES = 30;
const TRY_MS = 1000;


const found = new Map();  // game id -> {status: "waiting" | "late" | "done", rating?, before?}

// The panel for the end screen of ctx's game (null when this browser's player did not sit in it).
export function ratingResult(ctx) {
  const me = currentPlayer();
  const seat = ctx.you === null ? null : ctx.body.seats[ctx.you];
  if (!me || !seat || seat.player !== me.id) return null;
  if (!ctx.body.rated) return h("p.rated-result.unrated", {}, t("This game was not rated."));
  if (!found.has(ctx.id)) watch(ctx.id, me.id);
  return panel(ctx.id);
}

function panel(id) {
  const known = found.get(id);
  if (known.status !== "done") return h("p.rated-result.pending", { role: "status", "data-rated": id }, known.status === "late" ? t("Your new rating is not in yet: see your profile in a moment.") : t("Rated game: your new rating is on its way…"));
  const { rating: r, change } = known;
  return h("div.rated-result", { role: "status", "data-rated": id, "data-pool": r.pool },
    h("span", {}, labelled(`${t("Your rating")} · ${poolTitle(r)}`, "")), h("b.new-rating", {}, rating(r.value)),
    change === null ? null : h("span.change", { class: change >= 0 ? "up" : "down" }, ` (${ratingChange(change)})`), " ",
    provisionalMark(r.provisional), h("span.rank", {}, ` · ${rankText(r)}`), " · ",
    h("a", { href: "#/profile", "data-key": "to-profile" }, t("Your profile")), " · ", h("a", { href: `#/leaderboards/${r.pool}` }, t("Leaderboard")));
}

async function watch(gameId, playerId) {
  found.set(gameId, { status: "waiting" });
  for (let i = 0; i < TRIES; i++) {
    try {
      const profile = await api.player(playerId);
      for (const r of profile.ratings) {
        const at = r.history.findIndex((point) => point.game_id === gameId);
        if (at === -1) continue;
        // The change this game made (unknown if the chart's history begins after it).
        const before = at > 0 ? r.history[at - 1] : r.rated_games === r.history.length ? NEWCOMER : null;
        found.set(gameId, { status: "done", rating: r,
                            change: before && r.history[at].value - conservative(before) });
        return redraw(gameId);
      }
    } catch { /* the profile is read again on the next try */ }
    await new Promise((resolve) => setTimeout(resolve, TRY_MS));
  }
  found.set(gameId, { status: "late" });
  redraw(gameId);
}

// The panel is redrawn in place: the table redraws only when its game changes.
function redraw(gameId) {
  const node = document.querySelector(`[data-rated="${CSS.escape(gameId)}"]`);
  if (node) node.replaceWith(panel(gameId));
}
