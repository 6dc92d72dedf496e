-- spend(key, period ms, limit): GCRA on Redis' own clock, so every replica counts alike.
-- Returns allowed (0/1), remaining, retry after (ms), reset (ms), as service/store/gcra.py.
-- Not a script of its own: spend.lua and load_spending.lua start with it.
local function spend(key, period, limit)
  local t = redis.call('TIME')
  local now = tonumber(t[1]) * 1000 + tonumber(t[2]) / 1000
  local interval = period / limit
  local tolerance = period - interval
  local tat = math.max(tonumber(redis.call('GET', key) or now), now)
  if tat - now > tolerance then
    return {0, 0, math.floor(tat - now - tolerance) + 1, math.floor(tat - now)}
  end
  tat = tat + interval
  redis.call('SET', key, tostring(tat), 'PX', math.ceil(tat - now))
  return {1, math.floor((tolerance - (tat - now)) / interval) + 1, 0, math.floor(tat - now)}
end
