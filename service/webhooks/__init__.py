"""Webhook bots: a bot that is just an HTTP endpoint, asked each decision of its seats by
a signed POST (docs/arena.md, "Webhook bots"): the allow-list of destinations, the
signature, the outbound caller, the driver that turns a decision into a call, and the
routes that register a webhook and rotate its secret."""
