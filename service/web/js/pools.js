// What the rating screens share: a rating pool's title, how a rating and a rank read,
// and the AI levels' names (they are players too, the scale's fixed landmarks).

import { api } from "./api.js";
import { h } from "./dom.js";
import { gameOf } from "./game-registry.js"; // looked up once games.js has run
import { plural, t } from "./i18n.js";

// OpenSkill's newcomer (mu 25, sigma 25/3): every player's rating before its first rated game.
export const NEWCOMER = { mu: 25, sigma: 25 / 3 };


export function poolTitle(pool) {
  return `${gameOf(pool.game)?.title || pool.game} · ${(pool.players.length === 1 ? t("{n} players", { n: pool.players[0] })
    : t("{fewest}–{most} players", { fewest: pool.players[0], most: pool.players.at(-1) }))}`;
}

// A player's name as shown: the AI levels in the reader's language.
export function playerLabel(player) {
  const level = /^ai-([1-5])$/.exec(player.id);
  return level ? t("AI level {n}", { n: Number(level[1]) }) : player.name;
}

// The rating players read (docs/players.md, "The rating shown"): the conservative value
// mu - 3 sigma the leaderboards order by, on a scale like lichess's, where a newcomer
// stands at 1500 and a point of mu is worth 20. The API keeps mu and sigma; this is the
// one place the shown figure is made. It is a whole number, and negative only for a
// value below -75, which no rating reaches.
const SHOWN_AT_ZERO = 1500;
const SHOWN_PER_POINT = 20;

export function shownRating(value) {
  return Math.round(SHOWN_AT_ZERO + SHOWN_PER_POINT * value);
}

export function rating(value) {
  return signed(shownRating(value), false);
}

// A change of the conservative value as a change of the shown rating: "+36", "−12" (one
// minus sign, the typographic one, wherever a rating is written).
export function ratingChange(delta) {
  return signed(Math.round(SHOWN_PER_POINT * delta), true);
}

function signed(n, plus) {
  const digits = String(Math.abs(n));  // 1500, as ratings are written, with no thousands sign
  return n < 0 ? `\u2212${digits}` : plus ? `+${digits}` : digits;
}

export function conservative(point) {
  return point.mu - 3 * point.sigma;
}

export function provisionalMark(provisional) {
  return provisional ? h("span.badge.provisional", { title: t("Provisional: fewer than 10 rated games, the rating still moves a lot") }, t("provisional")) : null;
}

// A standing's rank, or the rated games it still needs (the API's ranked_after).
export function rankText(standing) {
  if (standing.rank) return standing.rank === 1 ? t("rank 1") : t("rank {n}", { n: standing.rank });
  return plural(Math.max(1, standing.ranked_after - standing.rated_games),
    "not ranked yet: {n} more rated game", "not ranked yet: {n} more rated games");
}

// The five AI levels' ratings in each pool ({pool: [{label, value, mu, sigma}]}), read
// once: they never change.
let levels = null;
export function levelRatings() {
  levels ??= Promise.all([1, 2, 3, 4, 5].map((n) => api.player(`ai-${n}`))).then((found) => {
    const byPool = {};
    for (const level of found) {
      for (const r of level.ratings) (byPool[r.pool] ??= []).push({ label: `L${level.id.slice(3)}`, name: playerLabel(level), value: r.value, mu: r.mu, sigma: r.sigma });
    }
    for (const list of Object.values(byPool)) list.sort((a, b) => a.value - b.value);
    return byPool;
  }).catch((error) => { levels = null; throw error; });
  return levels;
}

// Where a rating lies among the AI levels, in words ("between AI level 2 and AI level 3").
export function placeAmongLevels(value, landmarks) {
  const below = landmarks.filter((l) => l.value <= value).at(-1);
  const above = landmarks.find((l) => l.value > value);
  if (below && above) return t("between {a} and {b}", { a: below.name, b: above.name });
  return below ? t("above {a}", { a: below.name }) : above ? t("below {b}", { b: above.name }) : "";
}
