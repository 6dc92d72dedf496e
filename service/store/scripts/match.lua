-- One pairing pass of a matchmaking queue (service/matchmaking.py). KEYS: the queue's
-- by_rating, by_arrival, tickets, seating and done (service/store/keys.py, one slot).
-- ARGV: now, size (seats), base window, widening per second waited, neighbours looked at,
-- anchors (the longest-waiting tickets tried), how long done tickets are kept, the new
-- game's id, then one seat token per seat.
-- For each anchor (oldest first): an expired one is dropped; else the tickets whose
-- ratings lie within its window (which widens with its wait) and whose own windows reach
-- it are taken, nearest first, until the table is full; an anchor past its AI-fill delay
-- takes whoever is near and leaves the rest of the seats to the AI. The tickets taken leave
-- the queue and become one group, in this one script: no ticket is seated twice, and a
-- ticket cancelled (also a script) is never seated. Returns the group's tickets (JSON), or
-- nothing.
local now, size = tonumber(ARGV[1]), tonumber(ARGV[2])
local base, widen = tonumber(ARGV[3]), tonumber(ARGV[4])
local look, anchors, keep = tonumber(ARGV[5]), tonumber(ARGV[6]), tonumber(ARGV[7])
local game_id = ARGV[8]

-- Forget a few tickets done with long ago (their owners had `keep` seconds to read them).
for _, old in ipairs(redis.call('ZRANGEBYSCORE', KEYS[5], '-inf', now - keep, 'LIMIT', 0, 20)) do
  redis.call('HDEL', KEYS[3], old)
  redis.call('ZREM', KEYS[5], old)
end

local function leave(id, ticket, status)
  redis.call('ZREM', KEYS[1], id)
  redis.call('ZREM', KEYS[2], id)
  ticket.status = status
  redis.call('HSET', KEYS[3], id, cjson.encode(ticket))
end

local function window(ticket)
  return base + widen * (now - ticket.since)
end

local oldest = redis.call('ZRANGE', KEYS[2], 0, anchors - 1)
for _, id in ipairs(oldest) do
  local ticket = cjson.decode(redis.call('HGET', KEYS[3], id))
  if ticket.expires <= now then
    leave(id, ticket, 'expired')
    redis.call('ZADD', KEYS[5], now, id)
  else
    local reach = window(ticket)
    local near = redis.call('ZRANGEBYSCORE', KEYS[1], ticket.rating - reach,
                            ticket.rating + reach, 'LIMIT', 0, look)
    local others = {}
    for _, other_id in ipairs(near) do
      if other_id ~= id then
        local other = cjson.decode(redis.call('HGET', KEYS[3], other_id))
        local apart = math.abs(other.rating - ticket.rating)
        if other.expires > now and apart <= window(other) then
          table.insert(others, {apart, other_id, other})
        end
      end
    end
    table.sort(others, function(a, b) return a[1] < b[1] or (a[1] == b[1] and a[2] < b[2]) end)
    local fill = ticket.fill_after >= 0 and now - ticket.since >= ticket.fill_after
    local distinct = {}
    for _, other in ipairs(others) do
      if other[3].player ~= ticket.player then distinct[other[3].player] = true end
    end
    local count = 0
    for _ in pairs(distinct) do count = count + 1 end
    if count >= size - 1 or fill then
      local group, players = {{id, ticket}}, {[ticket.player] = true}
      for _, other in ipairs(others) do  -- nearest first, nobody twice at one table
        if #group < size and not players[other[3].player] then
          table.insert(group, {other[2], other[3]})
          players[other[3].player] = true
        end
      end
      local seated, members = {}, {}
      for seat, entry in ipairs(group) do
        entry[2].game_id = game_id
        entry[2].seat = seat - 1
        entry[2].token = ARGV[8 + seat]
        leave(entry[1], entry[2], 'seating')
        table.insert(seated, cjson.encode(entry[2]))
        table.insert(members, entry[2])
      end
      redis.call('HSET', KEYS[3], 'group:' .. game_id, cjson.encode(members))
      redis.call('ZADD', KEYS[4], now, game_id)
      return seated
    end
  end
end
return {}
