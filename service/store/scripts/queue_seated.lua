-- A group's game is made: its tickets say so. KEYS: tickets, seating, done. ARGV: the
-- game's id, now, then each ticket's id and final body (JSON).
for i = 3, #ARGV, 2 do
  redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1])
  redis.call('ZADD', KEYS[3], tonumber(ARGV[2]), ARGV[i])
end
redis.call('HDEL', KEYS[1], 'group:' .. ARGV[1])
redis.call('ZREM', KEYS[2], ARGV[1])
return 1
