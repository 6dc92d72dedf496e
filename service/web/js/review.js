// A finished game's review for one seat (POST then GET /v1/games/{id}/reviews): the
// server computes it in the background, so the page asks for it, shows its progress, then
// each decision of the seat: the move played beside the move the AI would have chosen,
// both estimated chances of winning, the worst few marked, and the position it was
// decided in (the replay's drawing). Up and Down step through the decisions; above them,
// the curve of the seat's chance of winning, whose points open a decision, and the
// mistakes counted with an accuracy (review-curve.js).

import { api } from "./api.js";
import { alarm, announce } from "./announce.js";
import { h, patch } from "./dom.js";
import { failedScreen, loadingScreen } from "./screens.js";
import { gameOf } from "./games.js";
import { decimal, isolate, plural, t } from "./i18n.js";
import { languageSwitch } from "./language.js";
import { narrate } from "./log.js";
import { seatOf } from "./saved.js";
import { seatName } from "./table-view.js";
import { judged, reviewFigures, winChanceCurve } from "./review-curve.js";

const POLL_MS = 600;
const RETRY_MS = 2000;  // between asks while the server cannot be reached

export function openReview(root, { id, seat, at }) {
  let replay = null;
  let body = null;
  let review = null;
  let index = 0;
  let error = null;
  let trouble = null;  // the server could not be reached while the review was computed
  let timer = null;
  let closed = false;

  function context() {
    const game = gameOf(replay.game);
    return {
      game, body: { ...body, version: replay.version }, view: body.view, you: body.you ?? null, id,
      legal: [], ui: {}, changed: new Set(), hints: false,
      plain: (s) => seatName(body, s),
      name: (s) => (body.seats?.[s]?.name ? isolate(seatName(body, s)) : seatName(body, s)),
    };
  }

  const entries = () => replay.versions.slice(1).map((v) => v.entry);

  // What a move of the seat at that version says in the log's words: the narrator reads
  // the game in order, so the game up to there is told first.
  function words(ctx, version, move) {
    const before = entries().filter((entry) => entry.version < version);
    const played = entries().find((entry) => entry.version === version);
    const told = narrate(ctx, [...before, { ...played, move }]);
    return told[told.length - 1].text;
  }

  // The AI's move in the same words, the AI its subject ("The AI played ...").
  function aiWords(ctx, version, move) {
    const ai = { ...ctx, you: ctx.you === seat ? null : ctx.you,
      name: (s) => (s === seat ? t("The AI") : ctx.name(s)), plain: (s) => (s === seat ? t("The AI") : ctx.plain(s)) };
    return words(ai, version, move);
  }

  function select(to) {
    const next = Math.max(0, Math.min(review.decisions.length - 1, to));
    if (next === index) return;
    index = next;
    history.replaceState(null, "", `#/review/${encodeURIComponent(id)}/${seat}/${review.decisions[index].version}`);
    render();
  }

  function render() {
    if (closed) return;
    alarm(error || trouble);
    if (error) {
      patch(root, failedScreen(error));
      return;
    }
    if (!replay) {
      patch(root, loadingScreen());
      return;
    }
    const ctx = context();
    const who = ctx.name(seat);
    const mine = seat === ctx.you;
    patch(root, h("div.review", { class: replay.game, "data-status": review?.status || "asking" },
      h("header.bar", {},
        h("a.brand", { href: "#/", "data-key": "home" }, h("span.logo", {}), "Crab Table"),
        h("span.game-name", {}, `${ctx.game.title} · ${t("review")}`),
        languageSwitch(),
        h("nav.review-links", { "aria-label": t("Links") },
          h("a.button.ghost", { href: `#/replay/${encodeURIComponent(id)}`, "data-key": "replay" }, t("Replay")),
          h("a.button.ghost", { href: `#/g/${encodeURIComponent(id)}`, "data-key": "result" }, t("The result")))),
      h("section.review-head", { "aria-labelledby": "review-title" },
        h("h1", { id: "review-title" }, mine ? t("Review of your decisions") : t("Review of {who}'s decisions", { who })),
        h("p.note", {}, review ? (mine
          ? t("Each of your decisions beside the move the AI (level {level}) would have chosen from what you knew then, with both moves' estimated chances of winning.", { level: review.level })
          : t("Each decision beside the move the AI (level {level}) would have chosen from what {who} knew then, with both moves' estimated chances of winning.", { level: review.level, who })) : ""),
        body.seats.length > 1 ? h("nav.review-seats", { "aria-label": t("Whose decisions") }, body.seats.map((_, s) =>
          h("a.button", { href: `#/review/${encodeURIComponent(id)}/${s}`, class: s === seat ? "primary" : "ghost",
            "aria-current": s === seat ? "page" : null, "data-key": `seat-${s}` }, h("bdi", {}, ctx.plain(s))))) : null),
      review?.status === "done" ? decisions(ctx) : progress()));
    if (review?.status === "done" && review.decisions.length) {
      announce(summary());
      keepInView();
    }
  }

  // The list follows the decision shown: in the middle of its box (a column, or a row on a phone).
  function keepInView() {
    const list = root.querySelector(".review-list");
    const current = list?.querySelector("li.current");
    if (!current) return;
    list.scrollTop = current.offsetTop - list.clientHeight / 2;
    list.scrollLeft = current.offsetLeft - list.clientWidth / 2;
  }

  function progress() {
    const running = review?.status === "running" && review.total !== null;
    const text = running ? t("{done} of {total} decisions reviewed…", { done: review.done, total: review.total })
      : t("Waiting for the reviewer…");
    announce(text);
    return h("section.review-progress", { "aria-label": t("Progress") },
      h("progress", { max: running ? review.total || 1 : undefined, value: running ? review.done : undefined, "aria-label": text }),
      h("p", {}, text),
      trouble ? h("p.error", {}, trouble) : null);
  }

  function summary() {
    const worst = review.decisions.filter((d) => d.worst).length;
    const count = plural(review.decisions.length, "{n} decision reviewed", "{n} decisions reviewed");
    return `${t("{first}; {then}", { first: count, then: worst ? plural(worst, "the worst is marked", "the {n} worst are marked") : t("no clear mistake") })}.`;
  }

  function decisions(ctx) {
    if (!review.decisions.length) {
      return h("p.review-empty", {}, seat === ctx.you ? t("You had no choice to make in this game: every move was forced.")
        : t("{who} had no choice to make in this game: every move was forced.", { who: ctx.name(seat) }));
    }
    const chosen = review.decisions[index];
    return h("div.review-body", {},
      h("section.review-curve", { "aria-label": t("Chance of winning before each decision") },
        winChanceCurve(review.decisions, index, select),
        reviewFigures(review.decisions),
        h("p.note", {}, t("Inaccuracy from 5 points of winning chance lost against the AI's choice, mistake from 10, blunder from 15; accuracy as lichess computes it from those losses."))),
      h("div.review-summary", {}, h("p", {}, summary()),
        h("p.note", {}, t("Each line: the chance of winning of the move played → of the AI's choice."))),
      h("ol.review-list", { "aria-label": t("Decisions"), onkeydown: onListKey }, review.decisions.map((d, i) =>
        h("li", { class: [d.worst && "worst", i === index && "current"].filter(Boolean).join(" ") },
          h("button.decision", { type: "button", "data-key": `decision-${i}`, "data-version": d.version,
            "aria-current": i === index ? "true" : null, onclick: () => select(i) },
            h("span.v", {}, `#${d.version}`),
            h("span.rates", {}, `${chance(d.played_win_rate)} → ${chance(d.best_win_rate)}`),
            d.worst ? h("span.badge.worst-mark", {}, t("worst")) : d.loss === 0 ? h("span.badge.same", {}, t("as the AI")) : null,
            kindBadge(d))))),
      detail(ctx, chosen));
  }

  function detail(ctx, d) {
    const position = replay.versions.find((v) => v.version === d.version - 1).position;
    const same = d.loss === 0 && JSON.stringify(d.played) === JSON.stringify(d.best);
    return h("section.review-detail", { "aria-labelledby": "decision-title", "data-version": d.version },
      h("h2", { id: "decision-title" }, t("Decision at move #{version}", { version: d.version }),
        d.worst ? h("span.badge.worst-mark", {}, t("one of the worst")) : null),
      h("dl.review-moves", {},
        h("dt", {}, t("Played")),
        h("dd.played", {}, words(ctx, d.version, d.played), " · ", h("b", {}, d.played_win_rate === null
          ? t("not tried by the search") : t("{chance} to win", { chance: chance(d.played_win_rate) }))),
        h("dt", {}, t("The AI's choice")),
        h("dd.best", {}, same ? t("the same move") : aiWords(ctx, d.version, d.best), " · ",
          h("b", {}, t("{chance} to win", { chance: chance(d.best_win_rate) }))),
        h("dt", {}, t("Cost")),
        h("dd.loss", {}, d.loss === null ? t("unknown: the search never tried the move played")
          : d.loss === 0 ? t("none") : d.loss < 0.005 ? t("less than a point of winning chance")
          : t("{points} points of winning chance", { points: decimal(d.loss * 100, 0) }))),
      h("p.note", {}, plural(d.legal_moves, "{n} move to choose from", "{n} moves to choose from"), " · ",
        h("a", { href: `#/replay/${encodeURIComponent(id)}/${d.version - 1}`, "data-key": "in-replay" }, t("This position in the replay"))),
      h("section.board.replay-board", { "aria-label": t("Table") }, ctx.game.replayBoard(ctx, position)),
      h("div.replay-seat", { "data-seat": seat, "aria-label": t("{who}'s cards", { who: ctx.plain(seat) }) },
        h("h3.name", {}, h("bdi", {}, ctx.plain(seat))),
        ctx.game.replaySeat(ctx, position, seat)));
  }

  function onListKey(event) {
    const moves = { ArrowUp: index - 1, ArrowDown: index + 1, Home: 0, End: review.decisions.length - 1 };
    if (!(event.key in moves)) return;
    event.preventDefault();
    select(moves[event.key]);
    root.querySelector(`[data-key="decision-${index}"]`)?.focus();
  }

  function follow(found) {
    review = found;
    trouble = null;
    if (review.status === "done") {
      const wanted = review.decisions.findIndex((d) => d.version === at);
      index = wanted >= 0 ? wanted : 0;
    } else {
      ask(POLL_MS);
    }
    render();
  }

  // Asked for (again, if the asking itself was lost: asking twice is one review), then
  // read until it is done.
  function ask(after) {
    timer = setTimeout(() => (review ? api.review(id, seat) : api.askReview(id, seat)).then(follow, lost), after);
  }

  // The review goes on on the server: a connection lost meanwhile (or a server that
  // answers 503 for a while) is waited out, the progress kept in view.
  function lost(problem) {
    if (problem.status !== 0 && problem.status !== 503) return fail(problem);
    trouble = t("The server cannot be reached, retrying…");
    ask(RETRY_MS);
    render();
  }

  function fail(problem) {
    error = problem.status === 409 ? t("This game is not over yet: its review opens at its end.")
      : t("This review cannot be opened. {why}", { why: problem.message });
    render();
  }

  // With this browser's token the game says which seat is the reader's ("You").
  Promise.all([api.replay(id), api.game(id, seatOf(id)?.token)]).then(([found, game]) => {
    replay = found;
    body = game;
    if (!(seat >= 0 && seat < body.seats.length)) throw { status: 404, message: t("This game has no such seat.") };
    render();
    return api.askReview(id, seat).then(follow, lost);
  }).catch(fail);
  window.addEventListener("resize", keepInView);  // a column turned into a row, or back
  render();
  return { close() { closed = true; clearTimeout(timer); window.removeEventListener("resize", keepInView); } };
}

// A decision's kind in the list (an inaccuracy, a mistake or a blunder), if any.
function kindBadge(decision) {
  const kind = judged(decision);
  return kind && kind !== "unknown" ? h("span.badge.kind", { class: kind }, t(kind)) : null;
}

// A chance of winning as a percentage, as the reader writes it.
function chance(rate) {
  return rate === null ? "?" : t("{p}%", { p: decimal(rate * 100, 0) });
}
