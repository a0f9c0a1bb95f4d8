-- wrk: POST each line of BODIES_FILE once (each thread takes every Nth line) to URL_PATH (default
-- /verifyReceipt); counts answers that are not HTTP 200 holding EXPECT (default {"status":0,).
-- With JWT_FILE, each request carries its first line as `Authorization: Bearer`.
-- A thread that has sent all its lines starts over (repeats) and the summary says so, so that a
-- run is only reported as distinct when none was resent.
local threads = {}
local count = 0
function setup(thread)
    thread:set("id", count)
    count = count + 1
    table.insert(threads, thread)
end

function init(args)
    local bodies = {}
    local index = 0
    for line in io.lines(os.getenv("BODIES_FILE")) do
        if index % tonumber(os.getenv("THREADS")) == id then table.insert(bodies, line) end
        index = index + 1
    end
    thread_bodies = bodies
    next_body = 1
    sent = 0
    resent = 0
    bad = 0
    path = os.getenv("URL_PATH") or "/verifyReceipt"
    expect = os.getenv("EXPECT") or '{"status":0,'
    headers = {["Content-Type"] = "application/json"}
    if os.getenv("JWT_FILE") then
        local file = assert(io.open(os.getenv("JWT_FILE"), "rb"))
        headers["Authorization"] = "Bearer " .. file:read("*l")
        file:close()
    end
end

function request()
    local body = thread_bodies[next_body]
    next_body = next_body + 1
    if next_body > #thread_bodies then next_body = 1 end
    sent = sent + 1
    if sent > #thread_bodies then resent = resent + 1 end
    return wrk.format("POST", path, headers, body)
end

function response(status, headers, body)
    if status ~= 200 or not string.find(body, expect, 1, true) then bad = bad + 1 end
end

function done(summary, latency, requests)
    local totalSent, totalResent, totalBad = 0, 0, 0
    for _, thread in ipairs(threads) do
        totalSent = totalSent + thread:get("sent")
        totalResent = totalResent + thread:get("resent")
        totalBad = totalBad + thread:get("bad")
    end
    io.write(string.format("BENCH sent=%d resent=%d not_expected=%d\n", totalSent, totalResent, totalBad))
end
