// The end of a game: the ranking with the scores, what to do next, and the whole history.

import { h } from "./dom.js";
import { logPanel } from "./log.js";
import { ratingResult } from "./rated-result.js";

export function endScreen(ctx) {
  const { body, game } = ctx;
  const result = body.result;
  const mine = result.ranking.find((r) => r.seat === ctx.you);
  const headline = ctx.you === null ? "Game over"
    : mine.rank === 1 ? (result.winners.length > 1 ? "A shared victory!" : "You win!")
    : `You finished ${ordinal(mine.rank)}`;
  const forfeit = result.reason === "forfeit"
    ? h("p.note", {}, `${result.forfeited.map(ctx.name).join(" and ")} ran out of time: the game ended by forfeit.`) : null;
  const columns = game.resultColumns(result, 0).map(([label]) => label);
  return h("section.end", { "aria-label": "Result" }, h("div.result", {},
    h("h2.headline", {}, headline),
    forfeit,
    ratingResult(ctx),
    h("table.ranking", {},
      h("thead", {}, h("tr", {}, h("th", {}, "Rank"), h("th", {}, "Player"), columns.map((c) => h("th", {}, c)))),
      h("tbody", {}, result.ranking.map((row) => h("tr", { class: [row.rank === 1 && "winner", row.seat === ctx.you && "me"].filter(Boolean).join(" ") },
        h("td", {}, row.rank === 1 ? "★ 1" : row.rank), h("td", {}, ctx.name(row.seat)),
        game.resultColumns(result, row.seat).map(([, value]) => h("td", {}, value)))))),
    h("div.end-actions", {},
      h("a.button.primary", { href: "#/", "data-key": "new-game" }, "New game"),
      ctx.you !== null
        ? h("button.ghost", { type: "button", "data-key": "rematch", onclick: ctx.rematch }, body.rematch ? "Go to the rematch" : "Rematch")
        : null)),
    logPanel(ctx, 0));
}

function ordinal(n) {
  return `${n}${{ 1: "st", 2: "nd", 3: "rd" }[n] || "th"}`;
}
