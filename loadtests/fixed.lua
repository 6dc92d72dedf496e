-- wrk script: one fixed request (METHOD, BODY, TOKEN from the environment), with DELAY_MS
-- between the requests of each connection to hold the load near a chosen rate.
wrk.method = os.getenv("METHOD") or "GET"
wrk.body = os.getenv("BODY")
wrk.headers["Content-Type"] = "application/json"
local token = os.getenv("TOKEN")
if token then
  wrk.headers["Authorization"] = "Bearer " .. token
end

function delay()
  return tonumber(os.getenv("DELAY_MS") or "0")
end
