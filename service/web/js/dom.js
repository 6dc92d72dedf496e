// A tiny hyperscript: the views are functions of the game state that return fresh nodes.

export function h(tag, attrs = {}, ...children) {
  const [name, ...classes] = tag.split(".");
  const node = document.createElement(name || "div");
  if (classes.length) node.className = classes.join(" ");
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (key === "class") node.className = [node.className, value].filter(Boolean).join(" ");
    else if (key === "style" && typeof value === "object") {
      for (const [property, setting] of Object.entries(value)) node.style.setProperty(property, setting);
    }
    else if (key in node && typeof value !== "string") node[key] = value;
    else node.setAttribute(key, value === true ? "" : value);
  }
  append(node, children);
  return node;
}

function append(node, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(node, child);
    else node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

// Replaces a container's content, keeping keyboard focus on the element with the same
// data-key (a redraw must not throw a keyboard player back to the top of the page); when
// that element is gone (the card just played), on the view's data-focus-home, where the
// player reads what comes next.
export function patch(container, nodes) {
  const active = document.activeElement;
  const inside = !!active && active !== document.body && container.contains(active);
  const focused = active?.dataset?.key;
  container.replaceChildren(...[nodes].flat().filter(Boolean));
  if (!inside) return;
  const again = focused && container.querySelector(`[data-key="${CSS.escape(focused)}"]`);
  again?.focus({ preventScroll: true });
  // The same key may now be a card that cannot be chosen (no longer focusable).
  if (document.activeElement !== again) container.querySelector("[data-focus-home]")?.focus({ preventScroll: true });
}

// A stable text key for a move, to compare a listed move with a suggestion.
export function moveKey(move) {
  return JSON.stringify(Object.keys(move).sort().map((k) => [k, move[k]]));
}
