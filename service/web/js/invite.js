// Inviting friends: while a game waits for players, a join link for each open seat (the
// link holds no secret: whoever opens it first takes the seat and gets its own token).

import { h } from "./dom.js";

export function invitePanel(ctx) {
  const { body } = ctx;
  if (body.status !== "waiting") return null;
  const open = body.seats.filter((s) => s.type === "open");
  return h("section.invite", { "aria-label": "Invite friends" },
    h("p", { role: "status" }, `Waiting for ${open.length} more player${open.length === 1 ? "" : "s"}. `,
      open.length > 1 ? "Send each friend their own link:" : "Send this link to your friend:",
      ctx.you !== null ? h("button.ghost.leave", { type: "button", "data-key": "leave", onclick: ctx.leave }, "Leave this game") : null),
    open.map(({ seat }) => {
      const link = `${location.origin}/play#/join/${ctx.id}/${seat}`;
      return h("div.invite-row", {},
        h("span.seat-label", {}, `Seat ${seat + 1}`),
        h("input.link", { type: "text", readOnly: true, value: link, "aria-label": `Join link for seat ${seat + 1}`, "data-key": `link-${seat}`,
          onfocus: (e) => e.target.select() }),
        h("button.ghost", { type: "button", "data-key": `copy-${seat}`, onclick: (e) => copy(link, e.target) }, "Copy"));
    }));
}

async function copy(text, button) {
  try {
    await navigator.clipboard.writeText(text);
    button.textContent = "Copied";
  } catch {
    button.textContent = "Select and copy";
  }
}
