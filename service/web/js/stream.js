// Follows a game: the server's event stream when it has one, else polling. Either way the
// caller gets onGame(body, entry) once per new version (entry: the history entry that made
// it, when known) and the follower stops by itself once the game is over.

import { api } from "./api.js";

const POLL_MS = 700;

export function follow({ id, token, events, onGame, onTrouble }) {
  return events ? streamEvents({ id, token, onGame, onTrouble }) : poll({ id, token, onGame, onTrouble });
}

function streamEvents({ id, token, onGame, onTrouble }) {
  const source = new EventSource(api.eventsUrl(id, token));
  let over = false;
  let fallback = null;
  source.addEventListener("game", (event) => {
    const data = JSON.parse(event.data);
    onTrouble(null);
    onGame(data.game, data.entry);
    over = data.game.status === "over";
    if (over) source.close(); // else EventSource would reconnect
  });
  source.onerror = () => {
    if (source.readyState !== EventSource.CLOSED) onTrouble("Connection lost, reconnecting…");
    else if (!over) fallback = poll({ id, token, onGame, onTrouble }); // the stream was refused
  };
  return { close: () => { source.close(); fallback?.close(); }, poke: () => fallback?.poke() };
}

function poll({ id, token, onGame, onTrouble }) {
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
      if (body.status === "over") return;
    } catch (error) {
      onTrouble(error.message);
    }
    if (!stopped) timer = setTimeout(tick, POLL_MS);
  }
  let lastStatus = null;
  tick();
  return { close: () => { stopped = true; clearTimeout(timer); }, poke: tick };
}
