// The table of one game drawn as a function of its state: seats, board, prompt, hand, the
// end and the log. No I/O: what the player does goes back through ctx (table.js).

import { h } from "./dom.js";
import { languageSwitch } from "./language.js";
import { endScreen } from "./end.js";
import { resignControl, spectatorCount } from "./after-game.js";
import { invitePanel } from "./invite.js";
import { t } from "./i18n.js";
import { logPanel } from "./log.js";
import { bubble, reactionsControl } from "./reactions.js";

// A seat's name as the page shows it: "You" for the viewer; a player's own name, with its
// seat number when it could be taken for another (a guest named "You", two players of one
// name); else what the seat is.
export function seatName(body, seat) {
  if (seat === body.you) return t("You");
  const named = body.seats?.[seat]?.name;
  if (!named) return t(body.seats[seat].type === "ai" ? "Robot {n}" : "Player {n}", { n: seat + 1 });
  const same = (other) => other?.trim().toLowerCase() === named.trim().toLowerCase();
  const ambiguous = same("You") || same(t("You")) || body.seats.some((s, other) => other !== seat && same(s.name));
  return ambiguous ? t("{name} (seat {n})", { name: named, n: seat + 1 }) : named;
}

// "You" when a seat's own name already says it (a guest who typed "You" is not "You (you)").
function plainYou(name) {
  return [t("You"), "You"].some((you) => you.toLowerCase() === name.trim().toLowerCase()) ? t("You") : null;
}

// What follows a game's title in a bar: " · " and its variant (a deck's mode), if it has one.
export function variantText(game, view) {
  const variant = game.variant(view);
  return variant ? ` · ${variant}` : "";
}

export function tableView(state, ctx) {
  const { body, game } = ctx;
  const over = body.status === "over";
  return h("div.table", { class: `${body.game} ${over ? "over" : ""} ${ctx.gone ? "vanished" : ""}`, "data-version": body.version, "data-status": body.status },
    header(ctx),
    // Said at the top, to every seat, where the eye is: the table below is only a memory.
    ctx.gone ? h("p.gone", {}, ctx.trouble, " ", h("a", { href: "#/", "data-key": "gone-home" }, t("Back to the start"))) : null,
    h("section.seats", { "aria-label": t("Players") }, body.view.seats.map((_, seat) => seatChip(ctx, seat))),
    h("section.board", { "aria-label": t("Table") }, game.board(ctx)),
    // While seats are open the invitation takes the prompt's box, so that the table does
    // not move when the game starts.
    h("section.prompt", { class: ctx.legal.length ? "your-turn" : "", tabindex: -1, "data-focus-home": true, "aria-label": t("What to do") },
      body.status === "waiting" ? invitePanel(ctx)
        : [h("p.say", {}, promptText(ctx)),
           game.choices ? game.choices(ctx) : null],
      h("p.error", {}, ctx.gone ? "" : ctx.error || ctx.trouble || "")),
    over ? endScreen(ctx) : h("section.hand", { "aria-label": t("Your cards") }, game.hand(ctx)),
    over ? null : logPanel(ctx, 8));
}

// What the prompt says (table.js announces it when it changes).
export function promptText(ctx) {
  if (ctx.body.status === "waiting" || ctx.gone) return "";  // a game gone asks nothing more
  // Ended before its last move (a resignation, a forfeit): the position's own words would
  // still name a seat to move.
  if (ctx.body.status === "over" && ctx.body.view.phase !== "over") return t("The game is over.");
  return ctx.busy ? t("Playing…") : ctx.game.prompt(ctx);
}

function header(ctx) {
  const { body } = ctx;
  const status = t(ctx.gone ? "Game unavailable" : body.status === "over" ? "Game over"
    : body.status === "waiting" ? "Waiting for players" : ctx.legal.length ? "Your turn" : "Waiting for others");
  return h("header.bar", {},
    h("a.brand", { href: "#/", "data-key": "home" }, h("span.logo", {}), "Crab Table"),
    h("span.game-name", {}, ctx.game.title, variantText(ctx.game, ctx.body.view),
      ctx.game.rounds ? ` · ${t("Round {round} of {rounds}", { round: ctx.body.view.round, rounds: ctx.game.rounds })}` : ""),
    languageSwitch(),
    spectatorCount(ctx),
    h("span.status", { class: ctx.legal.length ? "turn" : "" }, status),
    reactionsControl(ctx),
    ctx.you === null || body.status === "over" || !ctx.hints ? null : h("button.hint-button", { type: "button", "data-key": "hint",
      disabled: !ctx.legal.length || ctx.thinking, onclick: ctx.hint, title: t("Ask the AI for a move (key H)") },
      t(ctx.thinking ? "Thinking…" : "Hint")),
    resignControl(ctx));
}

function seatChip(ctx, seat) {
  const { body, view } = ctx;
  const toMove = body.status === "active" && body.to_move.includes(seat);
  const type = body.seats[seat].type;
  const deadline = body.seats?.[seat]?.deadline;
  return h("div.seat", { class: [toMove && "to-move", seat === ctx.you && "me", ctx.changed.has(`seat-${seat}`) && "changed",
    body.result?.winners?.includes(seat) && "winner"].filter(Boolean).join(" "), "aria-label": seatName(body, seat) },
    h("div.seat-head", {},
      seat === ctx.you && body.seats?.[seat]?.name && !plainYou(body.seats[seat].name)
        ? h("span.name", {}, h("bdi", {}, body.seats[seat].name), ` ${t("(you)")}`)
        : h("span.name", {}, h("bdi", {}, seatName(body, seat))),
      type !== "human" ? h("span.badge", { class: type }, t(type === "ai" ? "AI" : "open")) : null,
      body.seats[seat].resigned ? h("span.badge.resigned", {}, t("resigned")) : null,
      deadline && toMove ? h("span.clock", { "data-deadline": deadline }, clockText(deadline)) : null),
    ctx.game.seatInfo(ctx, seat),
    bubble(ctx, seat));
}

function clockText(deadline) {
  const left = Math.max(0, Math.round(deadline - Date.now() / 1000));
  const hours = Math.floor(left / 3600);
  const minutes = Math.floor((left % 3600) / 60);
  const seconds = String(left % 60).padStart(2, "0");
  return hours ? `${hours}h${String(minutes).padStart(2, "0")}` : `${minutes}:${seconds}`;
}

export function tickClocks(root) {
  for (const clock of root.querySelectorAll(".clock[data-deadline]")) {
    clock.textContent = clockText(Number(clock.dataset.deadline));
    clock.classList.toggle("short", Number(clock.dataset.deadline) - Date.now() / 1000 < 10);
  }
}
