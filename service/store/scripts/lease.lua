-- Leases the due members of one index: each is given to this caller alone until the lease
-- ends (its score moves to then), and is only removed once its work is done, so that a
-- caller that dies leaves it to be leased again instead of losing it.
-- KEYS: the index. ARGV: now, the lease's end, at most how many.
local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'WITHSCORES', 'LIMIT', 0, ARGV[3])
for i = 1, #due, 2 do redis.call('ZADD', KEYS[1], 'XX', ARGV[2], due[i]) end
return due
