-- wrk script: POSTs prepared legal moves, each once. The file named by the MOVES
-- environment variable holds one "path<TAB>token<TAB>body" line per move; thread k of n
-- takes lines k, k+n, ... so no move is sent twice. DELAY_MS paces each connection.
local thread_count = 0

function setup(thread)
  thread:set("id", thread_count)
  thread_count = thread_count + 1
end

function init(args)
  math.randomseed(1000 + id)
  local n, index = tonumber(os.getenv("THREADS") or "1"), 0
  moves, next_move = {}, 1
  for line in io.lines(os.getenv("MOVES")) do
    if index % n == id then
      local path, token, body = line:match("([^\t]+)\t([^\t]+)\t(.+)")
      moves[#moves + 1] = wrk.format("POST", path, {
        ["Authorization"] = "Bearer " .. token, ["Content-Type"] = "application/json"}, body)
    end
    index = index + 1
  end
end

function request()
  local r = moves[next_move]
  next_move = next_move + 1
  if r == nil then
    r = moves[1]  -- out of prepared moves: the rest are refused and counted as non-2xx
  end
  return r
end

-- Each pause is drawn uniformly around DELAY_MS so the connections do not fire in step
-- (in-step bursts of every connection at once would measure queueing, not the endpoint).
local pause = tonumber(os.getenv("DELAY_MS") or "0")

function delay()
  return pause * (0.5 + math.random())
end
