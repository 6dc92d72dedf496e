// A strict TypeScript client of the served API, written against the types that the command
// in docs/api.md generates (crab-api.d.ts, written beside this file by
// tests/service/test_typescript_client.py) and called through openapi-fetch.
//
// It plays a whole game of each game, every seat held by this program, choosing random legal
// moves from what the API lists, and creates its games WITHOUT any optional field: with
// openapi-typescript's default (`defaultNonNullable`), a property with a `default` is
// required and this file does not compile.
//
// Usage: node play.js <base URL> <seed>. Prints one JSON line per game played.

import createClient from "openapi-fetch";
import type { components, paths } from "./crab-api.js";

type Schemas = components["schemas"];

// --- What the generated types must say, checked by the compiler -----------------------------

/** The keys of T that a value may leave out. */
type OptionalKeys<T> = { [K in keyof T]-?: {} extends Pick<T, K> ? K : never }[keyof T];
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Assert<T extends true> = T;

type Optional = {
  [N in keyof Schemas as OptionalKeys<Schemas[N]> extends never ? never : N]: OptionalKeys<Schemas[N]>;
};
type CreateOptional = "options" | "seed" | "seats" | "listed" | "turn_seconds" | "on_timeout"
  | "rated";

// Requests: every field with a default may be left out, in every game's and player count's
// variant of a new game, in a move and in a join.
export type RequestsLeaveOutWhatHasADefault = [
  Assert<Same<OptionalKeys<Schemas["CreateCupCrab2"]>, CreateOptional>>,
  Assert<Same<OptionalKeys<Schemas["CreateCupCrab5"]>, CreateOptional>>,
  Assert<Same<OptionalKeys<Schemas["CreateCvp2"]>, CreateOptional>>,
  Assert<Same<OptionalKeys<Schemas["MoveRequest"]>, "expected_version">>,
  Assert<Same<OptionalKeys<Schemas["JoinRequest"]>, "name" | "seat" | "player">>,
  Assert<Same<OptionalKeys<Schemas["NewPlayer"]>, "kind" | "webhook">>,
  Assert<Same<OptionalKeys<Schemas["SecretRotation"]>, "previous_valid_seconds">>,
  Assert<Same<OptionalKeys<Schemas["QueueRequest"]>, "fill_with_ai_after">>,
  Assert<Same<OptionalKeys<Schemas["ChallengeRequest"]>,
    "options" | "turn_seconds" | "rated" | "seat" | "expires_in">>,
  Assert<Same<OptionalKeys<Schemas["SeriesRequest"]>,
    "deals" | "duplicate" | "turn_seconds" | "options" | "at_once">>,
  Assert<Same<OptionalKeys<Schemas["TableOptions"]>, "first_player" | "mode" | "deck">>,
  Assert<Same<OptionalKeys<Schemas["TournamentRequest"]>, "players" | "rounds" | "deals"
    | "duplicate" | "turn_seconds" | "options" | "entry_seconds" | "entrants" | "estimates">>,
  Assert<Same<OptionalKeys<Schemas["PresenceRequest"]>, "here" | "viewer" | "reactions_after">>,
];

// Responses: what the server always sends is required (a new game's seats' names and
// tokens included, null where there is none); the only response schemas with optional
// fields are the ones the server really leaves out (a Crabe vs Poulpe entry's revealed
// hand, why a webhook bot's seat fell to its clock, only in a timeout or forfeit of such a
// seat, a problem's extras, a JSON Patch operation's value, absent for a remove). A new
// optional response field fails the build here.
type RequestSchema = "CreateGame" | `Create${"CupCrab" | "Cvp"}${number}` | "SeatSpec"
  | "SeatHumanOrOpen" | "SeatOfPlayer" | `AiSeatBy${string}` | "Budget" | `BudgetBy${string}`
  | "MoveRequest" | "JoinRequest" | "NewPlayer" | "QueueRequest" | "ChallengeRequest"
  | "SeriesRequest" | "TournamentRequest" | "TableOptions" | `${"Challenge" | "Series"}${"CupCrab" | "Cvp"}${number}`
  | `Queue${"CupCrab" | "Cvp"}` | "WebhookSpec" | "SecretRotation" | "PresenceRequest"
  | `Tournament${"CupCrab" | "Cvp"}${number}${"Swiss" | "RoundRobin"}`;
export type ResponsesRequireWhatIsAlwaysSent = [
  Assert<Same<Exclude<keyof Optional, RequestSchema>,
    "CvpMoveEntry" | "CvpTimeoutEntry" | "CupCrabTimeoutEntry" | "ForfeitEntry"
    | "PatchOperation" | "Problem">>,
  Assert<Same<Optional["PatchOperation"], "value">>,
  Assert<Same<Optional["CvpTimeoutEntry"], "revealed" | "webhook">>,
  Assert<Same<Optional["CupCrabTimeoutEntry"], "webhook">>,
  Assert<Same<Optional["ForfeitEntry"], "webhook">>,
  Assert<Same<Optional["CvpMoveEntry"], "revealed">>,
  Assert<Same<Optional["Problem"], "legal_moves" | "current_version">>,
];

// --- The program ----------------------------------------------------------------------------

type GameName = Schemas["CreateGame"]["game"];
type Move = Schemas["MoveRequest"]["move"];
type Game = Schemas["CupCrabGame"] | Schemas["CvpGame"];
type Result = Schemas["CupCrabResult"] | Schemas["CvpResult"];

const [baseUrl, seedText] = process.argv.slice(2);
if (baseUrl === undefined || seedText === undefined) {
  throw new Error("usage: node play.js <base URL> <seed>");
}
const api = createClient<paths>({ baseUrl });

/** mulberry32: a small seeded generator, so a failing run can be replayed. */
function generator(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function pick<T>(random: () => number, items: readonly T[]): T {
  const item = items[Math.floor(random() * items.length)];
  if (item === undefined) throw new Error("nothing to choose from");
  return item;
}

function check(condition: boolean, message: string): asserts condition {
  if (!condition) throw new Error(message);
}

/** A failed call's problem, in the message of the error thrown. */
function fail(what: string, status: number, problem: unknown): never {
  throw new Error(`${what}: HTTP ${status} ${JSON.stringify(problem)}`);
}

function bearer(token: string): { Authorization: string } {
  return { Authorization: `Bearer ${token}` };
}

interface Played {
  game: GameName;
  id: string;
  players: number;
  moves: number;
  version: number;
  result: Result;
}

/** A new game with only the required fields: no options, seed, seats, listed,
 * turn_seconds or on_timeout. */
function newGame(game: GameName) {
  return game === "cup-the-crab"
    ? api.POST("/v1/games", { body: { game: "cup-the-crab", players: 3 } })
    : api.POST("/v1/games", { body: { game: "crabe-vs-poulpe", players: 2 } });
}

async function playWholeGame(game: GameName, random: () => number): Promise<Played> {
  const created = await newGame(game);
  const players = game === "cup-the-crab" ? 3 : 2;
  if (created.data === undefined) fail("create", created.response.status, created.error);
  check(created.response.status === 201, `create answered ${created.response.status}`);
  const { id } = created.data;
  check(created.data.game === game && created.data.version === 0, "a new game at version 0");

  const tokens = new Map<number, string>();
  for (const seat of created.data.seats) {
    const name: string | null = seat.name; // always sent: required in the types
    check(seat.type === "human" && name === null, "the default seats are unnamed humans");
    check(seat.token !== null, "a human seat comes with its token");
    tokens.set(seat.seat, seat.token);
  }
  check(tokens.size === players, "a token for every seat");

  const path = { path: { game_id: id } };
  let view: Game;
  {
    const read = await api.GET("/v1/games/{game_id}", { params: path });
    if (read.data === undefined) fail("read", read.response.status, read.error);
    check(read.data.you === null && read.data.legal_moves.length === 0, "a spectator's view");
    view = read.data;
  }

  let moves = 0;
  let suggested = false;
  while (view.status !== "over") {
    check(view.status === "active", `status ${view.status}`);
    check(moves < 5000, "the game should have ended by now");
    const seat = pick(random, view.to_move);
    const token = tokens.get(seat);
    check(token !== undefined, `no token for seat ${seat}`);

    const legal = await api.GET("/v1/games/{game_id}/legal-moves", { params: path, headers: bearer(token) });
    if (legal.data === undefined) fail("legal moves", legal.response.status, legal.error);
    check(legal.data.you === seat && legal.data.version === view.version, "this seat's moves, now");
    let move: Move = pick<Move>(random, legal.data.legal_moves);

    if (!suggested) {
      // Budget with one of its three optional fields.
      const suggestion = await api.POST("/v1/games/{game_id}/suggest", {
        params: path, headers: bearer(token), body: { level: 1 },
      });
      if (suggestion.data === undefined) fail("suggest", suggestion.response.status, suggestion.error);
      check(suggestion.data.you === seat && suggestion.data.version === view.version, "a suggestion for now");
      move = suggestion.data.move;
      suggested = true;
    }

    // No expected_version: it is optional too.
    const after = await api.POST("/v1/games/{game_id}/moves", {
      params: path, headers: bearer(token), body: { move },
    });
    if (after.data === undefined) fail(`move ${JSON.stringify(move)}`, after.response.status, after.error);
    check(after.data.version === view.version + 1 && after.data.you === seat, "one version later, as the mover");
    view = after.data;
    moves += 1;
  }

  const result = view.result;
  check(result !== null, "a game over has its result");
  check(result.reason === "finished" && result.forfeited.length === 0, "played to the end");

  const history = await api.GET("/v1/games/{game_id}/history", { params: path, headers: bearer(tokens.get(0) ?? "") });
  if (history.data === undefined) fail("history", history.response.status, history.error);
  check(history.data.entries.length === moves && history.data.version === moves, "every move in the log");

  return { game, id, players, moves, version: view.version, result };
}

/** JoinRequest with none of its optional fields: the first open seat, unnamed. */
async function joinAnOpenSeat(): Promise<void> {
  const created = await api.POST("/v1/games", {
    body: { game: "crabe-vs-poulpe", players: 2, seats: [{}, { type: "open" }] },
  });
  if (created.data === undefined) fail("create with an open seat", created.response.status, created.error);
  const joined = await api.POST("/v1/games/{game_id}/join", {
    params: { path: { game_id: created.data.id } }, body: {},
  });
  if (joined.data === undefined) fail("join", joined.response.status, joined.error);
  check(joined.response.status === 201 && joined.data.seat === 1 && joined.data.token !== "", "seat 1 taken");
}

async function main(): Promise<void> {
  const random = generator(Number(seedText));
  await joinAnOpenSeat();
  for (const game of ["cup-the-crab", "crabe-vs-poulpe"] as const) {
    const played = await playWholeGame(game, random);
    console.log(JSON.stringify(played));
  }
}

await main();
