-- What rebuilds a game's versions after a version (service/store/versions.py), read
-- atomically. KEYS: the game's state, log, records (whole, one per version, of a game
-- stored before undos existed; else none) and undos. ARGV: a version.
-- False (nil) if there is no such game (it expired or was deleted), empty if there are no
-- versions after that one; else the latest version, its blob and meta, the first state
-- (false if the log need not be played again), the version the log is read after, the
-- log from there, undos up to the latest (at least those of the versions after the last
-- kept one), and the records kept of the versions asked for. (window() in versions.py,
-- the same rule.) The log is read whole, segments and all (segments.py), when the core
-- plays it again; else from the version asked after, which is never sealed.
local after = tonumber(ARGV[1])
local game = redis.call('HMGET', KEYS[1], 'version', 'blob', 'meta', 'initial', 'sealed')
if not game[1] then return false end
if after >= tonumber(game[1]) then return {} end
local latest = tonumber(game[1])
local sealed = tonumber(game[5] or '0')
local since = redis.call('LLEN', KEYS[3])
local last_kept = math.max(after, since)
local kept = {}
if after < since then kept = redis.call('LRANGE', KEYS[3], after, since - 1) end
if last_kept >= latest - 1 then
  -- (A game stored with records has no segments; else the undos are the unsealed ones.)
  local unsealed = latest - sealed
  local first = redis.call('LLEN', KEYS[2]) - unsealed + (after - sealed)
  return {latest, game[2], game[3], false, after,
          redis.call('LRANGE', KEYS[2], first, -1),
          redis.call('LRANGE', KEYS[4], last_kept - since - sealed, -1), kept}
end
return {latest, game[2], game[3], game[4], 0, redis.call('LRANGE', KEYS[2], 0, -1),
        redis.call('LRANGE', KEYS[4], 0, -1), kept}
