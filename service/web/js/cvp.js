// Crabe vs Poulpe at the table: the round pile, the hands, and a prompt for every decision
// (a normal turn, a Resist window, each effect's choice) built from the listed legal moves.

import { h, moveKey } from "./dom.js";
import { card, cardBack, icon } from "./cards.js";
import { register } from "./game-registry.js";

const BACK = "octopus";
// -- cards -------------------------------------------------------------------------

const SPECIES = { pincer: "2", heal: "5", search: "10", blind: "2", capture: "5", mimic: "10" };
const EFFECT_OF_FACE = { alpha: "start", 1: "resist", 4: "offer", 7: "draw-and-discard", 8: "reverse" };

const EFFECTS = {
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

function cvpFace(name) {
  const dash = name.indexOf("-");
  const colour = name.slice(0, dash);
  const face = name.slice(dash + 1);
  const value = SPECIES[face] ?? (face === "alpha" ? "α" : face === "omega" ? "Ω" : face);
  const effect = SPECIES[face] ? face : EFFECT_OF_FACE[face] ?? null;
  return { colour, value, effect };
}

function cvpLabel(name) {
  const { colour, value, effect } = cvpFace(name);
  const who = colour === "crab" ? "Crab" : "Octopus";
  return `${who} ${value}${effect ? ` (${EFFECTS[effect][0]})` : ""}`;
}

// A card's drawing (cards.js draws the card around it).
function look(name) {
  const face = cvpFace(name);
  const label = cvpLabel(name);
  return {
    label,
    classes: `cvp ${face.colour}`,
    tip: face.effect ? `${label}: ${EFFECTS[face.effect][1]}` : label,
    inner: [
      h("span.corner", {}, face.value),
      h("span.big", {}, face.value),
      icon(face.colour === "crab" ? "crab" : "octopus"),
      h("span.caption", {}, face.effect ? EFFECTS[face.effect][0] : ""),
    ],
  };
}

const HAND_MOVES = new Set(["play", "discard", "give"]);
const COLOUR = { crab: "Crab (blue)", octopus: "Octopus (red)" };

const possessive = (name) => (name === "You" ? "Your" : `${name}'s`);
const effectName = (effect) => EFFECTS[effect]?.[0] || effect;
const isHint = (ctx, move) => !!ctx.ui.hint && moveKey(ctx.ui.hint) === moveKey(move);

// -- seats -------------------------------------------------------------------------

function seatInfo(ctx, seat) {
  const s = ctx.view.seats[seat];
  return [
    h("div.score", { title: "hand + draw pile: the first to run out wins" }, h("b", {}, s.hand_size + s.draw_size), " cards left"),
    h("div.counts", {},
      h("span.kind", { class: s.colour, title: `plays the ${COLOUR[s.colour]} colour` }, icon(s.colour), s.colour === "crab" ? "Crab" : "Octopus"),
      h("span", { title: "cards in hand" }, `${s.hand_size} in hand`),
      h("span", { title: "cards in draw pile" }, `${s.draw_size} to draw`)),
    h("div.sub", {}, ctx.view.last_player === seat && ctx.view.pile.length ? "played the top card" : ctx.view.opener === seat ? "opened this round" : "\u00a0"),
  ];
}

// A draw pile: face down, its size on it.
function deck(size, label) {
  return h("div.deck", { class: size ? "" : "empty", "aria-label": `${label}: ${size} cards`, title: `${label}: ${size} cards` },
    size ? cardBack(BACK, { small: true }) : h("div.card.small.placeholder", {}), h("span.deck-count", {}, size));
}

// -- board -------------------------------------------------------------------------

function rule(view) {
  const top = view.pile[view.pile.length - 1];
  if (!top) return "Empty pile: the opener plays any card";
  const value = cvpFace(top).value;
  return view.lower ? `Reverse: the next card must be lower than ${value}` : `Next card must be higher than ${value}`;
}

function board(ctx) {
  const { view } = ctx;
  const opponent = 1 - (ctx.you ?? 0);
  const other = view.seats[opponent];
  const pile = view.pile;
  const shown = pile.slice(-8);
  const pending = view.pending;
  return h("div.cvp-board", {},
    h("div.opponent-hand", { "aria-label": `${ctx.name(opponent)}'s hand: ${other.hand_size} cards` },
      deck(other.draw_size, `${possessive(ctx.name(opponent))} draw pile`),
      h("div.fan", {}, Array.from({ length: other.hand_size }, (_, i) => cardBack(BACK, { small: true, key: `ob-${i}` }))),
      h("span.row-label", {}, `${ctx.name(opponent)}: ${other.hand_size} in hand, ${other.draw_size} to draw`)),
    h("div.pile-area", {},
      h("div.pile", { class: ctx.changed.has("pile") ? "changed" : "", "aria-label": `Round pile, ${pile.length} cards` },
        pile.length > shown.length ? h("span.more", {}, `+${pile.length - shown.length}`) : null,
        shown.map((name, i) => card(look, name, { key: `p${pile.length - shown.length + i}`,
          small: i < shown.length - 1, changed: i === shown.length - 1 && ctx.changed.has("pile") })),
        pile.length ? null : h("div.card.placeholder", {}, "pile")),
      h("div.pile-notes", {},
        h("div.rule", { class: view.lower ? "lower" : "" }, rule(view)),
        pending ? h("div.pending", {}, `${possessive(ctx.name(pending.seat))} ${cvpLabel(pending.card)}: ${effectName(pending.effect)}`) : h("div.pending.none", {}, "\u00a0"),
        h("div.discard", {}, `Round ${view.round} · ${view.discard_size} discarded`))));
}

// -- the player's cards ------------------------------------------------------------

function hand(ctx) {
  const { view } = ctx;
  if (!view.hand) return h("p.spectator", {}, "You are watching this game.");
  const byCard = new Map(ctx.legal.filter((m) => HAND_MOVES.has(m.type)).map((m) => [m.card, m]));
  return h("div.tray.cvp-hand", { "aria-label": "Your hand" },
    h("div.cards", {}, view.hand.map((name, i) => {
      const move = byCard.get(name);
      return card(look, name, { key: `h-${i}-${name}`, onclick: move ? () => ctx.send(move) : null,
        hint: move && isHint(ctx, move), title: move ? `${cvpLabel(name)}: ${verb(move)}` : undefined });
    }), view.hand.length ? null : h("div.card.placeholder", {}, "empty")),
    h("div.tray-actions", {}, deck(view.seats[ctx.you].draw_size, "Your draw pile"),
      h("span.row-label", {}, `You play ${COLOUR[view.seats[ctx.you].colour]}: ${view.seats[ctx.you].draw_size} to draw`)));
}

function verb(move) {
  return { play: "play it", discard: "discard it face down", give: "give it" }[move.type] || move.type;
}

// -- the prompt: words and the choices that are not a card of the hand ---------------

function prompt(ctx) {
  const { view } = ctx;
  if (view.phase === "over") return "The game is over.";
  const mover = view.to_move[0];
  if (!ctx.legal.length) return `${ctx.name(mover)} ${waitingText(view)}…`;
  const pending = view.pending;
  const opponent = ctx.name(1 - ctx.you);
  switch (view.phase) {
    case "turn": return view.pile.length
      ? `Your turn: play a card ${view.lower ? "lower" : "higher"} than the top card, or pass (${ctx.name(view.last_player)} then wins the round).`
      : "You open the round: play any card.";
    case "response": return `${opponent} played ${cvpLabel(pending.card)}: ${EFFECTS[pending.effect][1]}. Resist with a 1 to cancel it, or let it happen.`;
    case "pincer": return "Pincer: here is their hand. Pick the card to send back to its draw pile.";
    case "heal": return "Heal: discard a card of your hand face down, then you refill to 5.";
    case "search": return "Search: here is your draw pile. Take one card into your hand.";
    case "capture": return "Capture: take the card beneath into your hand?";
    case "mimic": return "Mimic: here is their hand. Copy one of its effects?";
    case "discard": return "Draw and discard: discard a card of your hand face down.";
    case "offer": return `Offer: pick a card of your hand to give to ${opponent}.`;
    default: return "Your move.";
  }
}

function waitingText(view) {
  return {
    turn: view.pile.length ? "is thinking" : "opens the round", response: "decides whether to Resist",
    pincer: "picks a card from your hand", heal: "discards a card", search: "searches their draw pile",
    capture: "decides whether to capture", mimic: "looks at your hand (Mimic)", discard: "discards a card",
    offer: "chooses a card to give you",
  }[view.phase] || "is playing";
}

// Choices shown beside the prompt: revealed cards, the draw pile, and the word moves.
function choices(ctx) {
  const { view } = ctx;
  const items = [];
  const zone = (cards, type, label) => {
    const byCard = new Map(ctx.legal.filter((m) => m.type === type).map((m) => [m.card, m]));
    items.push(h("div.zone", { "aria-label": label }, h("span.row-label", {}, label),
      h("div.cards", {}, cards.map((name, i) => {
        const move = byCard.get(name);
        return card(look, name, { small: true, key: `${type}-${i}-${name}`, onclick: move ? () => ctx.send(move) : null, hint: move && isHint(ctx, move) });
      }))));
  };
  if (view.revealed) zone(view.revealed, "pincer", "Their hand");
  if (view.draw_pile) zone(view.draw_pile, "search", "Your draw pile");
  const words = ctx.legal.filter((m) => !HAND_MOVES.has(m.type) && m.type !== "pincer" && m.type !== "search");
  if (view.phase === "response") {
    for (const m of ctx.legal.filter((m) => m.type === "play")) words.unshift(m);
  }
  const buttons = words.map((move) => h("button.move", { type: "button", class: [move.type === "decline" || move.type === "pass" ? "ghost" : "primary", isHint(ctx, move) && "hint"].join(" "),
    "data-key": `w-${moveKey(move)}`, onclick: () => ctx.send(move) }, buttonText(ctx, move)));
  if (buttons.length) items.push(h("div.word-moves", {}, buttons));
  return items;
}

function buttonText(ctx, move) {
  const { view } = ctx;
  switch (move.type) {
    case "pass": return `Pass: ${ctx.name(view.last_player)} wins the round`;
    case "decline": return { response: "Let it happen", capture: "Leave it", mimic: "Copy nothing" }[view.phase] || "Decline";
    case "capture": return `Take ${cvpLabel(view.pile[view.pile.length - 2])}`;
    case "copy": return `Copy ${effectName(move.effect)}`;
    case "play": return `Resist with ${cvpLabel(move.card)}`;
    default: return describeMove(move);
  }
}

function describeMove(move) {
  switch (move.type) {
    case "play": return `played ${cvpLabel(move.card)}`;
    case "pass": return "passed";
    case "decline": return "declined";
    case "capture": return "took the card beneath";
    case "pincer": return move.card ? `sent ${cvpLabel(move.card)} back (Pincer)` : "sent a card back (Pincer)";
    case "discard": return move.card ? `discarded ${cvpLabel(move.card)}` : "discarded a card face down";
    case "search": return move.card ? `took ${cvpLabel(move.card)} from the draw pile` : "took a card from the draw pile";
    case "give": return move.card ? `gave ${cvpLabel(move.card)}` : "gave a card";
    case "copy": return `copied ${effectName(move.effect)}`;
    default: return move.type;
  }
}

function applyHint(ctx, move) {
  return { hint: move };
}

function changes(before, after) {
  const changed = new Set();
  if (!before) return changed;
  if (JSON.stringify(before.pile) !== JSON.stringify(after.pile)) changed.add("pile");
  after.seats.forEach((s, seat) => {
    if (JSON.stringify(s) !== JSON.stringify(before.seats[seat])) changed.add(`seat-${seat}`);
  });
  return changed;
}

function resultColumns(result, seat) {
  return [["Cards left", result.cards_left[seat]]];
}

// The deck of a new game: the option the API takes as "mode".
function deckForm(chosen, choose) {
  return h("fieldset.options", {}, h("legend", {}, "Deck"),
    h("div.segmented", {}, [["symmetrical", "Classic: 24 cards each"], ["asymmetrical", "With species cards: 27 each"]].map(([mode, text]) =>
      h("label", { class: chosen.mode === mode ? "chosen" : "" },
        h("input", { type: "radio", name: "mode", value: mode, checked: chosen.mode === mode, onchange: () => choose({ mode }) }), text))));
}

register({
  name: "crabe-vs-poulpe",
  title: "Crabe vs Poulpe",
  description: "A duel. Climb the pile with higher cards, use effects, Resist your opponent's. Empty your hand and draw pile first.",
  icon: "octopus",
  players: [2, 2],
  options: { defaults: { mode: "symmetrical" }, form: deckForm },
  back: BACK,
  rounds: null,
  seatInfo, board, hand, prompt, choices, describeMove, applyHint, changes, resultColumns,
});
