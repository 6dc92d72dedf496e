-- An archived game's keys expire in a while: the archive answers for it after that.
-- KEYS: the game's keys. ARGV: TTL seconds. (One command per game instead of one per key.)
for i = 1, #KEYS do redis.call('EXPIRE', KEYS[i], ARGV[1]) end
