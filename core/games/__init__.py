"""One folder per game (core/registry.py lists them): its rules, its C function table
for the search and the vector, and its observations (docs/adding-a-game.md)."""
