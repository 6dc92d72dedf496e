// Inviting friends: a link for each seat a friend still has to take. With the lobby API an
// open seat's link leads to a join page; without it, the link carries the seat's token
// (in the URL's fragment, which browsers never send to a server).

import { h } from "./dom.js";

function linkOf(ctx, seat, token) {
  const base = `${location.origin}/play`;
  return token ? `${base}#/g/${ctx.id}/t/${token}` : `${base}#/join/${ctx.id}/${seat}`;
}

function pendingInvites(ctx) {
  const { body, saved } = ctx;
  if (body.status === "over") return [];
  if (body.seats && body.status === "waiting") {
    return body.seats.filter((s) => s.type === "open").map((s) => ({ seat: s.seat, link: linkOf(ctx, s.seat) }));
  }
  const moved = new Set(ctx.history.map((e) => e.seat));
  return (saved.invites || []).filter((i) => !moved.has(i.seat)).map((i) => ({ seat: i.seat, link: linkOf(ctx, i.seat, i.token) }));
}

export function invitePanel(ctx) {
  const invites = pendingInvites(ctx);
  if (!invites.length) return null;
  const waiting = ctx.body.status === "waiting";
  return h("section.invite", { "aria-label": "Invite friends" },
    h("p", {}, waiting ? "The game starts when every seat is taken. " : "",
      invites.length > 1 ? "Send each friend their own link:" : "Send this link to your friend:",
      waiting && ctx.you !== null ? h("button.ghost.leave", { type: "button", "data-key": "leave", onclick: ctx.leave }, "Leave this game") : null),
    invites.map(({ seat, link }) => h("div.invite-row", {},
      h("span.seat-label", {}, `Seat ${seat + 1}`),
      h("input.link", { type: "text", readOnly: true, value: link, "aria-label": `Join link for seat ${seat + 1}`, "data-key": `link-${seat}`,
        onfocus: (e) => e.target.select() }),
      h("button.ghost", { type: "button", "data-key": `copy-${seat}`, onclick: (e) => copy(link, e.target) }, "Copy"))));
}

async function copy(text, button) {
  try {
    await navigator.clipboard.writeText(text);
    button.textContent = "Copied";
  } catch {
    button.textContent = "Select and copy";
  }
}
