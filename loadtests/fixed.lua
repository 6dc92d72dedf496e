-- wrk script: one fixed request (METHOD, BODY, TOKEN, IF_NONE_MATCH from the environment), with DELAY_MS
-- between the requests of each connection to hold the load near a chosen rate.
wrk.method = os.getenv("METHOD") or "GET"
wrk.body = os.getenv("BODY")
wrk.headers["Content-Type"] = "application/json"
local token = os.getenv("TOKEN")
if token then
  wrk.headers["Authorization"] = "Bearer " .. token
end
local etag = os.getenv("IF_NONE_MATCH")  -- a polling client that has the current view
if etag then
  wrk.headers["If-None-Match"] = etag
end

-- Each pause is drawn uniformly around DELAY_MS so the connections do not fire in step
-- (in-step bursts of every connection at once would measure queueing, not the endpoint).
local pause = tonumber(os.getenv("DELAY_MS") or "0")
local thread_count = 0

function setup(thread)
  thread:set("id", thread_count)
  thread_count = thread_count + 1
end

function init(args)
  math.randomseed(1000 + id)
end

function delay()
  return pause * (0.5 + math.random())
end
