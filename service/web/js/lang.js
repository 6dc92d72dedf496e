// The reader's language for the modules that carry their own strings (one object per
// module, `en` and `fr`): the client's language (i18n.js: the browser's, or the one the
// switch remembered).

import { language } from "./i18n.js";

export function pick(strings) {
  return strings[language()] || strings.en;
}

// A module's strings, read in the language of the moment: the switch redraws the page,
// and every string drawn then is the new language's.
export function localized(strings) {
  return new Proxy({}, { get: (_, key) => (pick(strings)[key] ?? strings.en[key]) });
}

// A number as the reader writes it (a decimal comma in French).
export function decimal(value, digits = 1) {
  return new Intl.NumberFormat(language(), { minimumFractionDigits: digits, maximumFractionDigits: digits }).format(value);
}

export function when(iso) {
  return new Date(iso).toLocaleString(language(), { dateStyle: "medium", timeStyle: "short" });
}
