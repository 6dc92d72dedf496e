// A rating's history as a small inline SVG (no library): the conservative rating
// (mu - 3 sigma) after each rated game, the band up to mu, and the AI levels as dashed
// landmarks, so that a player sees where it stands on their scale.

import { labelled, plural, t } from "./i18n.js";
import { rating } from "./pools.js";

const NS = "http://www.w3.org/2000/svg";
const W = 320, H = 140, LEFT = 40, RIGHT = 44, TOP = 10, BOTTOM = 18;
const LABEL_GAP = 12;  // the landmarks' labels at least this far apart, each near its line


function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(NS, tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  for (const child of children.flat()) if (child) node.append(child);
  return node;
}

// points: [{mu, sigma}] oldest first (fromStart: the first is the newcomer's prior);
// landmarks: [{label, value}] (the AI levels' conservative ratings).
export function ratingChart(points, landmarks = [], fromStart = false) {
  const values = points.map((p) => p.mu - 3 * p.sigma);
  const tops = points.map((p) => p.mu);
  const span = [...values, ...tops];
  // The landmarks near the player's curve, so that the curve does not flatten to a line.
  const low = Math.min(...span), high = Math.max(...span);
  const near = landmarks.filter((l) => l.value >= low - 8 && l.value <= high + 8);
  const all = [...span, ...near.map((l) => l.value)];
  let min = Math.floor(Math.min(...all) - 1), max = Math.ceil(Math.max(...all) + 1);
  if (max - min < 6) { min -= 3; max += 3; }
  const x = (i) => LEFT + (points.length === 1 ? (W - LEFT - RIGHT) / 2 : i * (W - LEFT - RIGHT) / (points.length - 1));
  const y = (v) => TOP + (max - v) * (H - TOP - BOTTOM) / (max - min);
  const line = (vs) => vs.map((v, i) => `${i ? "L" : "M"}${x(i).toFixed(1)},${y(v).toFixed(1)}`).join("");
  const band = `${line(tops)}${values.map((v, i) => `L${x(values.length - 1 - i).toFixed(1)},${y(values[values.length - 1 - i]).toFixed(1)}`).join("")}Z`;
  const last = values.length - 1;
  return svg("svg", { class: "rating-chart", viewBox: `0 0 ${W} ${H}`, role: "img",
                      "aria-label": labelled(t("Rating after each rated game"), values.map(rating).join(", ")) },
    svg("title", {}, t("Rating after each rated game")),
    svg("line", { x1: LEFT, x2: W - RIGHT, y1: H - BOTTOM, y2: H - BOTTOM, class: "axis" }),
    [min, max].map((v) => svg("text", { x: LEFT - 4, y: y(v) + 4, class: "tick", "text-anchor": "end" }, rating(v))),
    apart(near.map((l) => y(l.value))).map((at, i) => svg("g", { class: "landmark" },
      svg("line", { x1: LEFT, x2: W - RIGHT, y1: y(near[i].value), y2: y(near[i].value) }),
      svg("text", { x: W - RIGHT + 3, y: at + 4 }, near[i].label))),
    svg("path", { d: band, class: "band" }),
    svg("path", { d: line(values), class: "curve" }),
    values.map((v, i) => svg("circle", { cx: x(i), cy: y(v), r: i === last ? 4 : 2.5, class: i === last ? "dot last" : "dot" })),
    fromStart ? svg("text", { x: LEFT, y: H - 4, class: "tick" }, t("start")) : null,
    svg("text", { x: W - RIGHT, y: H - 4, class: "tick", "text-anchor": "end" }, plural(points.length - (fromStart ? 1 : 0), "{n} rated game|chart", "{n} rated games|chart")));
}

// Heights for labels wanted at ys (in any order): as near each as can be with none closer
// than LABEL_GAP to another (two levels of close ratings, L3 and L5, stay readable).
function apart(ys) {
  const order = ys.map((y, i) => i).sort((a, b) => ys[a] - ys[b]);
  const placed = [...ys];
  order.forEach((index, k) => {
    if (k) placed[index] = Math.max(ys[index], placed[order[k - 1]] + LABEL_GAP);
  });
  const overflow = Math.max(0, ...placed.map((y) => y - (H - BOTTOM)));  // pushed past the axis: all up
  return placed.map((y) => y - overflow);
}
