// Cards of both games drawn as cards: a value in the corner, a picture, the effect in words.

import { h } from "./dom.js";

const ICONS = {
  cup: '<path d="M9 4h14v5a7 7 0 0 1-14 0z" /><path d="M9 6H5a4 4 0 0 0 4 6M23 6h4a4 4 0 0 1-4 6" fill="none" stroke="currentColor" stroke-width="2"/><path d="M14 16h4v6h-4zM10 23h12v3H10z"/>',
  crab: '<ellipse cx="16" cy="19" rx="9" ry="6"/><path d="M5 5a4 4 0 0 0 2 8l2-2a2 2 0 0 1-1-3zM27 5a4 4 0 0 1-2 8l-2-2a2 2 0 0 0 1-3z"/><path d="M8 17l-5 2M8 21l-5 4M24 17l5 2M24 21l5 4M11 25l-2 4M21 25l2 4" stroke="currentColor" stroke-width="2"/><circle cx="13" cy="13" r="1.6" fill="#fff"/><circle cx="19" cy="13" r="1.6" fill="#fff"/>',
  octopus: '<path d="M8 14a8 8 0 0 1 16 0v4H8z"/><path d="M9 18c-1 4-4 6-6 6M13 18c0 5-2 8-4 9M19 18c0 5 2 8 4 9M23 18c1 4 4 6 6 6M16 18v10" fill="none" stroke="currentColor" stroke-width="2.5" stroke-linecap="round"/><circle cx="13" cy="12" r="1.8" fill="#fff"/><circle cx="19" cy="12" r="1.8" fill="#fff"/>',
  bottle: '<path d="M13 3h6v3h-1v5l4 4v13a2 2 0 0 1-2 2h-8a2 2 0 0 1-2-2V15l4-4V6h-1z"/><rect x="11" y="17" width="10" height="6" fill="#fff" opacity=".55"/>',
};

export function icon(name, label) {
  const span = h("span.icon", { "aria-hidden": label ? null : "true", title: label });
  span.innerHTML = `<svg viewBox="0 0 32 32" fill="currentColor">${ICONS[name] || ""}</svg>`;
  return span;
}

// -- Cup the Crab ------------------------------------------------------------------

export const CUP_TEXT = {
  crab: "Claims a stack without a Bottle",
  octopus: "Claims a stack with a Bottle",
  bottle: "Seals a stack: only an Octopus takes it",
};

export function cupLabel(name) {
  if (name.startsWith("cup-")) return `Cup ${name.slice(4)}`;
  return name[0].toUpperCase() + name.slice(1);
}

function cupFace(name) {
  if (name.startsWith("cup-")) {
    const value = name.slice(4);
    return { kind: "cup", value, picture: "cup", caption: `${value} point${value === "1" ? "" : "s"}` };
  }
  return { kind: name, value: "", picture: name, caption: cupLabel(name) };
}

// -- Crabe vs Poulpe ---------------------------------------------------------------

const SPECIES = { pincer: "2", heal: "5", search: "10", blind: "2", capture: "5", mimic: "10" };
const EFFECT_OF_FACE = { alpha: "start", 1: "resist", 4: "offer", 7: "draw-and-discard", 8: "reverse" };

export const EFFECTS = {
  start: ["Start", "Only opens a round"],
  resist: ["Resist", "Cancels the effect just played"],
  offer: ["Offer", "Give a card to the opponent"],
  "draw-and-discard": ["Draw & discard", "Draw a card, then discard one"],
  reverse: ["Reverse", "The next card must be lower"],
  pincer: ["Pincer", "See their hand, send one card back to its draw pile"],
  heal: ["Heal", "Discard a card, then refill to 5"],
  search: ["Search", "Take any card of your draw pile"],
  blind: ["Blind", "Draw a card; plays on anything but Ω"],
  capture: ["Capture", "You may take the card beneath"],
  mimic: ["Mimic", "See their hand, copy one of its effects"],
};

export function cvpFace(name) {
  const dash = name.indexOf("-");
  const colour = name.slice(0, dash);
  const face = name.slice(dash + 1);
  const value = SPECIES[face] ?? (face === "alpha" ? "α" : face === "omega" ? "Ω" : face);
  const effect = SPECIES[face] ? face : EFFECT_OF_FACE[face] ?? null;
  return { colour, value, effect };
}

export function cvpLabel(name) {
  const { colour, value, effect } = cvpFace(name);
  const who = colour === "crab" ? "Crab" : "Octopus";
  return `${who} ${value}${effect ? ` (${EFFECTS[effect][0]})` : ""}`;
}

// -- both ----------------------------------------------------------------------------

// One card: a button when it can be chosen (onclick), else a plain face.
export function card(game, name, { onclick, selected, hint, target, small, key, changed, disabled, title } = {}) {
  const cvp = game === "crabe-vs-poulpe";
  const face = cvp ? cvpFace(name) : cupFace(name);
  const label = cvp ? cvpLabel(name) : cupLabel(name);
  const classes = ["card", cvp ? `cvp ${face.colour}` : `cup-card ${face.kind} v${face.value}`,
    selected && "selected", hint && "hint", target && "target", small && "small", changed && "changed",
    onclick && "choosable"].filter(Boolean).join(" ");
  const tip = title || (cvp ? (face.effect ? `${label}: ${EFFECTS[face.effect][1]}` : label) : `${label}${CUP_TEXT[name] ? `: ${CUP_TEXT[name]}` : ""}`);
  const inner = cvp ? cvpInner(face) : cupInner(face);
  const attrs = { class: classes, title: tip, "data-card": name, "aria-label": label, "data-key": key };
  if (onclick) return h("button", { ...attrs, type: "button", onclick, disabled, "aria-pressed": selected === undefined ? null : String(!!selected) }, inner);
  return h("div", { ...attrs, role: "img" }, inner);
}

function cupInner(face) {
  return [
    h("span.corner", {}, face.value),
    icon(face.picture),
    h("span.caption", {}, face.caption),
  ];
}

function cvpInner(face) {
  return [
    h("span.corner", {}, face.value),
    h("span.big", {}, face.value),
    icon(face.colour === "crab" ? "crab" : "octopus"),
    h("span.caption", {}, face.effect ? EFFECTS[face.effect][0] : ""),
  ];
}

export function cardBack(game, { small, key } = {}) {
  return h("div.card.back", { class: small ? "small" : "", "aria-hidden": "true", "data-key": key }, icon(game === "crabe-vs-poulpe" ? "octopus" : "crab"));
}
