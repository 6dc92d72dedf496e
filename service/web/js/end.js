// The end of a game: the ranking with the scores, what to do next, and the whole history.

import { exportUrl } from "./api.js";
import { h } from "./dom.js";
import { ordinal, plural, t } from "./i18n.js";
import { logPanel, names } from "./log.js";
import { currentPlayer } from "./player.js";
import { ratingResult } from "./rated-result.js";
import { rematchPanel, resignedNote } from "./after-game.js";

export function endScreen(ctx) {
  const { body, game } = ctx;
  const result = body.result;
  const mine = result.ranking.find((r) => r.seat === ctx.you);
  const headline = result.winners.length === 0 ? t("Nobody wins: every seat ran out of time.")
    : result.resigned?.includes(ctx.you) ? t("You resigned")
    : ctx.you === null ? t("Game over")
    : mine.rank === 1 ? t(result.winners.length > 1 ? "A shared victory!" : "You win!")
    : result.ranking.length === 2 ? t("You lost")  // a duel has no second place to be proud of
    : t("You finished {rank}", { rank: ordinal(mine.rank) });
  const out = result.forfeited.includes(ctx.you) && result.forfeited.length === 1;
  const forfeit = result.reason === "forfeit"
    ? h("p.note", {}, out ? t("You ran out of time: the game ended by forfeit.")
      : plural(result.forfeited.length, "{who} ran out of time: the game ended by forfeit.", "{who} ran out of time: the game ended by forfeit.|many",
        { who: names(ctx, result.forfeited) })) : null;
  const columns = game.resultColumns(result, 0).map(([label]) => label);
  return h("section.end", { "aria-label": t("Result") }, h("div.result", {},
    h("h2.headline", {}, headline),
    forfeit,
    resignedNote(ctx),
    ratingResult(ctx),
    h("table.ranking", {},
      h("thead", {}, h("tr", {}, h("th", {}, t("Rank")), h("th", {}, t("Player")), columns.map((c) => h("th", {}, c)))),
      h("tbody", {}, result.ranking.map((row) => h("tr", { class: [row.rank === 1 && "winner", row.seat === ctx.you && "me"].filter(Boolean).join(" ") },
        h("td", {}, row.rank === 1 ? "★ 1" : row.rank), h("td", {}, h("bdi", {}, ctx.plain(row.seat))),
        game.resultColumns(result, row.seat).map(([, value]) => h("td", {}, value)))))),
    h("div.end-actions", {},
      h("a.button.primary", { href: "#/", "data-key": "new-game" }, t("New game")),
      h("a.button.ghost", { href: `#/replay/${encodeURIComponent(ctx.id)}`, "data-key": "replay" }, t("Replay")),
      h("a.button.ghost", { href: `#/review/${encodeURIComponent(ctx.id)}/${ctx.you ?? 0}`, "data-key": "review" },
        t(ctx.you === null ? "Review" : "Review my decisions"))),
    rematchPanel(ctx),
    h("nav.end-links", { "aria-label": t("More about this game") },
      profileLinked(ctx) ? null : h("a", { href: "#/profile", "data-key": "profile" }, t("Your profile")),
      h("a", { href: exportUrl(ctx.id), download: `${ctx.id}.ndjson`, "data-key": "export", type: "application/x-ndjson" }, t("Export this game (JSON)")))),
    logPanel(ctx, 0));
}

// Whether the page links to this browser's profile already: the new rating's panel does
// in a rated game its player sat in; with no player made yet, there is no profile.
function profileLinked(ctx) {
  const me = currentPlayer();
  const seat = ctx.you === null ? null : ctx.body.seats[ctx.you];
  return !me || (ctx.body.rated && seat?.player === me.id);
}
