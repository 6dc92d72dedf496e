-- An event into a player's events (service/players/events.py), once. KEYS: the events' stream, its
-- set of events pushed once. ARGV: the event's once-key ('' for none), the event, how
-- many events the stream keeps (about), TTL seconds. Returns the event's id, or false
-- when an event of that once-key was pushed before (a retry by another replica).
if ARGV[1] ~= '' then
  if redis.call('SADD', KEYS[2], ARGV[1]) == 0 then
    return false
  end
  redis.call('EXPIRE', KEYS[2], ARGV[4])
end
local id = redis.call('XADD', KEYS[1], 'MAXLEN', '~', ARGV[3], '*', 'e', ARGV[2])
redis.call('EXPIRE', KEYS[1], ARGV[4])
return id
