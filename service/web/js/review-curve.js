// A review as lichess shows one: the seat's chance of winning over the game (the judge's
// `win_chance` before each decision, core.ai.evaluate), each point a link to that
// decision; the inaccuracies, mistakes and blunders counted; and an accuracy figure.
//
// A decision's drop is what choosing the move played cost against the AI's choice:
// best_win_rate - played_win_rate (the review's `loss`), in points of winning chance.
// Thresholds (lichess's, on its win-chance scale): an inaccuracy from 5 points, a mistake
// from 10, a blunder from 15. Accuracy (lichess's per-move formula, from the drop d in
// points): 103.1668 e^(-0.04354 d) - 3.1669, within 0 and 100; the game's is the mean of
// its decisions'. A decision whose move played the search never tried (loss null) is
// left out of both, and said so.

import { h } from "./dom.js";
import { addFrench } from "./french.js";
import { decimal, plural, t } from "./i18n.js";

const NS = "http://www.w3.org/2000/svg";
const W = 640, H = 170, LEFT = 36, RIGHT = 10, TOP = 10, BOTTOM = 22;
export const THRESHOLDS = { inaccuracy: 5, mistake: 10, blunder: 15 };  // points of winning chance

// What a decision was: "blunder", "mistake", "inaccuracy", null (fine), or "unknown".
export function judged(decision) {
  if (decision.loss === null) return "unknown";
  const drop = decision.loss * 100;
  return drop >= THRESHOLDS.blunder ? "blunder" : drop >= THRESHOLDS.mistake ? "mistake"
    : drop >= THRESHOLDS.inaccuracy ? "inaccuracy" : null;
}

export function moveAccuracy(decision) {
  const drop = Math.max(0, decision.loss * 100);
  return Math.min(100, Math.max(0, 103.1668 * Math.exp(-0.04354 * drop) - 3.1669));
}

// The game's accuracy (null with no decision the search could judge).
export function accuracy(decisions) {
  const known = decisions.filter((d) => d.loss !== null);
  return known.length ? known.reduce((sum, d) => sum + moveAccuracy(d), 0) / known.length : null;
}

function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(NS, tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value);
  }
  for (const child of children.flat()) if (child) node.append(child);
  return node;
}

// The counts and the accuracy, in words.
export function reviewFigures(decisions) {
  const count = (kind) => decisions.filter((d) => judged(d) === kind).length;
  const figure = accuracy(decisions);
  const unknown = count("unknown");
  return h("dl.review-figures", {},
    h("div", {}, h("dt", {}, t("Accuracy")), h("dd", { "data-key": "accuracy" }, figure === null ? "?" : t("{p}%", { p: decimal(figure, 0) }))),
    h("div.blunder", {}, h("dt", {}, t("Blunders")), h("dd", { "data-key": "blunders" }, String(count("blunder")))),
    h("div.mistake", {}, h("dt", {}, t("Mistakes")), h("dd", { "data-key": "mistakes" }, String(count("mistake")))),
    h("div.inaccuracy", {}, h("dt", {}, t("Inaccuracies")), h("dd", { "data-key": "inaccuracies" }, String(count("inaccuracy")))),
    unknown ? h("p.note", {}, plural(unknown, "{n} decision the search never tried is left out.", "{n} decisions the search never tried are left out.")) : null);
}

// The curve of the seat's chance of winning; onPick(i) opens decision i.
export function winChanceCurve(decisions, current, onPick) {
  const n = decisions.length;
  const x = (i) => LEFT + (n === 1 ? (W - LEFT - RIGHT) / 2 : i * (W - LEFT - RIGHT) / (n - 1));
  const y = (p) => TOP + (1 - p) * (H - TOP - BOTTOM);
  const path = decisions.map((d, i) => `${i ? "L" : "M"}${x(i).toFixed(1)},${y(d.win_chance).toFixed(1)}`).join("");
  const area = `${path}L${x(n - 1).toFixed(1)},${y(0)}L${x(0).toFixed(1)},${y(0)}Z`;
  return svg("svg", { class: "win-curve", viewBox: `0 0 ${W} ${H}`, role: "group",
                      "aria-label": t("Your chance of winning before each decision") },
    svg("title", {}, t("Chance of winning before each decision")),
    [0, 0.5, 1].map((p) => svg("g", { class: p === 0.5 ? "axis half" : "axis" },
      svg("line", { x1: LEFT, x2: W - RIGHT, y1: y(p), y2: y(p) }),
      svg("text", { x: LEFT - 4, y: y(p) + 4, "text-anchor": "end", class: "tick" }, t("{p}%", { p: decimal(p * 100, 0) })))),
    svg("path", { d: area, class: "area" }),
    svg("path", { d: path, class: "curve" }),
    decisions.map((d, i) => {
      const kind = judged(d);
      const label = t("Move #{version}: {chance} to win", { version: d.version, chance: t("{p}%", { p: decimal(d.win_chance * 100, 0) }) })
        + (kind && kind !== "unknown" ? ` · ${t(kind)}` : "");
      return svg("a", { href: "#", class: ["point", kind, i === current && "current"].filter(Boolean).join(" "),
        "data-key": `point-${i}`, "aria-label": label,
        onclick: (event) => { event.preventDefault(); onPick(i); } },
        svg("title", {}, label),
        svg("circle", { cx: x(i), cy: y(d.win_chance), r: i === current ? 7 : kind === "blunder" || kind === "mistake" ? 5.5 : 4 }));
    }),
    svg("text", { x: LEFT, y: H - 5, class: "tick" }, t("first decision")),
    svg("text", { x: W - RIGHT, y: H - 5, class: "tick", "text-anchor": "end" }, t("last decision")));
}

addFrench({
  "Accuracy": "Précision",
  "Blunders": "Gaffes",
  "Mistakes": "Erreurs",
  "Inaccuracies": "Imprécisions",
  "blunder": "gaffe",
  "mistake": "erreur",
  "inaccuracy": "imprécision",
  "{n} decision the search never tried is left out.": "{n} décision que la recherche n’a jamais essayée est laissée de côté.",
  "{n} decisions the search never tried are left out.": "{n} décisions que la recherche n’a jamais essayées sont laissées de côté.",
  "Your chance of winning before each decision": "Votre chance de gagner avant chaque décision",
  "Chance of winning before each decision": "Chance de gagner avant chaque décision",
  "Move #{version}: {chance} to win": "Coup n°{version} : {chance} de gagner",
  "first decision": "première décision",
  "last decision": "dernière décision",
  "Inaccuracy from 5 points of winning chance lost against the AI's choice, mistake from 10, blunder from 15; accuracy as lichess computes it from those losses.":
    "Imprécision dès 5 points de chance de gagner perdus face au choix de l’IA, erreur dès 10, gaffe dès 15 ; précision calculée comme lichess à partir de ces pertes.",
});
