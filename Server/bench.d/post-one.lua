-- wrk: POST one body (BODY_FILE) again and again; counts answers that are not {"status":0,...}.
local threads = {}
function setup(thread) table.insert(threads, thread) end

function init(args)
    local file = assert(io.open(os.getenv("BODY_FILE"), "rb"))
    wrk.method = "POST"
    wrk.body = file:read("*a")
    wrk.headers["Content-Type"] = "application/json"
    file:close()
    bad = 0
end

function response(status, headers, body)
    if status ~= 200 or not string.find(body, '{"status":0,', 1, true) then bad = bad + 1 end
end

function done(summary, latency, requests)
    local total = 0
    for _, thread in ipairs(threads) do total = total + thread:get("bad") end
    io.write(string.format("BENCH not_status_0=%d\n", total))
end
