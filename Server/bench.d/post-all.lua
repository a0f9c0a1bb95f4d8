-- wrk: POST each line of BODIES_FILE exactly once (each thread takes every Nth line of THREADS) to
-- URL_PATH, then end the run: a thread that has sent all its lines asks GET /health until its
-- answers are in, marks itself done in DONE_DIR, and the last thread done sends SIGINT to wrk
-- (WRK_PID), which then prints its summary. A loader, not a measurement: -d is only an upper
-- bound. Counts answers that are not HTTP 200 holding EXPECT.
local threads = {}
local count = 0
function setup(thread)
    thread:set("id", count)
    count = count + 1
    table.insert(threads, thread)
end

function init(args)
    every = tonumber(os.getenv("THREADS"))
    bodies = {}
    local index = 0
    for line in io.lines(os.getenv("BODIES_FILE")) do
        if index % every == id then table.insert(bodies, line) end
        index = index + 1
    end
    -- wrk calls thread 0's request() once before the run to check the script; that one is never sent.
    checked = id ~= 0
    sent = 0
    answered = 0
    bad = 0
    finished = false
    expect = os.getenv("EXPECT")
end

function request()
    if not checked then
        checked = true
        return wrk.format("GET", "/health")
    end
    if sent >= #bodies then return wrk.format("GET", "/health") end
    sent = sent + 1
    return wrk.format("POST", os.getenv("URL_PATH"), {["Content-Type"] = "application/json"}, bodies[sent])
end

local function finish()
    finished = true
    local dir = os.getenv("DONE_DIR")
    io.open(dir .. "/" .. id, "w"):close()
    for other = 0, every - 1 do
        local file = io.open(dir .. "/" .. other, "r")
        if not file then return end
        file:close()
    end
    -- In the background: system() ignores SIGINT in wrk until the command returns.
    os.execute("(sleep 0.1; kill -INT " .. os.getenv("WRK_PID") .. ") &")
end

function response(status, headers, body)
    if body == '{"status":"ok"}' then
        if answered >= #bodies and not finished then finish() end
        return
    end
    answered = answered + 1
    if status ~= 200 or not string.find(body, expect, 1, true) then bad = bad + 1 end
end

function done(summary, latency, requests)
    local totalSent, totalAnswered, totalBad = 0, 0, 0
    for _, thread in ipairs(threads) do
        totalSent = totalSent + thread:get("sent")
        totalAnswered = totalAnswered + thread:get("answered")
        totalBad = totalBad + thread:get("bad")
    end
    io.write(string.format("BENCH sent=%d answered=%d not_expected=%d\n", totalSent, totalAnswered, totalBad))
end
