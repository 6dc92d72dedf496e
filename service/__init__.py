"""The HTTP service around core (a later issue builds it: see the README)."""
