"""A finished game's review for one seat: each decision beside the AI's (`review`),
computed in the background once across replicas (`worker`), kept in the SQL database
(`storage`), asked for and read over HTTP (`controller`)."""
