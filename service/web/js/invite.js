// Inviting friends: while a game waits for players, a join link for each open seat (the
// link holds no secret: whoever opens it first takes the seat and gets its own token).

import { h } from "./dom.js";
import { plural, t } from "./i18n.js";

export function invitePanel(ctx) {
  const { body } = ctx;
  if (body.status !== "waiting") return null;
  const open = body.seats.filter((s) => s.type === "open");
  return h("section.invite", { "aria-label": t("Invite friends") },
    h("p", {}, plural(open.length, "Waiting for {n} more player.", "Waiting for {n} more players."), " ",
      t(open.length > 1 ? "Send each friend their own link:" : "Send this link to your friend:"),
      ctx.you !== null ? h("button.ghost.leave", { type: "button", "data-key": "leave", onclick: ctx.leave }, t("Leave this game")) : null),
    open.map(({ seat }) => {
      const link = `${location.origin}/play#/join/${ctx.id}/${seat}`;
      return h("div.invite-row", {},
        h("span.seat-label", {}, t("Seat {n}", { n: seat + 1 })),
        h("input.link", { type: "text", readOnly: true, value: link, "aria-label": t("Join link for seat {n}", { n: seat + 1 }), "data-key": `link-${seat}`,
          onfocus: (e) => e.target.select() }),
        h("button.ghost", { type: "button", "data-key": `copy-${seat}`, onclick: (e) => copy(link, e.target) }, t("Copy")));
    }));
}

async function copy(text, button) {
  try {
    await navigator.clipboard.writeText(text);
    button.textContent = t("Copied");
  } catch {
    button.textContent = t("Select and copy");
  }
}
