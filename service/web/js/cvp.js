// Crabe vs Poulpe at the table: the round pile, the hands, and a prompt for every decision
// (a normal turn, a Resist window, each effect's choice) built from the listed legal moves.

import { h, moveKey } from "./dom.js";
import { card, cardBack, icon } from "./cards.js";
import { register } from "./game-registry.js";

// -- cards -------------------------------------------------------------------------

const SPECIES = { pincer: "2", heal: "5", search: "10", blind: "2", capture: "5", mimic: "10" };
const EFFECT_OF_FACE = { alpha: "start", 1: "resist", 4: "offer", 7: "draw-and-discard", 8: "reverse" };

// Each effect: its name, what the card does (said of whoever holds it), and what it does
// when the opponent plays it, said from the viewer's side.
// Each effect: its name, what the card does (said of whoever holds it), what it does when
// the opponent plays it and when the viewer does, said from the viewer's side.
const EFFECTS = {
  start: ["Start", "Only opens a round", "it only opens a round", "it only opens a round"],
  resist: ["Resist", "Played just after an effect, cancels it; else a plain 1", "it cancels the effect just played",
           "it cancels the effect just played"],
  offer: ["Offer", "Its player gives a card to the opponent", "they will give you a card of their hand",
          "you give a card of your hand to your opponent"],
  "draw-and-discard": ["Draw & discard", "Its player draws a card, then discards one", "they will draw a card, then discard one face down",
                       "you draw a card, then discard one face down"],
  reverse: ["Reverse", "The next card must be lower", "the next card must be lower", "the next card must be lower"],
  pincer: ["Pincer", "Its player sees the opponent's hand and sends one of its cards back to its draw pile",
           "they will see your hand and send one of your cards back to its draw pile",
           "you see their hand and send one of its cards back to its draw pile"],
  heal: ["Heal", "Its player discards a card, then refills to 5", "they will discard a card, then refill to 5",
         "you discard a card, then refill to 5"],
  search: ["Search", "Its player takes any card of their own draw pile", "they will take any card of their draw pile",
           "you take any card of your draw pile"],
  blind: ["Blind", "Its player draws a card; plays on anything but Ω", "they draw a card", "you draw a card"],
  capture: ["Capture", "Its player may take the card beneath", "they may take the card beneath into their hand",
            "you may take the card beneath into your hand"],
  mimic: ["Mimic", "Its player sees the opponent's hand and may copy one of its effects",
          "they will see your hand and may copy one of its effects", "you see their hand and may copy one of its effects"],
};
// The effects a response window opens for (docs/rules.md, P3): the others cannot be resisted.
const CANCELLABLE = new Set(["pincer", "heal", "search", "capture", "mimic", "draw-and-discard", "offer", "reverse"]);

function cvpFace(name) {
  const dash = name.indexOf("-");
  const colour = name.slice(0, dash);
  const face = name.slice(dash + 1);
  const value = SPECIES[face] ?? (face === "alpha" ? "α" : face === "omega" ? "Ω" : face);
  const effect = SPECIES[face] ? face : EFFECT_OF_FACE[face] ?? null;
  return { colour, value, effect };
}

// A card in words: "Crab 8 (Reverse)". A 1 is a Resist only when used as one: played in a
// normal turn it is a plain 1 (plain: true).
function cvpLabel(name, { plain = false } = {}) {
  const { colour, value, effect } = cvpFace(name);
  const who = colour === "crab" ? "Crab" : "Octopus";
  const shown = effect && !(plain && effect === "resist");
  return `${who} ${value}${shown ? ` (${EFFECTS[effect][0]})` : ""}`;
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
    h("div.score", { title: "hand + draw pile: the first to run out wins" }, h("b", {}, s.hand_size + s.draw_size), s.hand_size + s.draw_size === 1 ? " card left" : " cards left"),
    h("div.counts", {},
      h("span.kind", { class: s.colour, title: `plays the ${COLOUR[s.colour]} colour` }, icon(s.colour), s.colour === "crab" ? "Crab" : "Octopus"),
      h("span", { title: "cards in hand" }, `${s.hand_size} in hand`),
      h("span", { title: "cards in draw pile" }, `${s.draw_size} to draw`)),
    h("div.sub", {}, ctx.view.last_player === seat && ctx.view.pile.length ? "played the top card" : ctx.view.opener === seat ? "opened this round" : "\u00a0"),
  ];
}

// A draw pile: face down, its animal on its back, its size on it.
function deck(size, label, colour) {
  return h("div.deck", { class: size ? "" : "empty", role: "img", "aria-label": `${label}: ${size} cards`, title: `${label}: ${size} cards` },
    size ? cardBack(colour, { small: true }) : h("div.card.small.placeholder", {}), h("span.deck-count", {}, size));
}

// -- board -------------------------------------------------------------------------

function rule(view) {
  const top = view.pile[view.pile.length - 1];
  if (!top) return "Empty pile: the opener plays any card";
  const value = cvpFace(top).value;
  if (view.lower) return `Reverse: the next card must be lower than ${value}`;
  if (value === "Ω") return "Nothing can follow Ω: the next player can only pass";
  return `Next card must be higher than ${value}`;
}

function board(ctx) {
  const { view } = ctx;
  const opponent = 1 - (ctx.you ?? 0);
  const other = view.seats[opponent];
  return h("div.cvp-board", {},
    h("div.opponent-hand", { "aria-label": `${ctx.name(opponent)}'s hand: ${other.hand_size} cards` },
      deck(other.draw_size, `${possessive(ctx.name(opponent))} draw pile`, other.colour),
      h("div.fan", {}, Array.from({ length: other.hand_size }, (_, i) => cardBack(other.colour, { small: true, key: `ob-${i}` }))),
      h("span.row-label", {}, `${ctx.name(opponent)}: ${other.hand_size} in hand, ${other.draw_size} to draw`)),
    pileArea(ctx, view));
}

// The round pile (its last eight cards, the count of the others) and what it asks for.
function pileArea(ctx, view) {
  const pile = view.pile;
  const shown = pile.slice(-8);
  const pending = view.pending;
  return h("div.pile-area", {},
    h("div.pile", { class: ctx.changed.has("pile") ? "changed" : "", "aria-label": `Round pile, ${pile.length} cards` },
      pile.length > shown.length ? h("span.more", {}, `+${pile.length - shown.length}`) : null,
      shown.map((name, i) => card(look, name, { key: `p${pile.length - shown.length + i}`,
        small: i < shown.length - 1, changed: i === shown.length - 1 && ctx.changed.has("pile") })),
      pile.length ? null : h("div.card.placeholder", {}, "pile")),
    h("div.pile-notes", {},
      h("div.rule", { class: view.lower ? "lower" : "" }, rule(view)),
      pending ? h("div.pending", {}, pendingText(ctx, pending)) : h("div.pending.none", {}, "\u00a0"),
      h("div.discard", {}, `Round ${view.round} · ${view.discard_size} discarded`)));
}

// -- a replay: the complete position, every card face up -----------------------------

function replayBoard(ctx, position) {
  return h("div.cvp-board", {}, pileArea(ctx, { ...position, pending: null, discard_size: position.discard.length }));
}

function replaySeat(ctx, position, seat) {
  const { hand, draw_pile: drawPile } = position.seats[seat];
  const colour = ctx.view.seats[seat].colour;
  const row = (cards, label, key) => h("div.zone", { class: key, "aria-label": `${label}: ${cards.length} cards` },
    h("span.row-label", {}, `${label}: ${cards.length}`),
    h("div.cards", {}, cards.map((name, i) => card(look, name, { small: true, key: `${key}-${seat}-${i}` }))));
  return [h("div.kind", {}, icon(colour), ` plays ${COLOUR[colour]}`),
    row(hand, "Hand", "in-hand"), row(drawPile, "Draw pile, top first", "in-draw")];
}

// The effect waiting or resolving, said from the viewer's side.
function pendingText(ctx, pending) {
  const [, card, theirs, mine] = EFFECTS[pending.effect];
  const words = ctx.you === null ? card.toLowerCase() : pending.seat === ctx.you ? mine : theirs;
  return `${possessive(ctx.name(pending.seat))} ${cvpLabel(pending.card)}: ${words}`;
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
    h("div.tray-actions", {}, deck(view.seats[ctx.you].draw_size, "Your draw pile", view.seats[ctx.you].colour),
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
  const top = view.pile[view.pile.length - 1];
  switch (view.phase) {
    case "turn": return !view.pile.length ? "You open the round: play any card."
      : !view.lower && cvpFace(top).value === "Ω" ? `Nothing can follow Ω: pass, and ${ctx.name(view.last_player)} wins the round.`
      : `Your turn: play a card ${view.lower ? "lower" : "higher"} than the top card, or pass (${ctx.name(view.last_player)} then wins the round).`;
    case "response": return `${opponent} played ${cvpLabel(pending.card)}: ${EFFECTS[pending.effect][2]}. Resist with a 1 to cancel it, or let it happen.`;
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
    case "play": return `play ${cvpLabel(move.card)}`;
    case "pass": return "pass";
    default: return move.type;
  }
}

// The log's sentences: each move as it mattered then. It follows the effect in play (so
// that a decline says what it declined and a 1 says whether it resisted), who put the top
// card (the round's winner at a pass) and the round.
function narrator(ctx) {
  let pending = null;      // { seat, card, effect } of the effect in play
  let windowOpen = false;  // the move just before opened a response window
  let top = null;          // who put the top card on the pile
  let round = 1;
  const your = (seat) => (seat === ctx.you ? "your" : "their");
  const wins = (seat) => (seat === ctx.you ? "you win" : `${ctx.name(seat)} wins`);
  const owner = (effect) => `${effect.seat === ctx.you ? "your" : `${ctx.name(effect.seat)}'s`} ${cvpLabel(effect.card)}`;
  return (entry) => {
    const { move, seat } = entry;
    const opened = windowOpen;
    windowOpen = false;
    let text = tell(move, seat, opened);
    const over = ctx.body.status === "over" && ctx.body.result?.reason === "finished" && entry.version === ctx.body.version;
    if (over) text += `: ${wins(seat)} the game`;
    return text;
  };

  function tell(move, seat, opened) {
    switch (move.type) {
      case "play": {
        const effect = cvpFace(move.card).effect;
        if (opened && effect === "resist" && pending && seat !== pending.seat) {
          const cancelled = owner(pending);
          pending = null;
          top = seat;
          return `resisted with ${cvpLabel(move.card, { plain: true })}: ${cancelled} is cancelled`;
        }
        top = seat;
        pending = CANCELLABLE.has(effect) ? { seat, card: move.card, effect } : null;
        windowOpen = !!pending;
        if (effect === "blind") return `played ${cvpLabel(move.card)} and drew a card`;
        return `played ${cvpLabel(move.card, { plain: true })}`;
      }
      case "pass": {
        const text = top === null ? "passed" : `passed: ${wins(top)} round ${round}`;
        round += 1;
        top = null;
        pending = null;
        return text;
      }
      case "decline": {
        const was = pending;
        if (opened && was && seat !== was.seat) {
          if (was.effect === "reverse") pending = null;  // nothing left to choose
          return `did not Resist ${owner(was)}`;
        }
        pending = null;
        if (was?.effect === "capture") return "left the card beneath (Capture)";
        if (was?.effect === "mimic") return "copied nothing (Mimic)";
        return "declined";
      }
      case "capture":
        pending = null;
        return `took the card beneath into ${your(seat)} hand (Capture)`;
      case "copy":
        pending = { seat, card: pending?.card, effect: move.effect };
        if (move.effect === "reverse" || move.effect === "blind") pending = null;
        return `copied ${effectName(move.effect)} (Mimic)${move.effect === "blind" ? " and drew a card" : ""}`;
      case "pincer": {
        pending = null;
        const victim = ctx.name(1 - seat);
        const whose = 1 - seat === ctx.you ? "your" : `${victim}'s`;
        const pile = move.card ? (cvpFace(move.card).colour === "crab" ? "the Crab" : "the Octopus") : "its";
        return move.card ? `sent ${whose} ${cvpLabel(move.card)} back to ${pile} draw pile (Pincer)` : `sent one of ${whose} cards back to its draw pile (Pincer)`;
      }
      case "discard": {
        const heal = pending?.effect === "heal";
        pending = null;
        const what = move.card ? cvpLabel(move.card) : "a card";
        return `discarded ${what} face down${heal ? " and refilled to 5 (Heal)" : " (Draw & discard)"}`;
      }
      case "search":
        pending = null;
        return `took ${move.card ? cvpLabel(move.card) : "a card"} from ${your(seat)} draw pile (Search)`;
      case "give": {
        pending = null;
        const to = 1 - seat === ctx.you ? "you" : ctx.name(1 - seat);
        return move.card ? `gave ${cvpLabel(move.card)} to ${to} (Offer)` : `gave ${to} a card (Offer)`;
      }
      default: return move.type;
    }
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
  back: (view, seat) => view.seats[seat].colour,
  rounds: null,
  seatInfo, board, hand, prompt, choices, narrator, applyHint, changes, resultColumns, replayBoard, replaySeat,
});
