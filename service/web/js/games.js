// Every game of the client: one import line per game module, each of which registers
// itself (game-registry.js). Adding a game is its module and its line here.

import "./cupcrab.js";
import "./cvp.js";

export { gameOf, games } from "./game-registry.js";
