// The client's router: the URL's fragment says what to show, so links can be shared and
// nothing secret in them ever reaches a server log.
//   #/                  start page
//   #/g/<id>            a game's table (with this browser's token for it, if any)
//   #/g/<id>/t/<token>  take the seat of that token, then show the table
//   #/join/<id>[/<seat>] take an open seat by name

import { serverFeatures } from "./api.js";
import { openJoin } from "./join.js";
import { remember } from "./saved.js";
import { openStart } from "./start.js";
import { openTable } from "./table.js";

const root = document.getElementById("app");
let current = null;

async function route() {
  const features = await serverFeatures();
  current?.close();
  const parts = location.hash.replace(/^#\/?/, "").split("/").filter(Boolean).map(decodeURIComponent);
  window.scrollTo(0, 0);
  if (parts[0] === "g" && parts[1] && parts[2] === "t" && parts[3]) {
    remember(parts[1], { token: parts[3] });
    history.replaceState(null, "", `#/g/${parts[1]}`);
    current = openTable(root, { id: parts[1], features });
  } else if (parts[0] === "g" && parts[1]) {
    current = openTable(root, { id: parts[1], features });
  } else if (parts[0] === "join" && parts[1]) {
    current = openJoin(root, { id: parts[1], seat: parts[2] === undefined ? undefined : Number(parts[2]), features });
  } else {
    current = openStart(root, { features });
  }
}

window.addEventListener("hashchange", route);
route();
