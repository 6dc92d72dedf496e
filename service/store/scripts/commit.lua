-- A move's commit: compare-and-set on the version, the log, the metadata's undo, the
-- idempotency record and the notice, atomically.
-- KEYS: the game's state, its log, its idempotency hash, its records (a game stored before
-- undos existed: never added to now), its undos (one hash tag: one cluster slot). ARGV:
-- expected version, blob, log entry (packed), TTL seconds, idempotency key ('' if none),
-- response, meta, the channel, the notice, this commit's nonce, '1' if the game ends (its
-- keys then stay until the archive has it), the versions a segment seals. PUBLISH needs
-- no key: Redis Cluster forwards it to every node.
-- The nonce makes a retry of the same call harmless: when a connection drops after the
-- script ran (a failover), redis-py sends it again, and finding its own nonce at the next
-- version it answers 1 as the first run did, instead of reporting a conflict.
-- It answers 2 instead of 1 when more than ARGV[12] versions are unsealed (the store then
-- seals the oldest of them: segments.py, seal.lua); never for a game stored with records.
-- The undo is what turns the new metadata back into the one it replaces (versions.py,
-- undo(), makes the same): empty if unchanged, else a zero byte, the lengths of their
-- common prefix and suffix (two big-endian 16-bit numbers) and the old bytes between.
local function undo(old, new)
  if old == new then return '' end
  if #old > 65535 or #new > 65535 then return old end
  local shortest = math.min(#old, #new)
  local prefix = 0
  while prefix < shortest and old:byte(prefix + 1) == new:byte(prefix + 1) do
    prefix = prefix + 1
  end
  local suffix = 0
  while suffix < shortest - prefix and old:byte(#old - suffix) == new:byte(#new - suffix) do
    suffix = suffix + 1
  end
  return '\0' .. struct.pack('>I2I2', prefix, suffix) .. old:sub(prefix + 1, #old - suffix)
end

local game = redis.call('HMGET', KEYS[1], 'version', 'commit', 'meta', 'sealed')
local version = game[1]
if not version then return 0 end
if tonumber(version) ~= tonumber(ARGV[1]) then
  if tonumber(version) == tonumber(ARGV[1]) + 1 and game[2] == ARGV[10] then return 1 end
  return 0
end
redis.call('HSET', KEYS[1], 'version', tonumber(version) + 1, 'blob', ARGV[2], 'meta', ARGV[7],
           'commit', ARGV[10])
redis.call('RPUSH', KEYS[2], ARGV[3])
redis.call('RPUSH', KEYS[5], undo(game[3], ARGV[7]))
if ARGV[5] ~= '' then redis.call('HSET', KEYS[3], ARGV[5], ARGV[6]) end
for i = 1, 5 do
  if ARGV[11] == '1' then redis.call('PERSIST', KEYS[i])
  elseif i ~= 3 or ARGV[5] ~= '' then redis.call('EXPIRE', KEYS[i], ARGV[4]) end
end
redis.call('PUBLISH', ARGV[8], ARGV[9])
local unsealed = tonumber(version) + 1 - tonumber(game[4] or '0')
if unsealed > tonumber(ARGV[12]) and redis.call('EXISTS', KEYS[4]) == 0 then return 2 end
return 1
