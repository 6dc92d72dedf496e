// Follows a game: its event stream, or polling if the stream is refused. Either way the
// caller gets onGame(body, entry) once per new version (entry: the history entry that made
// it, when known). The follower stops by itself once the game is over, or, for a seated
// player (rematches), once it is over and a rematch was set up: a seat learns of it from
// this game.

import { api } from "./api.js";

const POLL_MS = 700;
const POLL_OVER_MS = 5000; // a finished game changes once at most: when a rematch is set up

export function follow({ id, token, rematches, onGame, onTrouble }) {
  const finished = (body) => body.status === "over" && (!rematches || !!body.rematch);
  return streamEvents({ id, token, finished, onGame, onTrouble });
}

function streamEvents({ id, token, finished, onGame, onTrouble }) {
  const source = new EventSource(api.eventsUrl(id, token));
  let over = false;      // the game is over: the server ends each stream after its last event
  let done = false;      // nothing more to wait for
  let fallback = null;
  source.addEventListener("game", (event) => {
    const data = JSON.parse(event.data);
    onTrouble(null);
    onGame(data.game, data.entry);
    over = data.game.status === "over";
    done = finished(data.game);
    if (done) source.close(); // else EventSource reconnects (and waits there for a rematch)
  });
  source.onerror = () => {
    if (source.readyState !== EventSource.CLOSED) onTrouble(over ? null : "Connection lost, reconnecting…");
    else if (!done) fallback = poll({ id, token, finished, onGame, onTrouble }); // the stream was refused
  };
  return { close: () => { source.close(); fallback?.close(); }, poke: () => fallback?.poke() };
}

function poll({ id, token, finished, onGame, onTrouble }) {
  let version = -1;
  let lastStatus = null;
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
    if (!stopped) timer = setTimeout(tick, lastStatus === "over" ? POLL_OVER_MS : POLL_MS);
  }
  tick();
  return { close: () => { stopped = true; clearTimeout(timer); }, poke: tick };
}
