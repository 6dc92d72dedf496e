-- Groups claimed before ARGV[1] whose game was never made (a replica died seating them),
-- claimed again until ARGV[2]. KEYS: tickets, seating. Returns game id, group, ...
local found = {}
for _, game_id in ipairs(redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', ARGV[1], 'LIMIT', 0, 16)) do
  redis.call('ZADD', KEYS[2], tonumber(ARGV[2]), game_id)
  table.insert(found, game_id)
  table.insert(found, redis.call('HGET', KEYS[1], 'group:' .. game_id) or '[]')
end
return found
