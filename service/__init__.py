"""The stateless HTTP JSON API around core: `python -m service`, or `create_app()` of
service.app for an ASGI server of your own. Game sessions live in a Store (Redis, or the
process's memory); see docs/api.md."""
