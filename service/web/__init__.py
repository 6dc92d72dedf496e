"""The browser client: plain HTML, CSS and ES modules, no build step, and the routes that
serve them (`routes`)."""
