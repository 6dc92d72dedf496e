// Quick reactions at the table: a seat says one of six fixed phrases (POST .../reactions,
// by the phrase's id: nothing typed, so nothing to insult or spam with), worded here in the
// reader's language; every page at the table, the spectators' too, shows it for a few
// seconds as a bubble on the seat that said it (as Board Game Arena does): heard on the
// event stream while the game waits or is in play, and with the presence beats once it is
// over ("Good game": presence.js), for as long as someone else is at the table. A seat may
// say one each 5 s (the phrases rest meanwhile; the server refuses sooner ones). Anyone may
// mute them: kept in this browser, muting hides every reaction said, its own page's included.
// The phrases open from a "React" button in the bar, drawn over the table (a laptop sees
// them without scrolling, and the table below never moves); a spectator's bar has the mute
// switch alone.

import { h } from "./dom.js";
import { addFrench } from "./french.js";
import { t } from "./i18n.js";

export const PHRASES = [["good-luck", "Good luck"], ["well-played", "Well played"], ["good-game", "Good game"],
                        ["thanks", "Thanks"], ["oops", "Oops"], ["hurry-up", "Hurry up?"]];
export const REST_MS = 5000;    // the server's one reaction per 5 s per seat
export const SHOWN_MS = 8000;   // how long a reaction heard stays on the table
const MUTE_KEY = "crab-table.mute-reactions";

export function muted() {
  try { return localStorage.getItem(MUTE_KEY) === "1"; } catch { return false; }
}

export function setMuted(mute) {
  try { localStorage.setItem(MUTE_KEY, mute ? "1" : "0"); } catch { /* this page only */ }
}

const words = (phrase) => t(PHRASES.find(([id]) => id === phrase)?.[1] ?? phrase);

// What seat said last, as a speech bubble on its place at the table (none if muted).
export function bubble(ctx, seat) {
  const said = ctx.muted ? null : ctx.heard.findLast((heard) => heard.seat === seat);
  return said ? h("span.bubble", { "data-key": `heard-${said.key}`, "data-phrase": said.phrase }, words(said.phrase)) : null;
}

// Whether anyone may hear this seat: in play, another person's seat (or an open one) or a
// spectator; after the game, someone else's page at the table (presence.js), since the
// server refuses a word said to nobody. Robots hear nothing.
function someoneElse(ctx) {
  const found = ctx.presence;
  if (ctx.body.status !== "over") {
    return ctx.body.seats.some((seat) => seat.seat !== ctx.you && seat.type !== "ai") || found?.spectators > 0;
  }
  return !!found && (found.spectators > 0 || found.present.some((seat) => seat !== ctx.you));
}

// The bar's control: for a seat, "React" and, opened, the phrases and the mute switch; for
// a spectator (or a seat that resigned a game still in play), the mute switch alone; for a
// seat nobody may hear (robots only, or alone at a finished game's table), nothing.
export function reactionsControl(ctx) {
  const { body } = ctx;
  if (ctx.gone || (ctx.you !== null && !someoneElse(ctx))) return null;
  const mute = h("button.ghost.mute", { type: "button", "data-key": "mute-reactions", "aria-pressed": String(ctx.muted),
    onclick: ctx.toggleMute }, t("Mute reactions"));
  const mayReact = ctx.you !== null && (body.status === "over" || !body.seats[ctx.you]?.resigned);
  const group = { role: "group", "aria-label": t("Reactions") };
  if (!mayReact) return h("span.reactions", group, mute);
  return h("span.reactions", group,
    h("button.ghost.react-toggle", { type: "button", "data-key": "react-menu", "aria-expanded": String(ctx.reacting),
      "aria-controls": "react-panel", onclick: () => ctx.openReactions(!ctx.reacting) }, t("React")),
    ctx.reacting ? h("div.react-panel", { id: "react-panel", role: "group", "aria-label": t("Say to the table") },
      PHRASES.map(([id, english]) => h("button.ghost.phrase", { type: "button", "data-key": `react-${id}`,
        disabled: ctx.resting, onclick: () => ctx.react(id) }, t(english))),
      mute) : null);
}

addFrench({
  "Good luck": "Bonne chance",
  "Well played": "Bien joué",
  "Good game": "Belle partie",
  "Thanks": "Merci",
  "Oops": "Oups",
  "Hurry up?": "On accélère ?",
  "Reactions": "Réactions",
  "Say to the table": "Dire à la table",
  "Mute reactions": "Couper les réactions",
  "React": "Réagir",
  "Nobody else is at the table any more: the reaction was not sent.":
    "Plus personne d’autre n’est à la table : la réaction n’a pas été envoyée.",
});
