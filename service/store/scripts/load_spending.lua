-- A seat's budget spent and, if the request fits, its game read, in one round trip.
-- KEYS: the game's state, its idempotency hash, the budget's key (one slot). ARGV: period
-- (ms), limit, idempotency key ('' if none). The allowance, then, if it fits, the game's
-- version, blob and meta and the stored response (false where absent).
local allowance = spend(KEYS[3], tonumber(ARGV[1]), tonumber(ARGV[2]))
if allowance[1] == 0 then return allowance end
local record = redis.call('HMGET', KEYS[1], 'version', 'blob', 'meta')
local replay = false
if ARGV[3] ~= '' then replay = redis.call('HGET', KEYS[2], ARGV[3]) end
return {allowance[1], allowance[2], allowance[3], allowance[4],
        record[1], record[2], record[3], replay}
