// The client's words in English and French. English sentences are the keys (so the code
// reads as it shows), with {name} for what changes; french.js gives each its French. The
// language is the one chosen on this browser, else the browser's first of ours, else
// English; the switch is remembered. The API's problem titles stay English: the client
// says each problem `type` in its own words (problem()). Numbers, dates and places are
// written here too, in the language of the moment.

import { FRENCH } from "./french.js";
import { PROBLEM_SENTENCES } from "./problem-sentences.js";

const KEY = "crab-table.lang";
const DICTIONARIES = { en: null, fr: FRENCH };
export const LANGUAGES = [["en", "English"], ["fr", "Français"]];

let current = chosen();
const missing = new Set();  // French keys asked for and not there (the tests read it)

function chosen() {
  let saved = null;
  try { saved = localStorage.getItem(KEY); } catch { /* storage off: the browser's language */ }
  if (saved in DICTIONARIES) return saved;
  for (const tag of navigator.languages || [navigator.language || "en"]) {
    const base = tag.slice(0, 2).toLowerCase();
    if (base in DICTIONARIES) return base;
  }
  return "en";
}

export function language() {
  return current;
}

export function setLanguage(code) {
  if (!(code in DICTIONARIES) || code === current) return;
  current = code;
  try { localStorage.setItem(KEY, code); } catch { /* kept for this page only */ }
  document.documentElement.lang = code;
  window.dispatchEvent(new Event("crab-language"));
}

// The sentence in the current language, {name}s filled from params. A key may end with
// "|context" where one English word has two French ones (Octopus: Pieuvre, Poulpe).
export function t(text, params = {}) {
  const dictionary = DICTIONARIES[current];
  let template = text.split("|")[0];
  if (dictionary) {
    template = dictionary[text];
    if (template === undefined) {
      missing.add(text);
      template = text.split("|")[0];
    }
    template = typographic(template);
  }
  return template.replace(/\{(\w+)\}/g, (_, name) => String(params[name]));
}

// French sets a space before ; : ! ? that never leaves its sign alone at a line's start:
// a narrow no-break space, the same everywhere (the dictionaries are typed with a plain one).
function typographic(template) {
  return template.replace(/[ \u00a0\u202f]([;:!?])/g, "\u202f$1");
}

// A label and what it labels ("Draw pile: 3"), written as the reader's language does.
export function labelled(label, value) {
  return t("{label}: {value}", { label, value });
}

// One of two sentences by a count (French counts 0 and 1 as singular), {n} the count.
export function plural(n, one, other, params = {}) {
  const singular = current === "fr" ? n <= 1 : n === 1;
  return t(singular ? one : other, { n, ...params });
}

export function untranslated() {
  return [...missing];
}

// Each problem type of the API said as the client says it: the service's errors give the
// sentences (problem-sentences.js, made from them); the detail, in English, is the last
// resort for a type that has none.
export function problemSentence(type, detail) {
  const known = PROBLEM_SENTENCES[(type || "").replace(/^\/problems\//, "")];
  return known ? t(known) : detail;
}

// A name inside a sentence, isolated (FSI ... PDI, the text form of <bdi>): a name holding
// right-to-left text or an unclosed override changes nothing of the words around it.
export function isolate(text) {
  return `\u2068${text}\u2069`;
}

// A place as the reader says it: 2nd, 2e.
export function ordinal(n) {
  return t(n === 1 ? "{n}st" : n === 2 ? "{n}nd" : n === 3 ? "{n}rd" : "{n}th", { n });
}

// A number as the reader writes it (a decimal comma in French).
export function decimal(value, digits = 1) {
  return new Intl.NumberFormat(current, { minimumFractionDigits: digits, maximumFractionDigits: digits }).format(value);
}

// An instant (ISO 8601) as the reader writes a date and time.
export function when(iso) {
  return new Date(iso).toLocaleString(current, { dateStyle: "medium", timeStyle: "short" });
}
