// Crabe vs Poulpe at the table: the round pile, the hands, and a prompt for every decision
// (a normal turn, a Resist window, each effect's choice) built from the listed legal moves.

import { h, moveKey } from "./dom.js";
import { card, cardBack, icon } from "./cards.js";
import { register } from "./game-registry.js";
import { addFrench, addFrenchOfSeat } from "./french.js";
import { labelled, plural, t } from "./i18n.js";
import { say } from "./log.js";

// -- cards -------------------------------------------------------------------------

const SPECIES = { pincer: "2", heal: "5", search: "10", blind: "2", capture: "5", mimic: "10" };
const EFFECT_OF_FACE = { alpha: "start", 1: "resist", 4: "offer", 7: "draw-and-discard", 8: "reverse" };

// Each effect: its name (the rulebook's), what the card does (said of whoever holds it),
// what it does when the opponent plays it and when the viewer does, from the viewer's side.
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

const ANIMAL = { crab: "Crab|cvp", octopus: "Octopus|cvp" };
const COLOUR = { crab: "Crab (blue)", octopus: "Octopus (red)" };
const effectName = (effect) => t(EFFECTS[effect]?.[0] || effect);

// A card in words: "Crab 8 (Reverse)". A 1 is a Resist only when used as one: played in a
// normal turn it is a plain 1 (plain: true). A card moved by an effect (discarded, given,
// searched, sent back) is named without its own effect (bare: true), which is not in play.
function cvpLabel(name, { plain = false, bare = false } = {}) {
  const { colour, value, effect } = cvpFace(name);
  const shown = effect && !bare && !(plain && effect === "resist");
  return `${t(ANIMAL[colour])} ${value}${shown ? ` (${effectName(effect)})` : ""}`;
}

// A card's drawing (cards.js draws the card around it).
function look(name) {
  const face = cvpFace(name);
  const label = cvpLabel(name);
  return {
    label,
    classes: `cvp ${face.colour}`,
    tip: face.effect ? labelled(label, t(EFFECTS[face.effect][1])) : label,
    inner: [
      h("span.corner", {}, face.value),
      h("span.big", {}, face.value),
      icon(face.colour === "crab" ? "crab" : "octopus"),
      h("span.caption", {}, face.effect ? effectName(face.effect) : ""),
    ],
  };
}

const HAND_MOVES = new Set(["play", "discard", "give"]);
const isHint = (ctx, move) => !!ctx.ui.hint && moveKey(ctx.ui.hint) === moveKey(move);

// A seat's card in words: "your Crab 8 (Reverse)", "Bo's Crab 8 (Reverse)".
function owned(ctx, seat, name, options = {}) {
  const card = cvpLabel(name, options);
  return seat === ctx.you ? t("your {card}", { card }) : t("{who}'s {card}", { who: ctx.name(seat), card });
}

// -- seats -------------------------------------------------------------------------

function seatInfo(ctx, seat) {
  const s = ctx.view.seats[seat];
  return [
    h("div.score", { title: t("hand + draw pile: the first to run out wins") }, h("b", {}, s.hand_size + s.draw_size), " ",
      plural(s.hand_size + s.draw_size, "card left", "cards left")),
    h("div.counts", {},
      h("span.kind", { class: s.colour, title: t("plays the {colour} colour", { colour: t(COLOUR[s.colour]) }) }, icon(s.colour), t(ANIMAL[s.colour])),
      h("span", { title: t("cards in hand") }, t("{n} in hand", { n: s.hand_size })),
      h("span", { title: t("cards in draw pile") }, t("{n} to draw", { n: s.draw_size }))),
    h("div.sub", {}, ctx.view.last_player === seat && ctx.view.pile.length ? t("played the top card") : ctx.view.opener === seat ? t("opened this round") : "\u00a0"),
  ];
}

// A draw pile: face down, its animal on its back, its size on it.
function deck(size, label, colour) {
  const said = labelled(label, plural(size, "{n} card", "{n} cards"));
  return h("div.deck", { class: size ? "" : "empty", role: "img", "aria-label": said, title: said },
    size ? cardBack(colour, { small: true }) : h("div.card.small.placeholder", {}), h("span.deck-count", {}, size));
}

// -- board -------------------------------------------------------------------------

function rule(view) {
  if (view.phase === "over") return "";  // nothing follows the last card
  const top = view.pile[view.pile.length - 1];
  if (!top) return t("Empty pile: the opener plays any card");
  const value = cvpFace(top).value;
  if (view.lower) return t("Reverse: the next card must be lower than {value}", { value });
  // A Reverse in its Resist window turns the order only if it is let happen.
  if (view.pending?.effect === "reverse") return t("Reverse, unless resisted: the next card must be lower than {value}", { value });
  if (value === "Ω") return t("Nothing can follow Ω: the next player can only pass");
  return t("Next card must be higher than {value}", { value });
}

function board(ctx) {
  const { view } = ctx;
  const opponent = 1 - (ctx.you ?? 0);
  const other = view.seats[opponent];
  return h("div.cvp-board", {},
    h("div.opponent-hand", { "aria-label": t("{who}'s hand: {n} cards", { who: ctx.name(opponent), n: other.hand_size }) },
      deck(other.draw_size, t("{who}'s draw pile", { who: ctx.name(opponent) }), other.colour),
      h("div.fan", {}, Array.from({ length: other.hand_size }, (_, i) => cardBack(other.colour, { small: true, key: `ob-${i}` }))),
      h("span.row-label", {}, t("{who}: {hand} in hand, {draw} to draw", { who: ctx.name(opponent), hand: other.hand_size, draw: other.draw_size }))),
    pileArea(ctx, view));
}

// The round pile (its last eight cards, the count of the others) and what it asks for.
function pileArea(ctx, view) {
  const pile = view.pile;
  const shown = pile.slice(-8);
  const pending = view.pending;
  return h("div.pile-area", {},
    h("div.pile", { class: ctx.changed.has("pile") ? "changed" : "", "aria-label": t("Round pile, {n} cards", { n: pile.length }) },
      pile.length > shown.length ? h("span.more", {}, `+${pile.length - shown.length}`) : null,
      shown.map((name, i) => card(look, name, { key: `p${pile.length - shown.length + i}`,
        small: i < shown.length - 1, changed: i === shown.length - 1 && ctx.changed.has("pile") })),
      pile.length ? null : h("div.card.placeholder", {}, t("pile"))),
    h("div.pile-notes", {},
      h("div.rule", { class: view.lower ? "lower" : "" }, rule(view)),
      pending ? h("div.pending", {}, pendingText(ctx, pending)) : h("div.pending.none", {}, "\u00a0"),
      h("div.discard", {}, t("Round {round} · {n} discarded", { round: view.round, n: view.discard_size }))));
}

// -- a replay: the complete position, every card face up -----------------------------

function replayBoard(ctx, position) {
  return h("div.cvp-board", {}, pileArea(ctx, { ...position, pending: positionPending(position), discard_size: position.discard.length }));
}

// The effect waiting or resolving at a complete position, as a view's `pending` says it
// (docs/rules.md): in a Resist window the top card's own effect, in an effect's phase that
// effect (a Mimic resolves the effect it copied), with the player of the top card.
const PHASE_EFFECT = { pincer: "pincer", heal: "heal", search: "search", capture: "capture", mimic: "mimic",
  discard: "draw-and-discard", offer: "offer" };

function positionPending(position) {
  const top = position.pile[position.pile.length - 1];
  if (!top || position.phase === "turn" || position.phase === "over") return null;
  const effect = position.phase === "response" ? cvpFace(top).effect : PHASE_EFFECT[position.phase];
  return { card: top, effect, seat: position.last_player };
}

function replaySeat(ctx, position, seat) {
  const { hand, draw_pile: drawPile } = position.seats[seat];
  const colour = ctx.view.seats[seat].colour;
  const row = (cards, label, key) => h("div.zone", { class: key, "aria-label": labelled(t(label), cards.length) },
    h("span.row-label", {}, labelled(t(label), cards.length)),
    h("div.cards", {}, cards.map((name, i) => card(look, name, { small: true, key: `${key}-${seat}-${i}` }))));
  return [h("div.kind", {}, icon(colour), " ", t("plays {colour}", { colour: t(COLOUR[colour]) })),
    row(hand, "Hand", "in-hand"), row(drawPile, "Draw pile, top first", "in-draw")];
}

// The effect waiting or resolving, said from the viewer's side.
function pendingText(ctx, pending) {
  const [, card, theirs, mine] = EFFECTS[pending.effect];
  const words = t(ctx.you === null ? card : pending.seat === ctx.you ? mine : theirs);
  const whose = owned(ctx, pending.seat, pending.card);
  return labelled(`${whose.charAt(0).toUpperCase()}${whose.slice(1)}`, words);
}

// -- the player's cards ------------------------------------------------------------

function hand(ctx) {
  const { view } = ctx;
  if (!view.hand) return h("p.spectator", {}, t("You are watching this game."));
  const byCard = new Map(ctx.legal.filter((m) => HAND_MOVES.has(m.type)).map((m) => [m.card, m]));
  return h("div.tray.cvp-hand", { "aria-label": t("Your hand") },
    h("div.cards", {}, view.hand.map((name, i) => {
      const move = byCard.get(name);
      return card(look, name, { key: `h-${i}-${name}`, onclick: move ? () => ctx.send(move) : null,
        hint: move && isHint(ctx, move), title: move ? labelled(cvpLabel(name), verb(move)) : undefined });
    }), view.hand.length ? null : h("div.card.placeholder", {}, t("empty"))),
    h("div.tray-actions", {}, deck(view.seats[ctx.you].draw_size, t("Your draw pile"), view.seats[ctx.you].colour),
      h("span.row-label", {}, t("You play {colour}: {n} to draw", { colour: t(COLOUR[view.seats[ctx.you].colour]), n: view.seats[ctx.you].draw_size }))));
}

function verb(move) {
  return t({ play: "play it", discard: "discard it face down", give: "give it" }[move.type] || move.type);
}

// -- the prompt: words and the choices that are not a card of the hand ---------------

function prompt(ctx) {
  const { view } = ctx;
  if (view.phase === "over") return t("The game is over.");
  const mover = view.to_move[0];
  if (!ctx.legal.length) return t(waitingText(view), { who: ctx.name(mover) });
  const pending = view.pending;
  const opponent = ctx.name(1 - ctx.you);
  const top = view.pile[view.pile.length - 1];
  switch (view.phase) {
    case "turn": return !view.pile.length ? t("You open the round: play any card.")
      : !view.lower && cvpFace(top).value === "Ω" ? t("Nothing can follow Ω: pass, and {who} wins the round.", { who: ctx.name(view.last_player) })
      : t(view.lower ? "Your turn: play a card lower than the top card, or pass ({who} then wins the round)."
        : "Your turn: play a card higher than the top card, or pass ({who} then wins the round).", { who: ctx.name(view.last_player) });
    // The window opens whatever the hand holds (opening it only for a 1 would tell), and
    // says so when there is no 1 to Resist with.
    case "response": return t(ctx.legal.some((m) => m.type === "play")
      ? "{who} played {card}: {effect}. Resist with a 1 to cancel it, or let it happen."
      : "{who} played {card}: {effect}. You hold no 1 to Resist with: let it happen.",
    { who: opponent, card: cvpLabel(pending.card), effect: t(EFFECTS[pending.effect][2]) });
    case "pincer": return t("Pincer: here is their hand. Pick the card to send back to its draw pile.");
    case "heal": return t("Heal: discard a card of your hand face down, then you refill to 5.");
    case "search": return t("Search: here is your draw pile. Take one card into your hand.");
    case "capture": return t("Capture: take the card beneath into your hand?");
    case "mimic": return t("Mimic: here is their hand. Copy one of its effects?");
    case "discard": return t("Draw and discard: discard a card of your hand face down.");
    case "offer": return t("Offer: pick a card of your hand to give to {who}.", { who: opponent });
    default: return t("Your move.");
  }
}

function waitingText(view) {
  return {
    turn: view.pile.length ? "{who} is thinking…" : "{who} opens the round…", response: "{who} decides whether to Resist…",
    pincer: "{who} picks a card from your hand…", heal: "{who} discards a card…", search: "{who} searches their draw pile…",
    capture: "{who} decides whether to capture…", mimic: "{who} looks at your hand (Mimic)…", discard: "{who} discards a card…",
    offer: "{who} chooses a card to give you…",
  }[view.phase] || "{who} is playing…";
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
  if (view.revealed) zone(view.revealed, "pincer", t("Their hand"));
  if (view.draw_pile) zone(view.draw_pile, "search", t("Your draw pile"));
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
    case "pass": return t("Pass: {who} wins the round", { who: ctx.name(view.last_player) });
    case "decline": return t({ response: "Let it happen", capture: "Leave it", mimic: "Copy nothing" }[view.phase] || "Decline");
    case "capture": return t("Take {card}", { card: cvpLabel(view.pile[view.pile.length - 2]) });
    case "copy": return t("Copy {effect}", { effect: effectName(move.effect) });
    case "play": return t("Resist with {card}", { card: cvpLabel(move.card) });
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
  return (entry) => {
    const { move, seat } = entry;
    const opened = windowOpen;
    windowOpen = false;
    const text = tell(move, seat, opened);
    const over = ctx.body.status === "over" && ctx.body.result?.reason === "finished" && entry.version === ctx.body.version;
    if (!over) return text;
    return seat === ctx.you ? t("{what}: you win the game", { what: text }) : t("{what}: {who} wins the game", { what: text, who: ctx.name(seat) });
  };

  function tell(move, seat, opened) {
    switch (move.type) {
      case "play": {
        const effect = cvpFace(move.card).effect;
        if (opened && effect === "resist" && pending && seat !== pending.seat) {
          const cancelled = owned(ctx, pending.seat, pending.card);
          pending = null;
          top = seat;
          return say(ctx, seat, "{who} resisted with {card}: the effect of {owned} is cancelled", { card: cvpLabel(move.card, { plain: true }), owned: cancelled });
        }
        top = seat;
        pending = CANCELLABLE.has(effect) ? { seat, card: move.card, effect } : null;
        windowOpen = !!pending;
        if (effect === "blind") return say(ctx, seat, "{who} played {card} and drew a card", { card: cvpLabel(move.card) });
        return say(ctx, seat, "{who} played {card}", { card: cvpLabel(move.card, { plain: true }) });
      }
      case "pass": {
        const winner = top;
        const text = winner === null ? say(ctx, seat, "{who} passed")
          : winner === ctx.you ? say(ctx, seat, "{who} passed: you win round {n}", { n: round })
          : say(ctx, seat, "{who} passed: {winner} wins round {n}", { n: round, winner: ctx.name(winner) });
        round += 1;
        top = null;
        pending = null;
        return text;
      }
      case "decline": {
        const was = pending;
        if (opened && was && seat !== was.seat) {
          if (was.effect === "reverse") pending = null;  // nothing left to choose
          return say(ctx, seat, "{who} did not Resist {owned}", { owned: owned(ctx, was.seat, was.card) });
        }
        pending = null;
        if (was?.effect === "capture") return say(ctx, seat, "{who} left the card beneath (Capture)");
        if (was?.effect === "mimic") return say(ctx, seat, "{who} copied nothing (Mimic)");
        return say(ctx, seat, "{who} declined");
      }
      case "capture":
        pending = null;
        return say(ctx, seat, ["You took the card beneath into your hand (Capture)", "{who} took the card beneath into their hand (Capture)"]);
      case "copy":
        pending = move.effect === "reverse" || move.effect === "blind" ? null : { seat, card: pending?.card, effect: move.effect };
        return say(ctx, seat, move.effect === "blind" ? "{who} copied {effect} (Mimic) and drew a card" : "{who} copied {effect} (Mimic)",
          { effect: effectName(move.effect) });
      case "pincer": {
        pending = null;
        const victim = 1 - seat;
        if (!move.card) {
          return victim === ctx.you ? say(ctx, seat, "{who} sent one of your cards back to its draw pile (Pincer)")
            : say(ctx, seat, "{who} sent one of {victim}'s cards back to its draw pile (Pincer)", { victim: ctx.name(victim) });
        }
        return say(ctx, seat, cvpFace(move.card).colour === "crab" ? "{who} sent {owned} back to the Crab draw pile (Pincer)"
          : "{who} sent {owned} back to the Octopus draw pile (Pincer)", { owned: owned(ctx, victim, move.card, { bare: true }) });
      }
      case "discard": {
        const heal = pending?.effect === "heal";
        pending = null;
        const what = move.card ? cvpLabel(move.card, { bare: true }) : t("a card");
        return say(ctx, seat, heal ? "{who} discarded {what} face down and refilled to 5 (Heal)" : "{who} discarded {what} face down (Draw & discard)", { what });
      }
      case "search":
        pending = null;
        return say(ctx, seat, ["You took {what} from your draw pile (Search)", "{who} took {what} from their draw pile (Search)"],
          { what: move.card ? cvpLabel(move.card, { bare: true }) : t("a card") });
      case "give": {
        pending = null;
        const to = 1 - seat;
        const card = move.card && cvpLabel(move.card, { bare: true });
        if (to === ctx.you) return say(ctx, seat, move.card ? "{who} gave you {card} (Offer)" : "{who} gave you a card (Offer)", { card });
        return say(ctx, seat, move.card ? "{who} gave {card} to {to} (Offer)" : "{who} gave {to} a card (Offer)", { card, to: ctx.name(to) });
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
  return [[t("Cards left"), result.cards_left[seat]]];
}

// The deck of a new game: the option the API takes as "mode".
function deckForm(chosen, choose) {
  return h("fieldset.options", {}, h("legend", {}, t("Deck")),
    h("div.segmented", {}, [["symmetrical", "Classic: 24 cards each"], ["asymmetrical", "With species cards: 27 each"]].map(([mode, text]) =>
      h("label", { class: chosen.mode === mode ? "chosen" : "" },
        h("input", { type: "radio", name: "mode", value: mode, checked: chosen.mode === mode, onchange: () => choose({ mode }) }), t(text)))));
}


// -- in French: the names Crabe vs Poulpe's rulebook gives its effects (Pincer, Guérir,
// Fouiller, Aveugler, Capturer, Imiter, Piocher et Défausser, Résister, Offrir, Inverser,
// Débuter) ------------------------------------------------------------------------------------
addFrench({
  "A duel. Climb the pile with higher cards, use effects, Resist your opponent's. Empty your hand and draw pile first.":
    "Un duel. Montez la pile avec des cartes plus fortes, jouez des effets, résistez à ceux de l'adversaire. Videz le premier votre main et votre pioche.",
  "Crab|cvp": "Crabe",
  "Octopus|cvp": "Poulpe",
  "Crab (blue)": "Crabe (bleu)",
  "Octopus (red)": "Poulpe (rouge)",
  "Start": "Débuter",
  "Resist": "Résister",
  "Offer": "Offrir",
  "Draw & discard": "Piocher et Défausser",
  "Reverse": "Inverser",
  "Pincer": "Pincer",
  "Heal": "Guérir",
  "Search": "Fouiller",
  "Blind": "Aveugler",
  "Capture": "Capturer",
  "Mimic": "Imiter",
  "Only opens a round": "Ne fait qu'ouvrir une manche",
  "Played just after an effect, cancels it; else a plain 1": "Jouée juste après un effet, l'annule ; sinon un simple 1",
  "Its player gives a card to the opponent": "Son joueur donne une carte à l'adversaire",
  "Its player draws a card, then discards one": "Son joueur pioche une carte, puis en défausse une",
  "The next card must be lower": "La carte suivante doit être plus faible",
  "Its player sees the opponent's hand and sends one of its cards back to its draw pile": "Son joueur voit la main adverse et en renvoie une carte dans sa pioche",
  "Its player discards a card, then refills to 5": "Son joueur défausse une carte, puis complète sa main à 5",
  "Its player takes any card of their own draw pile": "Son joueur prend la carte de son choix dans sa pioche",
  "Its player draws a card; plays on anything but Ω": "Son joueur pioche une carte ; se joue sur tout sauf Ω",
  "Its player may take the card beneath": "Son joueur peut prendre la carte recouverte",
  "Its player sees the opponent's hand and may copy one of its effects": "Son joueur voit la main adverse et peut en imiter un effet",
  "it only opens a round": "elle ne fait qu'ouvrir la manche",
  "it cancels the effect just played": "elle annule l'effet qui vient d'être joué",
  "they will give you a card of their hand": "il vous donnera une carte de sa main",
  "you give a card of your hand to your opponent": "vous donnez une carte de votre main à l'adversaire",
  "they will draw a card, then discard one face down": "il piochera une carte, puis en défaussera une face cachée",
  "you draw a card, then discard one face down": "vous piochez une carte, puis en défaussez une face cachée",
  "the next card must be lower": "la carte suivante doit être plus faible",
  "they will see your hand and send one of your cards back to its draw pile": "il verra votre main et renverra une de vos cartes dans sa pioche",
  "you see their hand and send one of its cards back to its draw pile": "vous voyez sa main et renvoyez une de ses cartes dans sa pioche",
  "they will discard a card, then refill to 5": "il défaussera une carte, puis complétera sa main à 5",
  "you discard a card, then refill to 5": "vous défaussez une carte, puis complétez votre main à 5",
  "they will take any card of their draw pile": "il prendra la carte de son choix dans sa pioche",
  "you take any card of your draw pile": "vous prenez la carte de votre choix dans votre pioche",
  "they draw a card": "il pioche une carte",
  "you draw a card": "vous piochez une carte",
  "they may take the card beneath into their hand": "il peut prendre en main la carte recouverte",
  "you may take the card beneath into your hand": "vous pouvez prendre en main la carte recouverte",
  "they will see your hand and may copy one of its effects": "il verra votre main et pourra en imiter un effet",
  "you see their hand and may copy one of its effects": "vous voyez sa main et pouvez en imiter un effet",
  "your {card}": "votre {card}",
  "{who}'s {card}": "{card} de {who}",
  "hand + draw pile: the first to run out wins": "main + pioche : le premier à tout épuiser gagne",
  "card left": "carte restante",
  "cards left": "cartes restantes",
  "plays the {colour} colour": "joue la couleur {colour}",
  "cards in hand": "cartes en main",
  "cards in draw pile": "cartes dans la pioche",
  "{n} to draw": "{n} à piocher",
  "played the top card": "a posé la carte du dessus",
  "opened this round": "a ouvert cette manche",
  "{n} card": "{n} carte",
  "{n} cards": "{n} cartes",
  "Empty pile: the opener plays any card": "Pile vide : qui ouvre joue n'importe quelle carte",
  "Reverse: the next card must be lower than {value}": "Inverser : la carte suivante doit être plus faible que {value}",
  "Nothing can follow Ω: the next player can only pass": "Rien ne bat Ω : le joueur suivant ne peut que passer",
  "Next card must be higher than {value}": "La carte suivante doit être plus forte que {value}",
  "{who}'s hand: {n} cards": "Main de {who} : {n} cartes",
  "{who}'s draw pile": "Pioche de {who}",
  "{who}: {hand} in hand, {draw} to draw": "{who} : {hand} en main, {draw} à piocher",
  "Round pile, {n} cards": "Pile de la manche, {n} cartes",
  "pile": "pile",
  "Round {round} · {n} discarded": "Manche {round} · {n} défaussées",
  "Your draw pile": "Votre pioche",
  "You play {colour}: {n} to draw": "Vous jouez {colour} : {n} à piocher",
  "play it": "la jouer",
  "discard it face down": "la défausser face cachée",
  "give it": "la donner",
  "You open the round: play any card.": "Vous ouvrez la manche : jouez n'importe quelle carte.",
  "Nothing can follow Ω: pass, and {who} wins the round.": "Rien ne bat Ω : passez, et {who} gagne la manche.",
  "Your turn: play a card lower than the top card, or pass ({who} then wins the round).": "À vous : jouez une carte plus faible que celle du dessus, ou passez ({who} gagne alors la manche).",
  "Your turn: play a card higher than the top card, or pass ({who} then wins the round).": "À vous : jouez une carte plus forte que celle du dessus, ou passez ({who} gagne alors la manche).",
  "{who} played {card}: {effect}. Resist with a 1 to cancel it, or let it happen.": "{who} a joué {card} : {effect}. Résistez avec un 1 pour l'annuler, ou laissez faire.",
  "{who} played {card}: {effect}. You hold no 1 to Resist with: let it happen.": "{who} a joué {card} : {effect}. Vous n'avez pas de 1 pour résister : laissez faire.",
  "Reverse, unless resisted: the next card must be lower than {value}": "Inverser, sauf résistance : la carte suivante doit être plus faible que {value}",
  "Pincer: here is their hand. Pick the card to send back to its draw pile.": "Pincer : voici sa main. Choisissez la carte à renvoyer dans sa pioche.",
  "Heal: discard a card of your hand face down, then you refill to 5.": "Guérir : défaussez une carte de votre main face cachée, puis vous complétez à 5.",
  "Search: here is your draw pile. Take one card into your hand.": "Fouiller : voici votre pioche. Prenez-en une carte en main.",
  "Capture: take the card beneath into your hand?": "Capturer : prendre en main la carte recouverte ?",
  "Mimic: here is their hand. Copy one of its effects?": "Imiter : voici sa main. Imiter un de ses effets ?",
  "Draw and discard: discard a card of your hand face down.": "Piocher et Défausser : défaussez une carte de votre main face cachée.",
  "Offer: pick a card of your hand to give to {who}.": "Offrir : choisissez une carte de votre main à donner à {who}.",
  "Your move.": "À vous de jouer.",
  "{who} is thinking…": "{who} réfléchit…",
  "{who} opens the round…": "{who} ouvre la manche…",
  "{who} decides whether to Resist…": "{who} décide s'il résiste…",
  "{who} picks a card from your hand…": "{who} choisit une carte de votre main…",
  "{who} discards a card…": "{who} défausse une carte…",
  "{who} searches their draw pile…": "{who} fouille sa pioche…",
  "{who} decides whether to capture…": "{who} décide s'il capture…",
  "{who} looks at your hand (Mimic)…": "{who} regarde votre main (Imiter)…",
  "{who} chooses a card to give you…": "{who} choisit une carte à vous donner…",
  "{who} is playing…": "{who} joue…",
  "Their hand": "Sa main",
  "Pass: {who} wins the round": "Passer : {who} gagne la manche",
  "Let it happen": "Laisser faire",
  "Leave it": "La laisser",
  "Copy nothing": "Ne rien imiter",
  "Decline": "Refuser",
  "Take {card}": "Prendre {card}",
  "Copy {effect}": "Imiter {effect}",
  "Resist with {card}": "Résister avec {card}",
  "{what}: you win the game": "{what} : vous gagnez la partie",
  "{what}: {who} wins the game": "{what} : {who} gagne la partie",
  "a card": "une carte",
  "Cards left": "Cartes restantes",
  "Deck": "Paquet",
  "Classic: 24 cards each": "Classique : 24 cartes chacun",
  "With species cards: 27 each": "Avec les cartes d'espèce : 27 chacun",
  "symmetrical": "symétrique",
  "custom": "personnalisé",
  "asymmetrical": "asymétrique",
  "Draw pile, top first": "Pioche, du dessus vers le dessous",
  "plays {colour}": "joue {colour}",
});
addFrenchOfSeat("{who} resisted with {card}: the effect of {owned} is cancelled", "{who} a résisté avec {card} : l'effet de {owned} est annulé",
  "Vous avez résisté avec {card} : l'effet de {owned} est annulé");
addFrenchOfSeat("{who} played {card} and drew a card", "{who} a joué {card} et pioché une carte", "Vous avez joué {card} et pioché une carte");
addFrenchOfSeat("{who} played {card}", "{who} a joué {card}", "Vous avez joué {card}");
addFrenchOfSeat("{who} passed", "{who} a passé", "Vous avez passé");
addFrenchOfSeat("{who} passed: you win round {n}", "{who} a passé : vous gagnez la manche {n}", "Vous avez passé : vous gagnez la manche {n}");
addFrenchOfSeat("{who} passed: {winner} wins round {n}", "{who} a passé : {winner} gagne la manche {n}", "Vous avez passé : {winner} gagne la manche {n}");
addFrenchOfSeat("{who} did not Resist {owned}", "{who} n'a pas résisté à {owned}", "Vous n'avez pas résisté à {owned}");
addFrenchOfSeat("{who} left the card beneath (Capture)", "{who} a laissé la carte recouverte (Capturer)", "Vous avez laissé la carte recouverte (Capturer)");
addFrenchOfSeat("{who} copied nothing (Mimic)", "{who} n'a rien imité (Imiter)", "Vous n'avez rien imité (Imiter)");
addFrenchOfSeat("{who} declined", "{who} a refusé", "Vous avez refusé");
addFrench({
  "{who} took the card beneath into their hand (Capture)": "{who} a pris en main la carte recouverte (Capturer)",
  "You took the card beneath into your hand (Capture)": "Vous avez pris en main la carte recouverte (Capturer)",
});
addFrenchOfSeat("{who} copied {effect} (Mimic) and drew a card", "{who} a imité {effect} (Imiter) et pioché une carte", "Vous avez imité {effect} (Imiter) et pioché une carte");
addFrenchOfSeat("{who} copied {effect} (Mimic)", "{who} a imité {effect} (Imiter)", "Vous avez imité {effect} (Imiter)");
addFrenchOfSeat("{who} sent one of your cards back to its draw pile (Pincer)", "{who} a renvoyé une de vos cartes dans sa pioche (Pincer)",
  "Vous avez renvoyé une de vos cartes dans sa pioche (Pincer)");
addFrenchOfSeat("{who} sent one of {victim}'s cards back to its draw pile (Pincer)", "{who} a renvoyé une carte de {victim} dans sa pioche (Pincer)",
  "Vous avez renvoyé une carte de {victim} dans sa pioche (Pincer)");
addFrenchOfSeat("{who} sent {owned} back to the Crab draw pile (Pincer)", "{who} a renvoyé {owned} dans la pioche Crabe (Pincer)",
  "Vous avez renvoyé {owned} dans la pioche Crabe (Pincer)");
addFrenchOfSeat("{who} sent {owned} back to the Octopus draw pile (Pincer)", "{who} a renvoyé {owned} dans la pioche Poulpe (Pincer)",
  "Vous avez renvoyé {owned} dans la pioche Poulpe (Pincer)");
addFrenchOfSeat("{who} discarded {what} face down and refilled to 5 (Heal)", "{who} a défaussé {what} face cachée et complété sa main à 5 (Guérir)",
  "Vous avez défaussé {what} face cachée et complété votre main à 5 (Guérir)");
addFrenchOfSeat("{who} discarded {what} face down (Draw & discard)", "{who} a défaussé {what} face cachée (Piocher et Défausser)",
  "Vous avez défaussé {what} face cachée (Piocher et Défausser)");
addFrench({
  "{who} took {what} from their draw pile (Search)": "{who} a pris {what} dans sa pioche (Fouiller)",
  "You took {what} from your draw pile (Search)": "Vous avez pris {what} dans votre pioche (Fouiller)",
});
addFrenchOfSeat("{who} gave you {card} (Offer)", "{who} vous a donné {card} (Offrir)", "Vous vous êtes donné {card} (Offrir)");
addFrenchOfSeat("{who} gave you a card (Offer)", "{who} vous a donné une carte (Offrir)", "Vous vous êtes donné une carte (Offrir)");
addFrenchOfSeat("{who} gave {card} to {to} (Offer)", "{who} a donné {card} à {to} (Offrir)", "Vous avez donné {card} à {to} (Offrir)");
addFrenchOfSeat("{who} gave {to} a card (Offer)", "{who} a donné une carte à {to} (Offrir)", "Vous avez donné une carte à {to} (Offrir)");

register({
  name: "crabe-vs-poulpe",
  title: "Crabe vs Poulpe",
  description: "A duel. Climb the pile with higher cards, use effects, Resist your opponent's. Empty your hand and draw pile first.",
  icon: "octopus",
  players: [2, 2],
  options: { defaults: { mode: "symmetrical" }, form: deckForm },
  back: (view, seat) => view.seats[seat].colour,
  variant: (view) => t(view.mode),
  rounds: null,
  seatInfo, board, hand, prompt, choices, narrator, applyHint, changes, resultColumns, replayBoard, replaySeat,
  stylesheet: "cvp.css",
});
