-- Who is at a game's table: members scored by when their presence lapses. KEYS: the
-- table's sorted set. ARGV: the member ('' for none), until, now, TTL seconds. Marks the
-- member present until `until` (removed if that is not after now), forgets the lapsed, and
-- returns the members present at now.
local now = tonumber(ARGV[3])
if ARGV[1] ~= '' then
  if tonumber(ARGV[2]) > now then
    redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1])
    redis.call('EXPIRE', KEYS[1], ARGV[4])
  else
    redis.call('ZREM', KEYS[1], ARGV[1])
  end
end
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
return redis.call('ZRANGE', KEYS[1], 0, -1)
