// What the rating screens share: a rating pool's title, how a rating and a rank read,
// and the AI levels' names (they are players too, the scale's fixed landmarks).

import { api } from "./api.js";
import { h } from "./dom.js";
import { gameOf } from "./game-registry.js"; // looked up once games.js has run
import { decimal, localized } from "./lang.js";

// OpenSkill's newcomer (mu 25, sigma 25/3): every player's rating before its first rated game.
export const NEWCOMER = { mu: 25, sigma: 25 / 3 };

const T = localized({
  en: {
    players: (counts) => counts.length === 1 ? `${counts[0]} players` : `${counts[0]}–${counts.at(-1)} players`,
    level: (n) => `AI level ${n}`,
    provisional: "provisional",
    provisionalTitle: "Provisional: fewer than 10 rated games, the rating still moves a lot",
    unranked: (left) => `not ranked yet: ${left} more rated game${left === 1 ? "" : "s"}`,
    rank: (n) => `rank ${n}`,
    between: (a, b) => `between ${a} and ${b}`,
    above: (a) => `above ${a}`,
    below: (b) => `below ${b}`,
  },
  fr: {
    players: (counts) => counts.length === 1 ? `${counts[0]} joueurs` : `${counts[0]} à ${counts.at(-1)} joueurs`,
    level: (n) => `IA niveau ${n}`,
    provisional: "provisoire",
    provisionalTitle: "Provisoire : moins de 10 parties classées, la cote bouge encore beaucoup",
    unranked: (left) => `pas encore classé : encore ${left} partie${left === 1 ? "" : "s"} classée${left === 1 ? "" : "s"}`,
    rank: (n) => `${n}${n === 1 ? "er" : "e"} du classement`,
    between: (a, b) => `entre ${a} et ${b}`,
    above: (a) => `au-dessus de ${a}`,
    below: (b) => `en dessous de ${b}`,
  },
});

export function poolTitle(pool) {
  return `${gameOf(pool.game)?.title || pool.game} · ${T.players(pool.players)}`;
}

// A player's name as shown: the AI levels in the reader's language.
export function playerLabel(player) {
  const level = /^ai-([1-5])$/.exec(player.id);
  return level ? T.level(Number(level[1])) : player.name;
}

export function rating(value) {
  return decimal(value, 1);
}

export function conservative(point) {
  return point.mu - 3 * point.sigma;
}

export function provisionalMark(provisional) {
  return provisional ? h("span.badge.provisional", { title: T.provisionalTitle }, T.provisional) : null;
}

// A standing's rank, or the rated games it still needs (the API's ranked_after).
export function rankText(standing) {
  return standing.rank ? T.rank(standing.rank) : T.unranked(Math.max(1, standing.ranked_after - standing.rated_games));
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
  if (below && above) return T.between(below.name, above.name);
  return below ? T.above(below.name) : above ? T.below(above.name) : "";
}
