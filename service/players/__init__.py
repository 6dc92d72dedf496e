"""Identities that last: players made with a secret key and their games (`storage`),
standings updated as games are archived (`standings`), OpenSkill ratings anchored on the
AI levels (`ratings/`), a player's own event feed (`feed`), and their routes."""
