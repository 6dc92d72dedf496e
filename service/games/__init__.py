"""Live play: creating a game, its seats' tokens, views, legal moves, moves and history
(`sessions`), what is kept beside the core's state (`meta`), the limits every new game
obeys (`limits`), the seats the server plays (`robots`), the request and response bodies
(`requests`, `bodies/`) and the routes (`controller`)."""
