"""What outlives a live game: every finished game, archived exactly once.

A game that ends is put in the live store's outbox with its commit (`outbox`); whichever
replica gets there first writes it to the SQL database (`writer`) and takes it out; the
archive's games are read back, replayed and exported (`storage`, `replay`, `controller`).
`python -m service.archive` runs the database's commands (docs/archive.md).
"""
