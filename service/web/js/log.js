// The move log as sentences: what each entry says happened, newest first on the table,
// the whole game at its end.

import { h } from "./dom.js";

export function describeEntry(ctx, entry) {
  const who = ctx.name(entry.seat);
  switch (entry.kind) {
    case "join": return `${entry.name || who} sat down`;
    case "leave": return `${entry.name || who} left`;
    case "timeout": return `${who} ran out of time: ${ctx.game.describeMove(entry.move)}`;
    case "forfeit": return `${entry.forfeited.map(ctx.name).join(" and ")} ran out of time: forfeit`;
    case "rematch": return "A rematch was set up";
    default: return `${who} ${ctx.game.describeMove(entry.move)}`;
  }
}

export function logPanel(ctx, last) {
  const entries = last ? ctx.history.slice(-last).reverse() : ctx.history;
  return h("aside.log", { "aria-label": "What happened" },
    h("h2", {}, last ? "Latest moves" : "The whole game"),
    h("ul", {}, entries.map((entry, i) => h("li", { class: last && i === 0 && ctx.changed.size ? "fresh" : "" },
      h("span.v", {}, `#${entry.version}`), " ", describeEntry(ctx, entry)))),
    entries.length ? null : h("p.note", {}, "No move yet."));
}
