// The HTTP API client: every call returns the JSON body or throws an ApiError whose message
// is the client's own sentence for the problem's type (i18n.js), in the player's language.

import { problemSentence, t } from "./i18n.js";

export class ApiError extends Error {
  constructor(status, problem) {
    super(problemSentence(problem?.type, sentence(problem?.detail || problem?.title || t("the server answered {status}", { status }))));
    this.status = status;
    this.type = problem?.type || "";
    this.problem = problem;
  }
}

function sentence(text) {
  return text.charAt(0).toUpperCase() + text.slice(1) + (/[.!?]$/.test(text) ? "" : ".");
}

async function request(method, path, { token, body } = {}) {
  const headers = { Accept: "application/json" };
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  let response;
  try {
    response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch {
    throw new ApiError(0, { detail: t("The server cannot be reached; check your connection.") });
  }
  const text = await response.text();
  const data = text ? JSON.parse(text) : null;
  if (!response.ok) throw new ApiError(response.status, data);
  return data;
}

const game = (id) => `/v1/games/${encodeURIComponent(id)}`;

// A finished game's archived record (one ndjson line), as the end screen links to it.
export const exportUrl = (id) => `/v1/games/export?id=${encodeURIComponent(id)}`;

export const api = {
  create: (spec) => request("POST", "/v1/games", { body: spec }),
  game: (id, token) => request("GET", game(id), { token }),
  history: (id, token) => request("GET", `${game(id)}/history`, { token }),
  replay: (id) => request("GET", `${game(id)}/replay`),
  askReview: (id, seat) => request("POST", `${game(id)}/reviews`, { body: { seat } }),
  review: (id, seat) => request("GET", `${game(id)}/reviews/${seat}`),
  move: (id, token, move, expectedVersion) =>
    request("POST", `${game(id)}/moves`, { token, body: { move, expected_version: expectedVersion } }),
  suggest: (id, token, level) => request("POST", `${game(id)}/suggest`, { token, body: { level } }),
  join: (id, name, seat, player) =>
    request("POST", `${game(id)}/join`, { body: { name: name || undefined, seat, player: player || undefined } }),
  leave: (id, token) => request("POST", `${game(id)}/leave`, { token }),
  rematch: (id, token) => request("POST", `${game(id)}/rematch`, { token }),
  declineRematch: (id, token) => request("POST", `${game(id)}/rematch/decline`, { token }),
  resign: (id, token) => request("POST", `${game(id)}/resign`, { token }),
  presence: (id, token, here, viewer, reactionsAfter) => request("POST", `${game(id)}/presence`,
    { token, body: { here, viewer: token ? undefined : viewer, reactions_after: reactionsAfter ?? undefined } }),
  waiting: () => request("GET", "/v1/games?status=waiting&limit=20"),
  live: () => request("GET", "/v1/games?status=active&limit=12"),
  react: (id, token, phrase) => request("POST", `${game(id)}/reactions`, { token, body: { phrase } }),
  events: (id, token, after, signal, alive) => events(`${game(id)}/events`, token, after, signal, alive),
  // Players, ratings and the matchmaking queue (docs/players.md): `key` is the player's key.
  newPlayer: (name) => request("POST", "/v1/players", { body: { name, kind: "human" } }),
  me: (key) => request("GET", "/v1/players/me", { token: key }),
  rename: (key, name) => request("PATCH", "/v1/players/me", { token: key, body: { name } }),
  player: (id) => request("GET", `/v1/players/${encodeURIComponent(id)}`),
  playerGames: (id, cursor) => request("GET", `/v1/players/${encodeURIComponent(id)}/games?limit=20${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`),
  pools: () => request("GET", "/v1/leaderboards"),
  leaderboard: (pool, { cursor, player } = {}) => request("GET", `/v1/leaderboards/${encodeURIComponent(pool)}?limit=20${
    cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}${player ? `&player=${encodeURIComponent(player)}` : ""}`),
  queue: (key, spec) => request("POST", "/v1/queue", { token: key, body: spec }),
  ticket: (key, id) => request("GET", `/v1/queue/${encodeURIComponent(id)}`, { token: key }),
  cancelTicket: (key, id) => request("DELETE", `/v1/queue/${encodeURIComponent(id)}`, { token: key }),
};

// A Server-Sent Events stream read through fetch (an EventSource can send no
// Authorization header, so its token would have to be in the URL): yields each event as
// { type, id, data }; `after` resumes after that version (Last-Event-ID); alive() is called
// once the stream is open and on every chunk, comments (the server's keep-alives)
// included. Throws an ApiError for a refused stream, a TypeError or AbortError when the
// network cuts it.
async function* events(path, token, after, signal, alive) {
  const headers = { Accept: "text/event-stream" };
  if (token) headers.Authorization = `Bearer ${token}`;
  if (after !== null && after !== undefined) headers["Last-Event-ID"] = String(after);
  let response;
  try {
    response = await fetch(path, { headers, signal, cache: "no-store" });
  } catch {
    throw new ApiError(0, { detail: t("The server cannot be reached; check your connection.") });
  }
  if (!response.ok) {
    const text = await response.text().catch(() => "");
    let problem = null;
    try { problem = text ? JSON.parse(text) : null; } catch { /* not JSON: a proxy's page */ }
    throw new ApiError(response.status, problem);
  }
  alive();  // open: the server answers
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  let event = { type: "message", id: null, data: [] };
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    alive();
    buffer += value;
    const lines = buffer.split("\n");
    buffer = lines.pop();
    for (const line of lines.map((l) => l.replace(/\r$/, ""))) {
      if (line === "") {
        if (event.data.length) yield { type: event.type, id: event.id, data: event.data.join("\n") };
        event = { type: "message", id: null, data: [] };
        continue;
      }
      if (line.startsWith(":")) continue;
      const colon = line.indexOf(":");
      const field = colon < 0 ? line : line.slice(0, colon);
      const text = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
      if (field === "event") event.type = text;
      else if (field === "data") event.data.push(text);
      else if (field === "id") event.id = text;
    }
  }
}
