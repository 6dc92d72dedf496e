-- A document replaced if it is as the caller read it (compare-and-set). KEYS: the
-- document. ARGV: the value read ('' if absent), the new value, TTL seconds, '1' if the
-- caller read no document. Returns 1 if replaced, 0 if it had changed.
local current = redis.call('GET', KEYS[1])
if ARGV[4] == '1' then
  if current then return 0 end
elseif current ~= ARGV[1] then
  return 0
end
redis.call('SET', KEYS[1], ARGV[2], 'EX', ARGV[3])
return 1
