// The move log as sentences: what each entry says happened, newest first on the table,
// the whole game at its end. Each game's narrator reads the log in order, so that a
// sentence can say what a move meant then (which round a pass ended and who won it, what
// a decline declined).

import { h } from "./dom.js";
import { isolate } from "./table-view.js";

// Every entry with its sentence, oldest first.
export function narrate(ctx, entries) {
  const tell = ctx.game.narrator(ctx);
  return entries.map((entry) => ({ entry, text: sentence(ctx, entry, tell) }));
}

function sentence(ctx, entry, tell) {
  const who = ctx.name(entry.seat);
  switch (entry.kind) {
    case "join": return `${was(ctx, entry)} sat down`;
    case "leave": return `${was(ctx, entry)} left`;
    case "timeout": return `${who} ran out of time: ${tell(entry)}`;
    case "forfeit": return `${entry.forfeited.map(ctx.name).join(" and ")} ran out of time: forfeit`;
    case "rematch": return "A rematch was set up";
    default: return `${who} ${tell(entry)}`;
  }
}

// Who joined or left: the seat's name as the page gives it (told apart from "You"), or
// the name logged if the seat has changed hands since.
function was(ctx, entry) {
  const now = ctx.body.seats?.[entry.seat]?.name;
  return entry.name && entry.name !== now ? isolate(entry.name) : ctx.name(entry.seat);
}

export function logPanel(ctx, last) {
  const told = narrate(ctx, ctx.history);
  const entries = last ? told.slice(-last).reverse() : told;
  return h("aside.log", { "aria-label": "What happened" },
    h("h2", {}, last ? "Latest moves" : "The whole game"),
    h("ul", {}, entries.map(({ entry, text }, i) => h("li", { class: last && i === 0 && ctx.changed.size ? "fresh" : "" },
      h("span.v", {}, `#${entry.version}`), " ", text))),
    entries.length ? null : h("p.note", {}, "No move yet."));
}
