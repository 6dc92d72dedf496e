// The language switch shown in every page's header: the choice is remembered (i18n.js)
// and the page is drawn again in it.

import { h } from "./dom.js";
import { LANGUAGES, language, setLanguage, t } from "./i18n.js";

export function languageSwitch() {
  return h("select.language", { "aria-label": t("Language"), "data-key": "language",
    onchange: (event) => setLanguage(event.target.value) },
    LANGUAGES.map(([code, name]) => h("option", { value: code, lang: code, selected: code === language() }, name)));
}
