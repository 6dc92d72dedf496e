// A finished game replayed: the table at every version with every card shown (the API's
// replay, positions the core computed again from the game's log), stepped with buttons,
// a slider and the arrow keys, and the move log in step. Nothing here is secret any more:
// the replay opens only once the game is over.

import { api } from "./api.js";
import { alarm, announce } from "./announce.js";
import { h, patch } from "./dom.js";
import { failedScreen, loadingScreen } from "./screens.js";
import { gameOf } from "./games.js";
import { isolate, t } from "./i18n.js";
import { languageSwitch } from "./language.js";
import { narrate } from "./log.js";
import { seatName, variantText } from "./table-view.js";

export function openReplay(root, { id, at }) {
  let replay = null;
  let body = null;
  let index = 0;
  let error = null;

  function context() {
    const game = gameOf(replay.game);
    return {
      game, body: { ...body, version: replay.version }, view: body.view, you: null, id,
      legal: [], ui: {}, changed: new Set(), hints: false,
      plain: (seat) => seatName(body, seat),
      name: (seat) => (body.seats?.[seat]?.name ? isolate(seatName(body, seat)) : seatName(body, seat)),
    };
  }

  function go(to) {
    const next = Math.max(0, Math.min(replay.versions.length - 1, to));
    if (next === index) return;
    index = next;
    history.replaceState(null, "", `#/replay/${encodeURIComponent(id)}/${replay.versions[index].version}`);
    render();
  }

  function render() {
    alarm(error);
    if (error) {
      patch(root, failedScreen(error));
      return;
    }
    if (!replay) {
      patch(root, loadingScreen());
      return;
    }
    const ctx = context();
    const step = replay.versions[index];
    const last = replay.versions.length - 1;
    patch(root, h("div.replay", { class: replay.game, "data-version": step.version, "data-index": index },
      h("header.bar", {},
        h("a.brand", { href: "#/", "data-key": "home" }, h("span.logo", {}), "Crab Table"),
        h("span.game-name", {}, `${ctx.game.title} · ${t("replay")}`, variantText(ctx.game, body.view)),
        languageSwitch(),
        h("a.button.ghost", { href: `#/g/${encodeURIComponent(id)}`, "data-key": "result" }, t("The result"))),
      h("section.steps", { "aria-label": t("Step through the game") },
        h("button.ghost", { type: "button", "data-key": "first", onclick: () => go(0), disabled: index === 0, "aria-label": t("First position") }, "«"),
        h("button.ghost", { type: "button", "data-key": "back", onclick: () => go(index - 1), disabled: index === 0, "aria-label": t("Previous move") }, "◀"),
        h("input.slider", { type: "range", min: 0, max: last, value: index, step: 1, "data-key": "slider",
          "aria-label": t("Version"), "aria-valuetext": t("Version {n} of {last}", { n: step.version, last: replay.version }),
          oninput: (e) => go(Number(e.target.value)) }),
        h("button.ghost", { type: "button", "data-key": "forward", onclick: () => go(index + 1), disabled: index === last, "aria-label": t("Next move") }, "▶"),
        h("button.ghost", { type: "button", "data-key": "last", onclick: () => go(last), disabled: index === last, "aria-label": t("Last position") }, "»"),
        h("span.where", {}, t("Version {n} of {last}", { n: step.version, last: replay.version }))),
      h("p.now", {}, nowText(ctx, index)),
      h("section.board.replay-board", { "aria-label": t("Table") }, ctx.game.replayBoard(ctx, step.position)),
      h("section.replay-seats", { "aria-label": t("Every hand") },
        step.position.seats.map((_, seat) => h("div.replay-seat", { "data-seat": seat },
          h("h3.name", {}, h("bdi", {}, ctx.plain(seat)),
            h("a.review-link", { href: `#/review/${encodeURIComponent(id)}/${seat}`, "data-key": `review-${seat}` },
              t("Review {who}'s decisions", { who: ctx.plain(seat) }))),
          ctx.game.replaySeat(ctx, step.position, seat)))),
      replayLog(ctx)));
    announce(nowText(ctx, index));
    // The log follows the step shown: its entry in the middle of the log's box.
    const log = root.querySelector(".replay-log");
    const current = log.querySelector(".current");
    log.scrollTop = current ? current.offsetTop - log.clientHeight / 2 : 0;
  }

  // What the step shown did, in words (the log's sentence for it).
  function nowText(ctx, at) {
    const told = narrate(ctx, replay.versions.slice(1, at + 1).map((v) => v.entry));
    const current = told[told.length - 1];
    return current ? `#${current.entry.version} ${current.text}` : t("The deal: every card where the game began.");
  }

  function replayLog(ctx) {
    const told = narrate(ctx, replay.versions.slice(1).map((v) => v.entry));
    return h("aside.log.replay-log", { "aria-label": t("The whole game"), tabindex: 0 }, h("h2", {}, t("The whole game")),
      h("ol", {}, told.map(({ entry, text }, i) => h("li", {
        class: i + 1 === index ? "current" : i + 1 > index ? "later" : "",
        "aria-current": i + 1 === index ? "step" : null },
        h("button.step", { type: "button", "data-key": `step-${i + 1}`, onclick: () => go(i + 1) },
          h("span.v", {}, `#${entry.version}`), " ", text)))));
  }

  function onKey(event) {
    if (!replay || event.target.closest?.("input, select, textarea")) return;
    const moves = { ArrowLeft: index - 1, ArrowRight: index + 1, Home: 0, End: replay.versions.length - 1 };
    if (event.key in moves) {
      event.preventDefault();
      go(moves[event.key]);
    }
  }

  Promise.all([api.replay(id), api.game(id)]).then(([found, game]) => {
    replay = found;
    body = game;
    const wanted = replay.versions.findIndex((v) => v.version === at);
    index = wanted >= 0 ? wanted : 0;
    render();
  }).catch((problem) => {
    error = problem.status === 409 ? t("This game is not over yet: its replay, every card shown, opens at its end.")
      : t("This replay cannot be opened. {why}", { why: problem.message });
    render();
  });
  document.addEventListener("keydown", onKey);
  render();
  return { close() { document.removeEventListener("keydown", onKey); } };
}
