// Follows a game: its event stream, or polling if the stream is refused. Either way the
// caller gets onGame(body, entry) once per new version (entry: the history entry that made
// it, when known). The follower stops by itself once the game is over, or, for a seated
// player (rematches), once it is over and a rematch was set up: a seat learns of it from
// this game.

import { api } from "./api.js";

const POLL_MS = 700;

export function follow({ id, token, rematches, onGame, onTrouble }) {
  const finished = (body) => body.status === "over" && (!rematches || !!body.rematch);
  return streamEvents({ id, token, finished, onGame, onTrouble });
}

function streamEvents({ id, token, finished, onGame, onTrouble }) {
  const source = new EventSource(api.eventsUrl(id, token));
  let over = false;
  let fallback = null;
  source.addEventListener("game", (event) => {
    const data = JSON.parse(event.data);
    onTrouble(null);
    onGame(data.game, data.entry);
    over = finished(data.game);
    if (over) source.close(); // else EventSource would reconnect (and wait for a rematch)
  });
  source.onerror = () => {
    if (source.readyState !== EventSource.CLOSED) onTrouble(over ? null : "Connection lost, reconnecting…");
    else if (!over) fallback = poll({ id, token, finished, onGame, onTrouble }); // the stream was refused
  };
  return { close: () => { source.close(); fallback?.close(); }, poke: () => fallback?.poke() };
}

function poll({ id, token, finished, onGame, onTrouble }) {
  let version = -1;
  let timer = null;
  let stopped = false;
  async function tick() {
    clearTimeout(timer);
    if (stopped) return;
    try {
      const body = await api.game(id, token);
      onTrouble(null);
      if (body.version !== version || body.status !== lastStatus) {
        version = body.version;
        lastStatus = body.status;
        onGame(body, null);
      }
      if (finished(body)) return;
    } catch (error) {
      onTrouble(error.message);
    }
    if (!stopped) timer = setTimeout(tick, POLL_MS);
  }
  let lastStatus = null;
  tick();
  return { close: () => { stopped = true; clearTimeout(timer); }, poke: tick };
}
