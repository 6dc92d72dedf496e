// The client's router: the URL's fragment says what to show, so links can be shared and
// nothing secret in them ever reaches a server log.
//   #/                  start page
//   #/g/<id>            a game's table (with this browser's token for it, if any)
//   #/join/<id>[/<seat>] take an open seat by name
//   #/replay/<id>[/<version>] a finished game replayed, every card shown
//   #/review/<id>/<seat>[/<version>] a seat's decisions beside the AI's, once the game is over
//   #/rated             the matchmaking queue for a rated game
//   #/profile           this browser's player; #/player/<id> anyone's
//   #/leaderboards[/<pool>] a rating pool's leaderboard

import { styled } from "./game-registry.js";
import { language } from "./i18n.js";
import { openJoin } from "./join.js";
import { openReplay } from "./replay.js";
import { openReview } from "./review.js";
import { openLeaderboard } from "./leaderboard.js";
import { openProfile } from "./profile.js";
import { openQueue } from "./queue.js";
import { openStart } from "./start.js";
import { openTable } from "./table.js";

const root = document.getElementById("app");
let current = null;

function route() {
  current?.close();
  const parts = location.hash.replace(/^#\/?/, "").split("/").filter(Boolean).map(decodeURIComponent);
  window.scrollTo(0, 0);
  document.title = "Crab Table";
  if (parts[0] === "g" && parts[1]) {
    current = openTable(root, { id: parts[1] });
  } else if (parts[0] === "replay" && parts[1]) {
    current = openReplay(root, { id: parts[1], at: parts[2] === undefined ? 0 : Number(parts[2]) });
  } else if (parts[0] === "review" && parts[1]) {
    current = openReview(root, { id: parts[1], seat: Number(parts[2] ?? 0), at: parts[3] === undefined ? null : Number(parts[3]) });
  } else if (parts[0] === "join" && parts[1]) {
    current = openJoin(root, { id: parts[1], seat: parts[2] === undefined ? undefined : Number(parts[2]) });
  } else if (parts[0] === "rated") {
    current = openQueue(root);
  } else if (parts[0] === "profile" || (parts[0] === "player" && parts[1])) {
    current = openProfile(root, { id: parts[1] });
  } else if (parts[0] === "leaderboards") {
    current = openLeaderboard(root, { pool: parts[1] });
  } else {
    current = openStart(root);
  }
}

window.addEventListener("hashchange", route);
window.addEventListener("crab-language", route);  // the page drawn again in the chosen language
document.documentElement.lang = language();
styled().then(route);
