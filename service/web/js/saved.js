// What this browser remembers: its seat token per game (kept only here: no link carries
// one) and the player's name.

const KEY = "crab-table.games";

function all() {
  try { return JSON.parse(localStorage.getItem(KEY)) || {}; } catch { return {}; }
}

export function seatOf(id) {
  return all()[id] || null;
}

export function remember(id, entry) {
  const games = all();
  games[id] = { ...games[id], ...entry, at: Date.now() };
  const recent = Object.entries(games).sort((a, b) => b[1].at - a[1].at).slice(0, 20);
  localStorage.setItem(KEY, JSON.stringify(Object.fromEntries(recent)));
}

export function recentGames() {
  return Object.entries(all()).sort((a, b) => b[1].at - a[1].at).map(([id, entry]) => ({ id, ...entry }));
}

export function playerName() {
  return localStorage.getItem("crab-table.name") || "";
}

export function setPlayerName(name) {
  localStorage.setItem("crab-table.name", name);
}
