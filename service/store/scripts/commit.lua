-- A move's commit: compare-and-set on the version, the log, the record, the idempotency
-- record and the notice, atomically.
-- KEYS: the game's state, its log, its idempotency hash, its records (one hash tag: one
-- cluster slot). ARGV: expected version, blob, log entry, TTL seconds, idempotency key
-- ('' if none), response, meta, the new record packed, the channel, the notice, this
-- commit's nonce, '1' if the game ends (its keys then stay until the archive has it). PUBLISH needs no key: Redis Cluster forwards it to every node.
-- The nonce makes a retry of the same call harmless: when a connection drops after the
-- script ran (a failover), redis-py sends it again, and finding its own nonce at the next
-- version it answers 1 as the first run did, instead of reporting a conflict.
local version = redis.call('HGET', KEYS[1], 'version')
if not version then return 0 end
if tonumber(version) ~= tonumber(ARGV[1]) then
  if tonumber(version) == tonumber(ARGV[1]) + 1
      and redis.call('HGET', KEYS[1], 'commit') == ARGV[11] then return 1 end
  return 0
end
redis.call('HSET', KEYS[1], 'version', tonumber(version) + 1, 'blob', ARGV[2], 'meta', ARGV[7],
           'commit', ARGV[11])
redis.call('RPUSH', KEYS[2], ARGV[3])
redis.call('RPUSH', KEYS[4], ARGV[8])
if ARGV[5] ~= '' then redis.call('HSET', KEYS[3], ARGV[5], ARGV[6]) end
for i = 1, 4 do
  if ARGV[12] == '1' then redis.call('PERSIST', KEYS[i])
  elseif i ~= 3 or ARGV[5] ~= '' then redis.call('EXPIRE', KEYS[i], ARGV[4]) end
end
redis.call('PUBLISH', ARGV[9], ARGV[10])
return 1
