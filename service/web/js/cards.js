// A card drawn as a card: each game says what is on it (its value, picture and words),
// this module draws the card around it; and the pictures cards and tiles are made of.

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

// One card: a button when it can be chosen (onclick), else a plain face. `look(name)` is
// the game's drawing of it: { label, classes, tip, inner } (each game's module gives it).
export function card(look, name, { onclick, selected, hint, target, small, key, changed, disabled, title } = {}) {
  const drawn = look(name);
  const classes = ["card", drawn.classes,
    selected && "selected", hint && "hint", target && "target", small && "small", changed && "changed",
    onclick && "choosable"].filter(Boolean).join(" ");
  const attrs = { class: classes, title: title || drawn.tip, "data-card": name, "data-key": key };
  // The face is drawn for the eyes; its name, in words, is what a screen reader reads (and
  // the accessible name holds all the text it shows: no label over different words).
  const face = [h("span.face", { "aria-hidden": "true" }, drawn.inner), h("span.sr-only", {}, drawn.label)];
  if (onclick) return h("button", { ...attrs, type: "button", onclick, disabled, "aria-pressed": selected === undefined ? null : String(!!selected) }, face);
  return h("div", { ...attrs, role: "img", "aria-label": drawn.label }, drawn.inner);
}

// A face-down card showing `picture` (each game registers its own, game-registry.js).
export function cardBack(picture, { small, key } = {}) {
  return h("div.card.back", { class: [picture, small && "small"].filter(Boolean).join(" "), "aria-hidden": "true", "data-key": key }, icon(picture));
}
