-- A new game, unless one has this id already (returns 0 then, 1 when made). KEYS: the
-- game's state. ARGV: version, blob, meta, TTL seconds. A script rather than a MULTI
-- pipeline: one round trip, atomic, and the same call on a single node or a cluster. The
-- first blob is kept as `initial`: the archive replays a game from it. Refusing an id in
-- use lets two replicas that make the same game (a series' next game) race harmlessly.
if redis.call('EXISTS', KEYS[1]) == 1 then
  return 0
end
redis.call('HSET', KEYS[1], 'version', ARGV[1], 'blob', ARGV[2], 'meta', ARGV[3],
           'initial', ARGV[2])
redis.call('EXPIRE', KEYS[1], ARGV[4])
return 1
