-- Seals a game's oldest unsealed versions in one segment (service/store/segments.py).
-- KEYS: the game's state, log and undos. ARGV: the versions sealed so far as the caller
-- read them, the segment, how many versions it seals.
-- The log's elements after its segments are the unsealed entries, the undos list holds
-- their undos: the first ARGV[3] of each are replaced by the segment. Refused (0) when
-- another replica sealed first (the count moved: what the caller read is sealed), or
-- when no unsealed version would be left (a feed's usual read takes the last one alone).
-- The elements are replaced in place (LSET, then LREM of a marker no entry starts with),
-- so the list keeps its expiry, which a delete and push again would drop.
local count = tonumber(ARGV[3])
local game = redis.call('HMGET', KEYS[1], 'version', 'sealed')
if not game[1] then return 0 end
local sealed = tonumber(game[2] or '0')
local unsealed = tonumber(game[1]) - sealed
if sealed ~= tonumber(ARGV[1]) or unsealed <= count then return 0 end
local first = redis.call('LLEN', KEYS[2]) - unsealed
local marker = '\255sealed'
redis.call('LSET', KEYS[2], first, ARGV[2])
for i = first + 1, first + count - 1 do redis.call('LSET', KEYS[2], i, marker) end
redis.call('LREM', KEYS[2], count - 1, marker)
redis.call('LTRIM', KEYS[3], count, -1)
redis.call('HSET', KEYS[1], 'sealed', sealed + count)
return 1
