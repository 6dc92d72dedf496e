-- A new game. KEYS: the game's state. ARGV: version, blob, meta, TTL seconds. A script
-- rather than a MULTI pipeline: one round trip, atomic, and the same call on a single node
-- or a cluster.
redis.call('HSET', KEYS[1], 'version', ARGV[1], 'blob', ARGV[2], 'meta', ARGV[3])
redis.call('EXPIRE', KEYS[1], ARGV[4])
