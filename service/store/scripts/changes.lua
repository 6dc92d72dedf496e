-- What rebuilds a game's versions after a version (service/store/versions.py), read
-- atomically. KEYS: the game's state, log, records (whole, one per version, of a game
-- stored before undos existed; else none) and undos. ARGV: a version.
-- Empty if there are none; else the latest version, its blob and meta, the first state
-- (false if the log need not be played again), the version the log is read after, the
-- log from there, the undos of the versions after the last kept one, and the records
-- kept of the versions asked for. (window() in versions.py, the same rule.)
local after = tonumber(ARGV[1])
local game = redis.call('HMGET', KEYS[1], 'version', 'blob', 'meta', 'initial')
if not game[1] or after >= tonumber(game[1]) then return {} end
local latest = tonumber(game[1])
local since = redis.call('LLEN', KEYS[3])
local last_kept = math.max(after, since)
local log_from = 0
if last_kept >= latest - 1 then log_from = after end
local kept = {}
if after < since then kept = redis.call('LRANGE', KEYS[3], after, since - 1) end
local initial = false
if log_from == 0 then initial = game[4] end
return {latest, game[2], game[3], initial, log_from,
        redis.call('LRANGE', KEYS[2], log_from, latest - 1),
        redis.call('LRANGE', KEYS[4], last_kept - since, -1), kept}
