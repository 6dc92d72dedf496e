-- A new game. KEYS: the game's state. ARGV: version, blob, meta, TTL seconds. A script
-- rather than a MULTI pipeline: one round trip, atomic, and the same call on a single node
-- or a cluster. The first blob is kept as `initial`: the archive replays a game from it.
redis.call('HSET', KEYS[1], 'version', ARGV[1], 'blob', ARGV[2], 'meta', ARGV[3],
           'initial', ARGV[2])
redis.call('EXPIRE', KEYS[1], ARGV[4])
