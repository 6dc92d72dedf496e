// What a seat can do at the end of a game and around it: the rematch offered, accepted or
// declined (every answer comes back as a version of the game), who is still at the table
// (presence.js keeps it), and resigning a game in play (asked twice, since it cannot be
// taken back). Drawn from ctx like the rest of the table; what the player does goes back
// through ctx (table.js).

import { h } from "./dom.js";
import { addFrench } from "./french.js";
import { plural, t } from "./i18n.js";
import { names } from "./log.js";

// The seats a person plays (the AI's always want a rematch).
function people(body) {
  return body.seats.filter((seat) => seat.type !== "ai").map((seat) => seat.seat);
}

// The rematch as this seat sees it, with the buttons its answer takes.
export function rematchPanel(ctx) {
  const { body } = ctx;
  if (ctx.you === null || ctx.gone) return null;
  const others = people(body).filter((seat) => seat !== ctx.you);
  const offer = body.rematch_offer;
  const open = offer && offer.declined.length === 0;
  const button = (key, label, onclick, kind = "ghost") =>
    h(`button.${kind}`, { type: "button", "data-key": key, onclick, disabled: ctx.busy }, label);
  let words = null;
  let buttons;
  if (body.rematch) {
    words = t("The rematch is ready.");
    buttons = [button("rematch", t("Go to the rematch"), ctx.rematch, "primary")];
  } else if (open && offer.accepted.includes(ctx.you)) {
    const waiting = others.filter((seat) => !offer.accepted.includes(seat));
    words = plural(waiting.length, "Rematch offered: waiting for {who} to answer.", "Rematch offered: waiting for {who} to answer.|many",
      { who: names(ctx, waiting) });
    buttons = [button("rematch-decline", t("Withdraw the offer"), ctx.declineRematch)];
  } else if (open) {
    words = plural(offer.accepted.length, "{who} offers a rematch.", "{who} offer a rematch.", { who: names(ctx, offer.accepted) });
    buttons = [button("rematch", t("Accept the rematch"), ctx.rematch, "primary"),
      button("rematch-decline", t("Decline"), ctx.declineRematch)];
  } else {
    const declined = offer?.declined ?? [];
    if (declined.includes(ctx.you)) words = t("You declined the rematch.");
    else if (declined.length) words = plural(declined.length, "{who} declined the rematch.", "{who} declined the rematch.|many", { who: names(ctx, declined) });
    buttons = [button("rematch", t(others.length ? "Offer a rematch" : "Rematch"), ctx.rematch)];
  }
  return h("div.rematch", { role: "group", "aria-label": t("Rematch") },
    words ? h("p.rematch-say", {}, words) : null,
    h("div.rematch-buttons", {}, buttons),
    presenceList(ctx, others));
}

// Who of the other people is still at the table (their page beat within 25 s).
function presenceList(ctx, others) {
  const present = ctx.presence?.present;
  if (!present || !others.length) return null;
  return h("ul.presence", { "aria-label": t("At the table") }, others.map((seat) => {
    const here = present.includes(seat);
    const left = !here && ctx.presence.seen.includes(seat);
    return h("li", { class: here ? "here" : "gone", "data-seat": seat },
      h("span.dot", { "aria-hidden": "true" }),
      t(here ? "{who} is at the table" : left ? "{who} has left the table" : "{who} is not at the table",
        { who: ctx.name(seat) }));
  }));
}

// How many watch the game, for the players and the spectators themselves.
export function spectatorCount(ctx) {
  const count = ctx.presence?.spectators ?? 0;
  if (!count) return null;
  return h("span.spectators", { "data-key": "spectators" },
    h("span.eye", { "aria-hidden": "true" }), plural(count, "{n} spectator", "{n} spectators"));
}

// The resign button of a seat in play, and its confirmation.
export function resignControl(ctx) {
  const { body } = ctx;
  if (ctx.you === null || ctx.gone || body.status !== "active" || body.seats[ctx.you]?.resigned) return null;
  if (!ctx.confirmResign) {
    return h("button.ghost.resign", { type: "button", "data-key": "resign", disabled: ctx.busy, onclick: () => ctx.askResign(true) }, t("Resign"));
  }
  const others = people(body).filter((seat) => seat !== ctx.you && !body.seats[seat].resigned);
  const goesOn = others.length > 0 && body.seats.filter((seat) => !seat.resigned).length > 2;
  return h("span.resign-confirm", { role: "group", "aria-label": t("Resign") },
    h("span", {}, t(goesOn ? "Resign? You rank last; the AI plays your seat to the end." : "Resign? You lose this game.")),
    h("button.primary", { type: "button", "data-key": "resign-yes", onclick: ctx.resign }, t("Yes, resign")),
    h("button.ghost", { type: "button", "data-key": "resign-no", onclick: () => ctx.askResign(false) }, t("Keep playing")));
}

// The end's headline and note for a game someone resigned.
export function resignedNote(ctx) {
  const result = ctx.body.result;
  if (!result?.resigned?.length || result.resigned.includes(ctx.you)) return null;  // the headline says it
  return h("p.note", {}, plural(result.resigned.length, "{who} resigned.", "{who} resigned.|many", { who: names(ctx, result.resigned) }));
}

addFrench({
  "The rematch is ready.": "La revanche est prête.",
  "Go to the rematch": "Aller à la revanche",
  "Rematch offered: waiting for {who} to answer.": "Revanche proposée : en attente de la réponse de {who}.",
  "Rematch offered: waiting for {who} to answer.|many": "Revanche proposée : en attente de la réponse de {who}.",
  "Withdraw the offer": "Retirer la proposition",
  "{who} offers a rematch.": "{who} propose une revanche.",
  "{who} offer a rematch.": "{who} proposent une revanche.",
  "Accept the rematch": "Accepter la revanche",
  "Decline": "Refuser",
  "You declined the rematch.": "Vous avez refusé la revanche.",
  "{who} declined the rematch.": "{who} a refusé la revanche.",
  "{who} declined the rematch.|many": "{who} ont refusé la revanche.",
  "Offer a rematch": "Proposer une revanche",
  "Rematch": "Revanche",
  "At the table": "À la table",
  "{who} is at the table": "{who} est à la table",
  "{who} has left the table": "{who} a quitté la table",
  "{who} is not at the table": "{who} n’est pas à la table",
  "{n} spectator": "{n} spectateur",
  "{n} spectators": "{n} spectateurs",
  "Resign": "Abandonner",
  "Resign? You rank last; the AI plays your seat to the end.": "Abandonner ? Vous finissez dernier ; l’IA joue votre place jusqu’à la fin.",
  "Resign? You lose this game.": "Abandonner ? Vous perdez cette partie.",
  "Yes, resign": "Oui, abandonner",
  "Keep playing": "Continuer à jouer",
  "{who} resigned.": "{who} a abandonné.",
  "{who} resigned.|many": "{who} ont abandonné.",
  "{who} resigned": "{who} a abandonné",
  "You resigned": "Vous avez abandonné",
  "{who} offered a rematch": "{who} a proposé une revanche",
  "You offered a rematch": "Vous avez proposé une revanche",
  "{who} declined the rematch": "{who} a refusé la revanche",
  "You declined the rematch": "Vous avez refusé la revanche",
  "resigned": "a abandonné",
  "No rematch is offered now.": "Aucune revanche n’est proposée maintenant.",
  "This game is over already.": "Cette partie est déjà finie.",
});
