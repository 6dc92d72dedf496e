// Being at a game's table: the page beats POST .../presence every 10 s while it shows the
// game (a seat by its token, a spectator by an id of this tab's own), and says it leaves
// when it closes. The answer says which seats are at the table and how many spectators
// watch; onChange gets it whenever it differs, with the seats this page has seen there
// (a seat never seen has not "left": its page may not have opened yet). A beat that fails changes nothing shown:
// the stream (stream.js) tells the player about the connection.

import { api } from "./api.js";

const BEAT_MS = 10000;  // the server counts a page gone 25 s after its last beat

// A spectator's id for this tab: random, never a token, the same while the tab lives.
function viewerId() {
  try {
    let id = sessionStorage.getItem("crab-table.viewer");
    if (!id) {
      id = Array.from(crypto.getRandomValues(new Uint8Array(12)), (b) => b.toString(16).padStart(2, "0")).join("");
      sessionStorage.setItem("crab-table.viewer", id);
    }
    return id;
  } catch {
    return Array.from(crypto.getRandomValues(new Uint8Array(12)), (b) => b.toString(16).padStart(2, "0")).join("");
  }
}

export function attend({ id, token, onChange }) {
  const viewer = token ? undefined : viewerId();
  let last = "";
  let timer = null;
  let stopped = false;

  const seen = new Set();  // the seats seen at the table by this page: only they can leave it

  async function beat() {
    clearTimeout(timer);
    try {
      const found = await api.presence(id, token, true, viewer);
      found.present.forEach((seat) => seen.add(seat));
      const key = JSON.stringify([found.present, found.spectators]);
      if (!stopped && key !== last) {
        last = key;
        onChange({ ...found, seen: [...seen] });
      }
    } catch { /* a missed beat: the next one tells */ }
    if (!stopped) timer = setTimeout(beat, BEAT_MS);
  }

  function leave() {
    // keepalive: the request outlives the page it was sent from.
    const headers = { "Content-Type": "application/json" };
    if (token) headers.Authorization = `Bearer ${token}`;
    fetch(`/v1/games/${encodeURIComponent(id)}/presence`, {
      method: "POST", keepalive: true, headers, body: JSON.stringify({ here: false, viewer }),
    }).catch(() => {});
  }

  window.addEventListener("pagehide", leave);
  beat();
  return {
    // Beat now (the game just ended: who is still there matters now).
    now() { if (!stopped) beat(); },
    close() {
      stopped = true;
      clearTimeout(timer);
      window.removeEventListener("pagehide", leave);
      leave();
    },
  };
}
