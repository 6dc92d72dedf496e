// The pages shown instead of a game, a replay or a review: one that could not be opened
// (in words, with the way back) and one still loading; and the logo that leads home.

import { h } from "./dom.js";
import { t } from "./i18n.js";

export function failedScreen(why) {
  return h("div.start", {}, h("header.hero", {}, h("span.logo.big", {}), h("h1", {}, "Crab Table")),
    h("p.error", {}, why),
    h("p", {}, h("a", { href: "#/", "data-key": "home" }, t("Back to the start"))));
}

export function loadingScreen(words) {
  return h("p.loading", {}, words || t("Shuffling the cards…"));
}

// The big logo as a link to the start page: a picture, so it is named in words.
export function logoLink() {
  return h("a.brand", { href: "#/", "aria-label": t("Crab Table, the start page") }, h("span.logo.big", {}));
}
