// This browser's player (docs/players.md): made once, the first time something needs it
// (a game created or joined, the queue, the profile), its key kept in this browser only
// (localStorage, as saved.js keeps seat tokens; no link or log ever carries it). The key
// binds the seats this browser takes, so that its games are rated when they can be.

import { api } from "./api.js";
import { t } from "./i18n.js";
import { playerName, setPlayerName } from "./saved.js";

const KEY = "crab-table.player";


let making = null;  // one creation at a time: two clicks must not make two players

// {id, key, name} of this browser's player, or null before it is made.
export function currentPlayer() {
  try { return JSON.parse(localStorage.getItem(KEY)); } catch { return null; }
}

// This browser's player, made now (named `name`, else the name last typed here, else a
// guest's) if it does not exist yet.
export async function ensurePlayer(name) {
  const known = currentPlayer();
  if (known) return known;
  making ??= (async () => {
    const chosen = (name || playerName()).trim() || t("Player {n}", { n: 1000 + Math.floor(Math.random() * 9000) });
    const made = await api.newPlayer(chosen);
    const player = { id: made.id, key: made.key, name: made.name };
    localStorage.setItem(KEY, JSON.stringify(player));
    setPlayerName(made.name);
    return player;
  })().finally(() => { making = null; });
  return making;
}

// The player's new name, on the server (profiles and leaderboards) and here.
export async function renamePlayer(name) {
  const player = currentPlayer();
  const renamed = await api.rename(player.key, name.trim());
  localStorage.setItem(KEY, JSON.stringify({ ...player, name: renamed.name }));
  setPlayerName(renamed.name);
  return renamed;
}

// The seat this browser's player takes in a new game: bound to it when there is one.
export function humanSeat(player, name) {
  const seat = { type: "human" };
  if (player) seat.player = player.key;
  if (name) seat.name = name;
  return seat;
}
