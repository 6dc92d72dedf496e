// Two live regions that stay in the page (index.html) while the views are redrawn around
// them: a region made anew on every redraw is announced unreliably, or again and again.
// announce() says what the page now asks (politely); alarm() says what went wrong.

export function announce(text) {
  say("announce", text);
}

export function alarm(text) {
  say("alarm", text);
}

function say(id, text) {
  const region = document.getElementById(id);
  if (region && region.textContent !== (text || "")) region.textContent = text || "";
}
