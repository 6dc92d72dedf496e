// Cup the Crab at the table: stacks, the secret selection of three cards, playing a card
// on a target. Every choice offered is one of the legal moves the API listed.

import { h, moveKey } from "./dom.js";
import { card, icon } from "./cards.js";
import { register } from "./game-registry.js";
import { addFrench, addFrenchOfSeat } from "./french.js";
import { labelled, plural, t } from "./i18n.js";
import { say } from "./log.js";

const KINDS = ["cup-1", "cup-2", "cup-3", "cup-4", "cup-5", "cup-6", "cup-8", "cup-10", "crab", "octopus", "bottle"];
const CLAIMERS = new Set(["crab", "octopus"]);

function counts(cards) {
  const tally = new Map();
  for (const name of cards) tally.set(name, (tally.get(name) || 0) + 1);
  return tally;
}

function canonical(cards) {
  return [...cards].sort((a, b) => KINDS.indexOf(a) - KINDS.indexOf(b));
}

const selects = (ctx) => ctx.legal.filter((m) => m.type === "select");
const movesOf = (ctx, name) => ctx.legal.filter((m) => m.card === name);

// The move the chosen selection stands for, if the API lists it.
function chosenSelect(ctx) {
  const chosen = canonical(ctx.ui.selection || []);
  if (chosen.length !== 3) return null;
  return selects(ctx).find((m) => moveKey({ ...m, cards: chosen }) === moveKey(m)) || null;
}

// -- cards -------------------------------------------------------------------------

const CUP_TEXT = {
  crab: "Claims a stack without a Bottle",
  octopus: "Claims a stack with a Bottle",
  bottle: "Seals a stack: only an Octopus takes it",
};

const NAMES = { crab: "Crab|cup", octopus: "Octopus|cup", bottle: "Bottle" };

function cupLabel(name) {
  if (name.startsWith("cup-")) return t("Cup {n}", { n: name.slice(4) });
  return t(NAMES[name]);
}

function cupFace(name) {
  if (name.startsWith("cup-")) {
    const value = name.slice(4);
    return { kind: "cup", value, picture: "cup", caption: plural(Number(value), "{n} point", "{n} points") };
  }
  return { kind: name, value: "", picture: name, caption: cupLabel(name) };
}

// A card's drawing (cards.js draws the card around it).
function look(name) {
  const face = cupFace(name);
  return {
    label: cupLabel(name),
    classes: `cup-card ${face.kind} v${face.value}`,
    tip: CUP_TEXT[name] ? labelled(cupLabel(name), t(CUP_TEXT[name])) : cupLabel(name),
    inner: [h("span.corner", {}, face.value), icon(face.picture), h("span.caption", {}, face.caption)],
  };
}

// -- seats -------------------------------------------------------------------------

function seatInfo(ctx, seat) {
  const s = ctx.view.seats[seat];
  const selecting = ctx.view.phase === "select";
  return [
    h("div.score", { title: plural(s.score_cups, "{n} Cup card won", "{n} Cup cards won") }, h("b", {}, s.score), ` ${t("pts")}`),
    h("div.counts", {},
      h("span", { title: t("cards left to play") }, t("{n} left", { n: s.cards_left })),
      h("span.kind", { title: t("Crabs left") }, icon("crab"), s.crabs),
      h("span.kind", { title: t("Octopuses left") }, icon("octopus"), s.octopuses),
      h("span.kind", { title: t("Bottles left") }, icon("bottle"), s.bottles)),
    h("div.sub", {}, ctx.view.starting_player === seat && ctx.view.phase !== "over"
      ? h("span.starts", { title: t("starts round {n}", { n: ctx.view.round }) }, `${t("starts")} · `) : null,
      ctx.body.status === "waiting" ? t(ctx.body.seats[seat].type === "open" ? "waiting for a player" : "seated")
        : selecting ? t(s.selected ? "✓ has chosen" : "choosing…") : t("{n} in hand", { n: s.hand_size })),
  ];
}

// -- board -------------------------------------------------------------------------

function targetsOf(ctx) {
  const picked = ctx.ui.picked;
  const targets = { stacks: new Map(), newStack: null, discard: null };
  if (!picked) return targets;
  for (const move of movesOf(ctx, picked)) {
    if (move.type === "play") targets.stacks.set(move.stack, move);
    if (move.type === "new-stack") targets.newStack = move;
    if (move.type === "discard") targets.discard = move;
  }
  return targets;
}

// A long stack is laid out in columns, in play order, so that every value stays readable
// and the stack never grows taller than its slot (the page keeps its layout).
const COLUMN = 6;

function columns(cards) {
  const count = Math.ceil(cards.length / COLUMN);
  return Array.from({ length: count }, (_, c) => cards.slice(c * COLUMN, (c + 1) * COLUMN));
}

// How far down each card of a column shows: the more cards, the tighter.
function cascadeStep(cards) {
  return String(cards > 1 ? Math.min(0.38, 1.2 / (cards - 1)) : 0.38);
}

function board(ctx) {
  const { view, ui } = ctx;
  const targets = targetsOf(ctx);
  const free = view.stacks.indexOf(null);
  const hinted = ui.hint && ui.picked === ui.hint.card ? moveKey(ui.hint) : null;
  const slots = view.stacks.map((stack, slot) => {
    const move = stack ? targets.stacks.get(slot) : slot === free ? targets.newStack : null;
    const changed = ctx.changed.has(`stack-${slot}`);
    const title = stack ? t("Stack {n}", { n: slot + 1 }) : t("Free slot");
    const content = stack
      ? [h("div.stack-head", {}, h("span.sr-only", {}, labelled(title, "")), h("b", {}, `${stack.value}`), ` ${t("pts")}`, stack.bottle ? h("span.badge.bottle", { title: t("bottled: only an Octopus takes it") }, icon("bottle"), h("span.word", {}, t("bottled"))) : null,
           move && CLAIMERS.has(move.card) ? h("span.badge.claim", {}, t("claim")) : null),
         h("div.cascades", {}, columns(stack.cards).map((cards, c) =>
           h("div.cascade", { style: { "--step": cascadeStep(cards.length) } },
             cards.map((name, i) => card(look, name, { small: true, key: `s${slot}-${c}-${i}` })))))]
      : [h("div.free", {}, t(move ? "Start a new stack here" : "free slot"))];
    // A button is named by the words it shows (a stack's number among them, for screen
    // readers), as axe's label-content-name-mismatch asks.
    const attrs = { class: ["slot", stack ? "stack" : "empty", move && "target", changed && "changed",
      move && hinted === moveKey(move) && "hint"].filter(Boolean).join(" "), "aria-label": move ? null : title,
    "data-key": `slot-${slot}` };
    return move
      ? h("button.move", { ...attrs, type: "button", onclick: () => ctx.send(move), title: labelled(title, t(CLAIMERS.has(move.card) ? "claim it with your {card}" : "play your {card} here", { card: cupLabel(move.card) })) }, content)
      : h("div", attrs, content);
  });
  const discards = view.discards;
  const discardAttrs = { class: ["slot", "discards", targets.discard && "target", ctx.changed.has("discards") && "changed",
    targets.discard && hinted === moveKey(targets.discard) && "hint"].filter(Boolean).join(" "), "aria-label": t("Discards"), "data-key": "discards" };
  const discardContent = [h("div.stack-head", {}, `${t("Discards")} `, h("b", {}, discards.length)),
    h("div.cascade", {}, discards.slice(-3).map((name, i) => card(look, name, { small: true, key: `d${i}` })))];
  return h("div.cup-board", {},
    h("div.stacks", {}, slots),
    targets.discard
      ? h("button.move", { ...discardAttrs, type: "button", onclick: () => ctx.send(targets.discard) }, discardContent)
      : h("div", discardAttrs, discardContent));
}

// -- the player's cards ------------------------------------------------------------

function hand(ctx) {
  const { view, ui } = ctx;
  if (!view.hand) return h("p.spectator", {}, t("You are watching this game."));
  const selecting = selects(ctx).length > 0;
  const tray = selecting ? selectionTray(ctx) : handTray(ctx);
  const reserve = selecting ? [...view.reserve] : view.reserve;
  const chosen = counts(ui.selection || []);
  const groups = [...counts(reserve)].sort((a, b) => KINDS.indexOf(a[0]) - KINDS.indexOf(b[0]));
  const hintCards = ui.hint?.type === "select" ? counts(ui.hint.cards) : new Map();
  const reserveRow = h("div.reserve", { "aria-label": t("Your other cards") },
    h("span.row-label", {}, t(selecting ? "Your cards: click to choose" : "Your other cards")),
    h("div.cards", {}, groups.map(([name, n]) => {
      const left = n - (chosen.get(name) || 0);
      const add = selecting && left > 0 && (ui.selection || []).length < 3
        ? () => ctx.set({ selection: [...(ui.selection || []), name] }) : null;
      return h("div.group", {},
        card(look, name, { small: true, onclick: selecting ? add || (() => {}) : null, disabled: selecting && !add,
          key: `r-${name}`, hint: (hintCards.get(name) || 0) > (chosen.get(name) || 0) }),
        h("span.count", { "aria-label": plural(selecting ? left : n, "{n} of this card", "{n} of this card|many") }, `×${selecting ? left : n}`));
    })));
  return [tray, reserveRow];
}

function selectionTray(ctx) {
  const chosen = ctx.ui.selection || [];
  const move = chosenSelect(ctx);
  const slots = [0, 1, 2].map((i) => chosen[i]
    ? card(look, chosen[i], { onclick: () => ctx.set({ selection: chosen.filter((_, j) => j !== i) }),
      key: `pick-${i}`, selected: true, hint: ctx.ui.hint?.type === "select", title: labelled(cupLabel(chosen[i]), t("click to put it back")) })
    : h("div.card.placeholder", { "aria-hidden": "true" }, "?"));
  return h("div.tray", { "aria-label": t("This round's three cards") },
    h("div.cards", {}, slots),
    h("div.tray-actions", {},
      h("button.primary", { type: "button", disabled: !move, "data-key": "confirm", onclick: () => move && ctx.send(move) },
        chosen.length < 3 ? t("Choose {n} more", { n: 3 - chosen.length }) : t("Confirm these 3")),
      h("button.ghost", { type: "button", disabled: !chosen.length, "data-key": "clear", onclick: () => ctx.set({ selection: [] }) }, t("Clear"))));
}

function handTray(ctx) {
  const { view, ui } = ctx;
  const slots = [0, 1, 2].map((i) => {
    const name = view.hand[i];
    if (!name) return h("div.card.placeholder", { "aria-hidden": "true" });
    const playable = movesOf(ctx, name).length > 0;
    const picked = ui.pickedIndex === i;  // copies of a card are alike, but one is picked
    const why = ctx.legal.length && !playable ? unplayable(view, name) : null;
    return card(look, name, {
      onclick: playable ? () => ctx.set(picked ? { picked: null, pickedIndex: null } : { picked: name, pickedIndex: i }) : null,
      selected: playable ? picked : undefined, key: `hand-${i}-${name}`,
      hint: ui.hint && ui.hint.card === name && !ui.picked, title: why ? labelled(cupLabel(name), why) : undefined,
    });
  });
  const blocked = ctx.legal.length && ctx.legal.some((m) => m.type !== "discard")
    ? [...new Set(view.hand.filter((name) => !movesOf(ctx, name).length))].map((name) => labelled(cupLabel(name), unplayable(view, name)))
    : [];
  const note = ctx.body.status === "waiting" ? "Your hand is dealt: you choose 3 cards once every seat is taken."
    : view.phase === "select" ? "Your 3 cards are chosen: waiting for the others."
    : view.round === 7 && view.phase === "play" ? "Round 7: your last 3 cards were selected for you (there is no choice left)." : null;
  const waiting = note && t(note);
  return h("div.tray", { "aria-label": t("Your hand") }, h("div.cards", {}, slots),
    h("div.tray-actions", {}, h("div.notes", {}, waiting ? h("span.note", {}, waiting) : null,
      blocked.map((text) => h("span.note.why", {}, text)))));
}

// Why a card of the hand cannot be placed now (the rules' targets, C3).
function unplayable(view, name) {
  const stacks = view.stacks.filter(Boolean);
  if (name === "crab") return t(stacks.length ? "every stack is bottled (only an Octopus takes a bottled stack)." : "there is no stack to claim yet.");
  if (name === "octopus") return t("no stack is bottled (an Octopus claims only a bottled stack).");
  return t("every stack is bottled and no slot is free.");
}

// -- a replay: the complete position, every card face up -----------------------------

function replayBoard(ctx, position) {
  return board({ ...ctx, view: { ...position }, ui: {}, legal: [] });
}

function replaySeat(ctx, position, seat) {
  const { hand, reserve, score_pile: won, selected } = position.seats[seat];
  const points = won.filter((name) => name.startsWith("cup-")).reduce((sum, name) => sum + Number(name.slice(4)), 0);
  const row = (cards, label, key) => h("div.zone", { class: key, "aria-label": labelled(t(label), cards.length) },
    h("span.row-label", {}, labelled(t(label), cards.length)),
    h("div.cards", {}, canonical(cards).map((name, i) => card(look, name, { small: true, key: `${key}-${seat}-${i}` }))));
  return [h("div.score", {}, h("b", {}, points), ` ${t("pts")}`, position.phase === "select" && selected ? ` · ${t("✓ has chosen")}` : ""),
    row(hand, position.phase === "select" ? "Chosen for this round" : "Hand", "in-hand"), row(reserve, "Other cards", "in-reserve")];
}

// -- words ---------------------------------------------------------------------------

function prompt(ctx) {
  const { view, ui } = ctx;
  const round = t("Round {round} of {rounds}", { round: view.round, rounds: 7 });
  if (view.phase === "over") return t("{round}: the game is over.", { round });
  const first = firstPlayer(ctx);
  if (!ctx.legal.length) {
    const waitingFor = view.to_move.filter((s) => s !== ctx.you).map(ctx.name).join(", ");
    return view.phase === "select" ? t("{round}: {who} choosing secretly ({first})…", { round, who: waitingFor || t("everybody"), first })
      : t("{round} ({first}): {who} to play…", { round, first, who: waitingFor });
  }
  if (selects(ctx).length) return t("{round}: choose 3 cards to play this round. Nobody sees them until they are played; {first}.", { round, first });
  if (!ui.picked) {
    return t(ctx.legal.every((m) => m.type === "discard")
      ? "No card of yours can be placed: pick one to discard."
      : "Your turn: pick a card from your hand.");
  }
  return t("Place your {card}: click a highlighted stack, slot or pile. Esc to cancel.", { card: cupLabel(ui.picked) });
}

// Who plays first this round (C6: one seat further each round).
function firstPlayer(ctx) {
  const seat = ctx.view.starting_player;
  return seat === ctx.you ? t("you play first") : t("{who} plays first", { who: ctx.name(seat) });
}

// A move in words, {who} its seat (log.js's say() conjugates it for "You").
function moveSentence(move) {
  switch (move.type) {
    case "select": return move.cards ? "{who} chose {cards}" : "{who} chose 3 cards";
    case "play": return CLAIMERS.has(move.card)
      ? (move.card === "crab" ? "{who} claimed stack {n} with a Crab: {points}" : "{who} claimed stack {n} with an Octopus: {points}")
      : "{who} played {card} on stack {n}";
    case "new-stack": return "{who} started a new stack with {card}";
    case "discard": return "{who} discarded {card}";
    default: return move.type;
  }
}

function moveParams(move, points) {
  return { cards: move.cards?.map(cupLabel).join(", "), card: move.card && cupLabel(move.card), n: move.stack + 1,
    points: plural(points ?? 0, "{n} point", "{n} points") };
}

// The log told in order: it follows the stacks (every card played is public, C4), so that a
// claim says how many points it took.
function narrator(ctx) {
  const stacks = [];  // by slot: the Cup values on its stack; null or missing when free
  const value = (name) => (name.startsWith("cup-") ? Number(name.slice(4)) : 0);
  return (entry) => {
    const move = entry.move;
    let points = null;
    if (move?.type === "new-stack") {
      let slot = 0;
      while (stacks[slot] != null) slot += 1;  // a new stack takes the lowest free slot
      stacks[slot] = value(move.card);
    } else if (move?.type === "play" && CLAIMERS.has(move.card)) {
      points = stacks[move.stack] ?? 0;
      stacks[move.stack] = null;
    } else if (move?.type === "play") {
      stacks[move.stack] = (stacks[move.stack] ?? 0) + value(move.card);
    }
    return say(ctx, entry.seat, moveSentence(move), moveParams(move, points));
  };
}

// What a suggestion means on screen: the three cards chosen, or the card picked.
function applyHint(ctx, move) {
  if (move.type === "select") return { hint: move, selection: [...move.cards] };
  return { hint: move, picked: move.card, pickedIndex: ctx.view.hand.indexOf(move.card) };
}

// Which parts of the table changed between two views, for a short highlight.
function changes(before, after) {
  const changed = new Set();
  if (!before) return changed;
  after.stacks.forEach((stack, slot) => {
    if (JSON.stringify(stack) !== JSON.stringify(before.stacks[slot])) changed.add(`stack-${slot}`);
  });
  if (after.discards.length !== before.discards.length) changed.add("discards");
  after.seats.forEach((s, seat) => {
    if (JSON.stringify(s) !== JSON.stringify(before.seats[seat])) changed.add(`seat-${seat}`);
  });
  return changed;
}

function resultColumns(result, seat) {
  return [[t("Points"), result.scores[seat]], [t("Cups won"), result.cups[seat]]];
}


// -- in French: the words of Cup the Crab's French rulebook (Gobelet, Crabe, Pieuvre,
// Bouteille, pile, manche) -----------------------------------------------------------------
addFrench({
  "2 to 5 players. Pick 3 cards in secret each round, build stacks of cups and claim them with Crabs and Octopuses.":
    "De 2 à 5 joueurs. Choisissez 3 cartes en secret à chaque manche, formez des piles de gobelets et raflez-les avec vos Crabes et vos Pieuvres.",
  "Cup {n}": "Gobelet {n}",
  "Crab|cup": "Crabe",
  "Octopus|cup": "Pieuvre",
  "Bottle": "Bouteille",
  "{n} point": "{n} point",
  "{n} points": "{n} points",
  "Claims a stack without a Bottle": "Rafle une pile sans Bouteille",
  "Claims a stack with a Bottle": "Rafle une pile avec une Bouteille",
  "Seals a stack: only an Octopus takes it": "Scelle une pile : seule une Pieuvre la prend",
  "{n} Cup card won": "{n} carte Gobelet gagnée",
  "{n} Cup cards won": "{n} cartes Gobelet gagnées",
  "pts": "pts",
  "cards left to play": "cartes encore à jouer",
  "{n} left": "{n} restantes",
  "Crabs left": "Crabes restants",
  "Octopuses left": "Pieuvres restantes",
  "Bottles left": "Bouteilles restantes",
  "starts round {n}": "commence la manche {n}",
  "starts": "commence",
  "✓ has chosen": "✓ a choisi",
  "choosing…": "choisit…",
  "waiting for a player": "attend un joueur",
  "Stack {n}": "Pile {n}",
  "Free slot": "Place libre",
  "bottled: only an Octopus takes it": "scellée : seule une Pieuvre la prend",
  "bottled": "scellée",
  "claim": "rafler",
  "Start a new stack here": "Commencer une pile ici",
  "claim it with your {card}": "la rafler avec votre {card}",
  "play your {card} here": "poser ici votre {card}",
  "free slot": "place libre",
  "Discards": "Défausse",
  "Your other cards": "Vos autres cartes",
  "Your cards: click to choose": "Vos cartes : cliquez pour choisir",
  "{n} of this card": "{n} exemplaire",
  "{n} of this card|many": "{n} exemplaires",
  "click to put it back": "cliquez pour la reposer",
  "This round's three cards": "Les trois cartes de cette manche",
  "Choose {n} more": "Encore {n} à choisir",
  "Confirm these 3": "Valider ces 3",
  "Clear": "Effacer",
  "Your hand is dealt: you choose 3 cards once every seat is taken.": "Vos cartes sont distribuées : vous en choisirez 3 dès que toutes les places seront prises.",
  "Your 3 cards are chosen: waiting for the others.": "Vos 3 cartes sont choisies : on attend les autres.",
  "Round 7: your last 3 cards were selected for you (there is no choice left).": "Manche 7 : vos 3 dernières cartes ont été choisies pour vous (il ne reste aucun choix).",
  "every stack is bottled (only an Octopus takes a bottled stack).": "toutes les piles sont scellées (seule une Pieuvre prend une pile scellée).",
  "there is no stack to claim yet.": "il n'y a encore aucune pile à rafler.",
  "no stack is bottled (an Octopus claims only a bottled stack).": "aucune pile n'est scellée (une Pieuvre ne rafle qu'une pile scellée).",
  "every stack is bottled and no slot is free.": "toutes les piles sont scellées et aucune place n'est libre.",
  "{round}: the game is over.": "{round} : la partie est terminée.",
  "everybody": "tout le monde",
  "{round}: {who} choosing secretly ({first})…": "{round} : {who} choisit en secret ({first})…",
  "{round} ({first}): {who} to play…": "{round} ({first}) : à {who} de jouer…",
  "{round}: choose 3 cards to play this round. Nobody sees them until they are played; {first}.": "{round} : choisissez 3 cartes à jouer cette manche. Personne ne les voit avant qu'elles soient jouées ; {first}.",
  "No card of yours can be placed: pick one to discard.": "Aucune de vos cartes ne peut être posée : choisissez-en une à défausser.",
  "Your turn: pick a card from your hand.": "À vous : prenez une carte de votre main.",
  "Place your {card}: click a highlighted stack, slot or pile. Esc to cancel.": "Posez votre {card} : cliquez sur une pile, une place ou la défausse en surbrillance. Échap pour annuler.",
  "you play first": "vous jouez en premier",
  "{who} plays first": "{who} joue en premier",
  "Points": "Points",
  "Cups won": "Gobelets gagnés",
  "Other cards": "Autres cartes",
  "Chosen for this round": "Choisies pour cette manche",
});
addFrenchOfSeat("{who} chose {cards}", "{who} a choisi {cards}", "Vous avez choisi {cards}");
addFrenchOfSeat("{who} chose 3 cards", "{who} a choisi 3 cartes", "Vous avez choisi 3 cartes");
addFrenchOfSeat("{who} claimed stack {n} with a Crab: {points}", "{who} a raflé la pile {n} avec un Crabe : {points}", "Vous avez raflé la pile {n} avec un Crabe : {points}");
addFrenchOfSeat("{who} claimed stack {n} with an Octopus: {points}", "{who} a raflé la pile {n} avec une Pieuvre : {points}", "Vous avez raflé la pile {n} avec une Pieuvre : {points}");
addFrenchOfSeat("{who} played {card} on stack {n}", "{who} a posé {card} sur la pile {n}", "Vous avez posé {card} sur la pile {n}");
addFrenchOfSeat("{who} started a new stack with {card}", "{who} a commencé une pile avec {card}", "Vous avez commencé une pile avec {card}");
addFrenchOfSeat("{who} discarded {card}", "{who} a défaussé {card}", "Vous avez défaussé {card}");

register({
  name: "cup-the-crab",
  title: "Cup the Crab",
  description: "2 to 5 players. Pick 3 cards in secret each round, build stacks of cups and claim them with Crabs and Octopuses.",
  icon: "crab",
  players: [2, 5],
  options: null,
  back: () => "crab",
  rounds: 7,
  seatInfo, board, hand, prompt, narrator,
  applyHint, changes, resultColumns,
  replayBoard, replaySeat,
  stylesheet: "cupcrab.css",
});
