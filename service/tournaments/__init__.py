"""Tournaments: round robins and Swiss events of players, bots and AI levels, every game
started by the server, standings with tie-breaks live and archived (docs/arena.md)."""
