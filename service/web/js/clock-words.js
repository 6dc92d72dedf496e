// A turn clock in words, as the join page and the rated queue say it: "2 min a turn".

import { t } from "./i18n.js";

export function turnClock(seconds) {
  if (seconds % 86400 === 0) return t("{n} d a turn", { n: seconds / 86400 });
  if (seconds % 3600 === 0) return t("{n} h a turn", { n: seconds / 3600 });
  if (seconds >= 60 && seconds % 60 === 0) return t("{n} min a turn", { n: seconds / 60 });
  return t("{n} s a turn", { n: seconds });
}
