// Follows a game: its event stream, read through fetch so that the seat token travels in
// the Authorization header (never in a URL, which a browser prints in its console errors),
// with polling when the stream will not work. The caller gets onGame(body, entry) once per
// new version (entry: the history entry that made it, when known), onTrouble(message or
// null) on every change of the connection's state (null: the server answers again), and
// onGone(problem) once, when the server no longer knows the game or the seat: then nothing
// is read any more; onReaction(reaction) for each quick reaction said at the table while
// the stream is open (reactions.js).
//
// Every failure ends in a known state, said as soon as it is known and unsaid as soon as it
// no longer holds: a stream cut by the network is followed by one read of the game (the
// board catches up at once) and reconnects with a growing delay; the warning clears once a
// stream opens or a read succeeds; a browser that goes offline is told so at once, and
// tries again the moment it is back online; a stream that keeps failing while reads work
// (a proxy that buffers event streams) gives way to polling; a 404 or 401 stops everything
// (a server ends the stream of a game it no longer has, so a seat waiting for others
// learns it too). The follower stops by itself once the game is over, or, for a seated
// player (rematches), once it is over and a rematch was set up.

import { api, ApiError } from "./api.js";
import { t } from "./i18n.js";

const POLL_MS = 700;
const POLL_OVER_MS = 5000;   // a finished game changes once at most: when a rematch is set up
const RETRY_MS = [1000, 2000, 4000, 8000, 15000];
const STALL_MS = 45000;      // the server sends a comment every 15 s: silence this long is a cut
const STREAM_FAILURES = 3;   // streams cut in a row while reads work: poll instead

export function follow({ id, token, rematches, onGame, onTrouble, onGone, onReaction }) {
  const finished = (body) => body.status === "over" && (!rematches || !!body.rematch);
  let version = -1;
  let status = null;
  let stopped = false;
  let failures = 0;
  let timer = null;
  let abort = null;
  let polling = false;
  const offline = () => t("You are offline: the table catches up as soon as your connection is back.");
  // What the connection's state is, after a read that did or did not work.
  const trouble = (read) => !navigator.onLine ? offline()
    : read || status === "over" ? null : t("The server cannot be reached, retrying…");

  function take(body, entry) {
    if (body.version === version && body.status === status && !entry) return;
    version = Math.max(version, body.version);
    status = body.status;
    onGame(body, entry);
  }

  function gone(error) {
    stop();
    onGone(error);
  }

  function stop() {
    stopped = true;
    abort?.abort();
    clearTimeout(timer);
    removeEventListener("offline", wentOffline);
    removeEventListener("online", cameBack);
  }

  // The browser knows before any request fails: say so now, and cut a stream that would
  // only stall until its watchdog bites.
  function wentOffline() {
    if (stopped) return;
    onTrouble(offline());
    abort?.abort();
  }

  // Back online: the attempt waiting for its delay is made now.
  function cameBack() {
    if (timer !== null && !stopped) schedule(0);
  }

  const isGone = (error) => error instanceof ApiError && (error.status === 404 || error.status === 401);

  async function stream() {
    if (stopped) return;
    abort = new AbortController();
    let watchdog = setTimeout(() => abort.abort(), STALL_MS);
    // Called when the stream opens and on every chunk: the server answers, so no warning holds.
    const alive = () => {
      clearTimeout(watchdog);
      watchdog = setTimeout(() => abort.abort(), STALL_MS);
      onTrouble(null);
    };
    try {
      for await (const event of api.events(id, token, version >= 0 ? version : null, abort.signal, alive)) {
        if (event.type === "reaction") { onReaction?.(JSON.parse(event.data)); continue; }
        if (event.type !== "game") continue;
        const data = JSON.parse(event.data);
        failures = 0;
        take(data.game, data.entry);
        if (finished(data.game)) { stopped = true; return; }
      }
      // The server ends a stream after a finished game's last event: a seat waits for a
      // rematch by reading the game now and then.
      if (status === "over") { polling = true; return schedule(POLL_OVER_MS); }
      return schedule(500);  // a stream ended early (a replica draining): another one
    } catch (error) {
      if (stopped) return;
      if (isGone(error)) return gone(error);
      failures += 1;
      const read = await readOnce();
      if (stopped) return;
      if (read && failures >= STREAM_FAILURES) {  // reads work, streams do not: poll
        polling = true;
        onTrouble(null);
        return schedule(POLL_MS);
      }
      onTrouble(trouble(read));  // a read that works: the board is current, the stream follows
      schedule(RETRY_MS[Math.min(failures, RETRY_MS.length) - 1]);
    } finally {
      clearTimeout(watchdog);
    }
  }

  // One read of the game, so that the board shows where it stands while the stream is down.
  async function readOnce() {
    try {
      const body = await api.game(id, token);
      take(body, null);
      if (finished(body)) stopped = true;
      return true;
    } catch (error) {
      if (isGone(error)) gone(error);
      return false;
    }
  }

  async function poll() {
    const read = await readOnce();
    if (stopped) return;
    failures = read ? 0 : failures + 1;
    onTrouble(trouble(read));
    schedule(!read ? RETRY_MS[Math.min(failures, RETRY_MS.length) - 1] : status === "over" ? POLL_OVER_MS : POLL_MS);
  }

  function schedule(ms) {
    clearTimeout(timer);
    timer = null;
    if (!stopped) timer = setTimeout(() => { timer = null; (polling ? poll : stream)(); }, ms);
  }

  addEventListener("offline", wentOffline);
  addEventListener("online", cameBack);
  if (!navigator.onLine) onTrouble(offline());
  stream();
  return {
    close: stop,
    // After a move of this player: a poller reads at once (a stream brings it anyway).
    poke() { if (polling && !stopped) { clearTimeout(timer); timer = null; poll(); } },
  };
}
