// The move log as sentences: what each entry says happened, newest first on the table,
// the whole game at its end. Each game's narrator reads the log in order, so that a
// sentence can say what a move meant then (which round a pass ended and who won it, what
// a decline declined).

import { h } from "./dom.js";
import { isolate, t } from "./i18n.js";

// A sentence whose subject is a seat: the viewer's own form ("You played ...", in French
// another conjugation) or the seat's name for {who}.
// A pair [for "You", for the others] where the English differs by more than its subject.
export function say(ctx, seat, text, params = {}) {
  const [mine, theirs] = Array.isArray(text) ? text : [text.replace("{who}", "You"), text];
  if (seat === ctx.you) return t(mine, params);
  return t(theirs, { ...params, who: ctx.name(seat) });
}

// Every entry with its sentence, oldest first.
export function narrate(ctx, entries) {
  const tell = ctx.game.narrator(ctx);
  return entries.map((entry) => ({ entry, text: sentence(ctx, entry, tell) }));
}

function sentence(ctx, entry, tell) {
  switch (entry.kind) {
    case "join": return arrival(ctx, entry, "{who} sat down");
    case "leave": return arrival(ctx, entry, "{who} left");
    case "timeout": return t("{what} (out of time: the AI played)", { what: tell(entry) });
    case "forfeit": return t("{who} ran out of time: forfeit", { who: names(ctx, entry.forfeited) });
    case "rematch": return t("A rematch was set up");
    case "rematch-offer": return say(ctx, entry.seat, "{who} offered a rematch");
    case "rematch-decline": return say(ctx, entry.seat, "{who} declined the rematch");
    case "resign": return say(ctx, entry.seat, "{who} resigned");
    default: return tell(entry);
  }
}

// Several seats in words: "Ana and Bo".
export function names(ctx, seats) {
  return seats.map(ctx.name).join(` ${t("and")} `);
}

// Who joined or left: the seat as the page names it (the viewer's own form for the
// viewer: "Vous vous êtes assis·e", not "Vous s'est assis·e"), or the name logged if the
// seat has changed hands since.
function arrival(ctx, entry, text) {
  const now = ctx.body.seats?.[entry.seat]?.name;
  if (entry.name && entry.name !== now) return t(text, { who: isolate(entry.name) });
  return say(ctx, entry.seat, text);
}

export function logPanel(ctx, last) {
  const told = narrate(ctx, ctx.history);
  const entries = last ? told.slice(-last).reverse() : told;
  // The whole game's log scrolls in its box: it takes the focus, so the keyboard scrolls it.
  return h("aside.log", { "aria-label": t("What happened"), tabindex: last ? null : 0 },
    h("h2", {}, t(last ? "Latest moves" : "The whole game")),
    h("ul", {}, entries.map(({ entry, text }, i) => h("li", { class: last && i === 0 && ctx.changed.size ? "fresh" : "" },
      h("span.v", {}, `#${entry.version}`), " ", text))),
    entries.length ? null : h("p.note", {}, t("No move yet.")));
}
