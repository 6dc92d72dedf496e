// A rating's history as a small inline SVG (no library): the conservative rating
// (mu - 3 sigma) after each rated game, over the dates the games ended, the band up to mu,
// and the AI levels as dashed landmarks, so that a player sees where it stands on their
// scale and when it moved.

import { labelled, language, plural, t } from "./i18n.js";
import { rating } from "./pools.js";

const NS = "http://www.w3.org/2000/svg";
const W = 320, H = 156, LEFT = 40, RIGHT = 44, TOP = 10, BOTTOM = 32;
const LABEL_GAP = 12;  // the landmarks' labels at least this far apart, each near its line
const TICK_GAP = 8;    // the dates under the axis at least this far apart
const CHAR_WIDTH = 5.6;  // a 10 px label's mean advance per character, to keep dates apart
const DAY_MS = 86400000;


function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(NS, tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  for (const child of children.flat()) if (child) node.append(child);
  return node;
}

// points: [{mu, sigma, ended_at}] oldest first (fromStart: the first is the newcomer's
// prior, dated nothing: drawn just before the first game); landmarks: [{label, value}]
// (the AI levels' conservative ratings). The x axis is time: each game where it ended.
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
  const times = instants(points, fromStart);
  const first = times[0], last = times[times.length - 1];
  const xAt = (time) => LEFT + (last === first ? (W - LEFT - RIGHT) / 2 : (time - first) * (W - LEFT - RIGHT) / (last - first));
  const x = (i) => xAt(times[i]);
  const y = (v) => TOP + (max - v) * (H - TOP - BOTTOM) / (max - min);
  const line = (vs) => vs.map((v, i) => `${i ? "L" : "M"}${x(i).toFixed(1)},${y(v).toFixed(1)}`).join("");
  const band = `${line(tops)}${values.map((v, i) => `L${x(values.length - 1 - i).toFixed(1)},${y(values[values.length - 1 - i]).toFixed(1)}`).join("")}Z`;
  const lastIndex = values.length - 1;
  const dated = points.map((p, i) => p.ended_at ? `${rating(values[i])} (${shortDate(p.ended_at)})` : rating(values[i]));
  return svg("svg", { class: "rating-chart", viewBox: `0 0 ${W} ${H}`, role: "img",
                      "aria-label": labelled(t("Rating after each rated game"), dated.join(", ")) },
    svg("title", {}, t("Rating after each rated game")),
    svg("line", { x1: LEFT, x2: W - RIGHT, y1: H - BOTTOM, y2: H - BOTTOM, class: "axis" }),
    [min, max].map((v) => svg("text", { x: LEFT - 4, y: y(v) + 4, class: "tick", "text-anchor": "end" }, rating(v))),
    apart(near.map((l) => y(l.value))).map((at, i) => svg("g", { class: "landmark" },
      svg("line", { x1: LEFT, x2: W - RIGHT, y1: y(near[i].value), y2: y(near[i].value) }),
      svg("text", { x: W - RIGHT + 3, y: at + 4 }, near[i].label))),
    svg("path", { d: band, class: "band" }),
    svg("path", { d: line(values), class: "curve" }),
    values.map((v, i) => svg("circle", { cx: x(i), cy: y(v), r: i === lastIndex ? 4 : 2.5, class: i === lastIndex ? "dot last" : "dot" })),
    dateTicks(points, times, xAt),
    fromStart ? svg("text", { x: LEFT, y: H - 3, class: "tick" }, t("start")) : null,
    svg("text", { x: W - RIGHT, y: H - 3, class: "tick", "text-anchor": "end" }, plural(points.length - (fromStart ? 1 : 0), "{n} rated game|chart", "{n} rated games|chart")));
}

// Each point's instant in ms; the newcomer's prior a little before the first game.
function instants(points, fromStart) {
  const dated = points.map((p) => (p.ended_at ? Date.parse(p.ended_at) : NaN));
  if (fromStart && dated.length > 1) {
    const spread = dated[dated.length - 1] - dated[1];
    dated[0] = dated[1] - Math.max(spread * 0.06, 60000);
  }
  return dated.map((time, i) => (Number.isNaN(time) ? i : time));  // undated: by index
}

// Dates under the axis, where the games are: the first and the last game's, and between
// them evenly spaced ones while they fit; none closer than TICK_GAP to another.
function dateTicks(points, times, xAt) {
  const games = points.map((p, i) => i).filter((i) => points[i].ended_at);
  if (!games.length) return null;
  const from = times[games[0]], to = times[games[games.length - 1]];
  const oneDay = new Date(from).toDateString() === new Date(to).toDateString();
  const label = (time, withDay) => oneDay && !withDay ? clock(time) : oneDay ? `${shortDate(time)} ${clock(time)}` : shortDate(time, to - from > 300 * DAY_MS);
  const wanted = [[from, "start", true], [to, "end", false]];
  if (to > from) for (const k of [1, 2, 3]) wanted.push([from + (to - from) * k / 4, "middle", false]);
  const placed = [];
  for (const [time, anchor, withDay] of to === from ? wanted.slice(0, 1) : wanted) {
    const text = label(time, withDay);
    const at = xAt(time);
    const width = text.length * CHAR_WIDTH;
    const left = anchor === "start" ? at : anchor === "end" ? at - width : at - width / 2;
    const box = [Math.max(left, 0), Math.min(left + width, W)];
    if (placed.some(([a, b]) => box[0] < b + TICK_GAP && a < box[1] + TICK_GAP)) continue;
    placed.push([...box, text, at, anchor]);
  }
  return placed.map(([, , text, at, anchor]) => svg("text", { x: at.toFixed(1), y: H - BOTTOM + 12, class: "tick date", "text-anchor": anchor }, text));
}

function shortDate(instant, withYear = false) {
  return new Date(instant).toLocaleDateString(language(), withYear ? { month: "short", year: "numeric" } : { day: "numeric", month: "short" });
}

function clock(instant) {
  return new Date(instant).toLocaleTimeString(language(), { hour: "2-digit", minute: "2-digit" });
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
