// Quick reactions at the table: a seat in a game not over says one of six fixed phrases
// (POST .../reactions, by the phrase's id: nothing typed, so nothing to insult or spam
// with), worded here in the reader's language; every page at the table, the spectators'
// too, hears it on the event stream and shows it for a few seconds as a bubble on the
// seat that said it (as Board Game Arena does). A seat may say one
// each 5 s (the buttons rest meanwhile; the server refuses sooner ones). Anyone may mute
// them: kept in this browser, muting hides every reaction said, its own page's included.

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

// The phrases a seat may say, and for everyone at the table the mute switch.
export function reactionsPanel(ctx) {
  const { body } = ctx;
  if (ctx.gone || body.status === "over") return null;
  const mayReact = ctx.you !== null && !body.seats[ctx.you]?.resigned;
  return h("section.reactions", { "aria-label": t("Reactions") },
    mayReact ? h("div.say-buttons", { role: "group", "aria-label": t("Say to the table") }, PHRASES.map(([id, english]) =>
      h("button.ghost.phrase", { type: "button", "data-key": `react-${id}`, disabled: ctx.resting, onclick: () => ctx.react(id) }, t(english)))) : null,
    h("button.ghost.mute", { type: "button", "data-key": "mute-reactions", "aria-pressed": String(ctx.muted), onclick: ctx.toggleMute },
      t("Mute reactions")));
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
});
