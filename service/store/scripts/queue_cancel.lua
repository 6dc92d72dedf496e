-- A ticket leaves its queue if it still waits. KEYS: by_rating, by_arrival, tickets, done.
-- ARGV: ticket id, now. Returns the ticket as it is now (JSON), or nothing if unknown.
local raw = redis.call('HGET', KEYS[3], ARGV[1])
if not raw then return false end
local ticket = cjson.decode(raw)
if ticket.status == 'waiting' then
  redis.call('ZREM', KEYS[1], ARGV[1])
  redis.call('ZREM', KEYS[2], ARGV[1])
  redis.call('ZADD', KEYS[4], tonumber(ARGV[2]), ARGV[1])
  ticket.status = 'cancelled'
  raw = cjson.encode(ticket)
  redis.call('HSET', KEYS[3], ARGV[1], raw)
end
return raw
