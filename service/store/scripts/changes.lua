-- A game's log and records after a version, read atomically (both at the same length).
-- KEYS: the game's log and records. ARGV: a version.
return {redis.call('LRANGE', KEYS[1], ARGV[1], -1), redis.call('LRANGE', KEYS[2], ARGV[1], -1)}
