// Being at a game's table: the page beats POST .../presence every 10 s while it shows the
// game (a seat by its token, a spectator by an id of this tab's own), and says it leaves
// when it closes. The answer says which seats are at the table and how many spectators
// watch; onChange gets it whenever it differs, with the seats this page has seen there
// (a seat never seen has not "left": its page may not have opened yet). A beat that fails changes nothing shown:
// the stream (stream.js) tells the player about the connection.
// Once the game is over its event stream has ended, and what is said at the table ("Good
// game") comes with the beats instead: each beat hands back the answer's cursor, so onHeard
// gets each reaction once; the page then beats every AFTER_GAME_BEAT_MS, so that a reaction
// shows within 5 s, the rest a seat keeps between two (reactions.js).

import { api } from "./api.js";

const BEAT_MS = 10000;  // the server counts a page gone 25 s after its last beat
const AFTER_GAME_BEAT_MS = 5000;  // a seat may say one reaction per 5 s

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

// over(): whether the game is over (the page beats faster and hears what is said).
export function attend({ id, token, onChange, onHeard, over }) {
  const viewer = token ? undefined : viewerId();
  let cursor = null;  // where this page stands in what was said after the game (the server's)
  let last = "";
  let timer = null;
  let stopped = false;

  const seen = new Set();  // the seats seen at the table by this page: only they can leave it

  let beating = false;  // one beat at a time: two with one cursor would hear a word twice
  async function beat() {
    if (beating) return;  // the beat under way answers, and sets the next one
    beating = true;
    clearTimeout(timer);
    try {
      const found = await api.presence(id, token, true, viewer, cursor);
      cursor = found.reactions_after;
      if (!stopped) found.reactions.forEach(onHeard);
      found.present.forEach((seat) => seen.add(seat));
      const key = JSON.stringify([found.present, found.spectators]);
      if (!stopped && key !== last) {
        last = key;
        onChange({ ...found, seen: [...seen] });
      }
    } catch { /* a missed beat: the next one tells */ }
    beating = false;
    if (!stopped) timer = setTimeout(beat, over() ? AFTER_GAME_BEAT_MS : BEAT_MS);
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
