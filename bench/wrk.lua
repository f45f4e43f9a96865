-- wrk script for bench/http.ts. The request shape comes from the environment, so one script serves every target:
--   WRK_METHOD  GET or POST (default GET)
--   WRK_BODY    the request body; every "{n}" in it becomes a counter, so each request can be unique
--               (POST /api/players needs a new external_id each time): "<WRK_RUN>-<thread>-<count>"
--   WRK_RUN     a label unique to this run (default: the time)
-- Headers come from wrk's own -H flags. When the run ends, one line "WRK_JSON {...}" gives the counts and the
-- latency percentiles in microseconds, for bench/http.ts to read.
wrk.method = os.getenv("WRK_METHOD") or "GET"
local body = os.getenv("WRK_BODY")
if body ~= nil and body ~= "" then
  wrk.body = body
  if string.find(body, "{n}", 1, true) then
    local counter = 0
    local run = os.getenv("WRK_RUN") or string.format("%x", os.time())
    function request()
      counter = counter + 1
      local b = string.gsub(body, "{n}", run .. "-" .. (tid or 0) .. "-" .. counter)
      return wrk.format(nil, nil, nil, b)
    end
  end
end

local threads = 0
function setup(thread)
  threads = threads + 1
  thread:set("tid", threads)
end

function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    'WRK_JSON {"requests":%d,"duration_us":%d,"connect":%d,"read":%d,"write":%d,"status":%d,"timeout":%d,"p50_us":%d,"p90_us":%d,"p99_us":%d,"max_us":%d}\n',
    summary.requests, summary.duration, e.connect, e.read, e.write, e.status, e.timeout,
    latency:percentile(50), latency:percentile(90), latency:percentile(99), latency.max))
end
