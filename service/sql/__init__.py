"""The SQL database (PostgreSQL, or a SQLite file): the engine and its errors
(`database`), the one schema (`schema`) and its versioned migrations (`migrate`,
`migrations/`). Each domain keeps its statements in its own `storage` module."""
