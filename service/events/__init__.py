"""A game's changes pushed as Server-Sent Events: every open stream follows one game,
redacted for its viewer (`streams`), sent whole or as a JSON Patch (`patches`)."""
