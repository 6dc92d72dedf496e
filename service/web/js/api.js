// The HTTP API client: every call returns the JSON body or throws an ApiError whose message
// is the problem+json detail, in words a player can read.

export class ApiError extends Error {
  constructor(status, problem) {
    super(sentence(problem?.detail || problem?.title || `the server answered ${status}`));
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
    throw new ApiError(0, { detail: "The server cannot be reached; check your connection." });
  }
  const text = await response.text();
  const data = text ? JSON.parse(text) : null;
  if (!response.ok) throw new ApiError(response.status, data);
  return data;
}

const game = (id) => `/v1/games/${encodeURIComponent(id)}`;

export const api = {
  create: (spec) => request("POST", "/v1/games", { body: spec }),
  game: (id, token) => request("GET", game(id), { token }),
  history: (id, token) => request("GET", `${game(id)}/history`, { token }),
  move: (id, token, move, expectedVersion) =>
    request("POST", `${game(id)}/moves`, { token, body: { move, expected_version: expectedVersion } }),
  suggest: (id, token, level) => request("POST", `${game(id)}/suggest`, { token, body: { level } }),
  join: (id, name, seat, player) =>
    request("POST", `${game(id)}/join`, { body: { name: name || undefined, seat, player: player || undefined } }),
  leave: (id, token) => request("POST", `${game(id)}/leave`, { token }),
  rematch: (id, token) => request("POST", `${game(id)}/rematch`, { token }),
  waiting: () => request("GET", "/v1/games?status=waiting&limit=20"),
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
  eventsUrl: (id, token) => `${game(id)}/events${token ? `?token=${encodeURIComponent(token)}` : ""}`,
};
