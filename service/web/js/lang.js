// The reader's language for the modules that carry their own strings (one object per
// module, `en` and `fr`): French when the browser asks for it first, else English.

export const LANG = /^fr\b/i.test(navigator.language || "") ? "fr" : "en";

export function pick(strings) {
  return strings[LANG] || strings.en;
}

// A number as the reader writes it (a decimal comma in French).
export function decimal(value, digits = 1) {
  return new Intl.NumberFormat(LANG, { minimumFractionDigits: digits, maximumFractionDigits: digits }).format(value);
}

export function when(iso) {
  return new Date(iso).toLocaleString(LANG, { dateStyle: "medium", timeStyle: "short" });
}
