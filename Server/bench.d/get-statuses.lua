-- wrk: GET /inApps/v1/subscriptions/{id} (Get All Subscription Statuses), the ids of IDS_FILE in
-- turn (each thread from its own offset). Authorization: the one JWT of JWT_FILE, or with
-- JWTS_FILE a different JWT each request (each thread takes every Nth line of THREADS; a thread
-- that has used all its tokens starts over and the summary counts the reused ones). Counts answers
-- that are not HTTP 200 with a non-empty "data", by status. URL_PREFIX and EXPECT change the path
-- before the id and the text a good answer holds (Server/bench-subscription-metrics: entitlements).
local threads = {}
local count = 0
function setup(thread)
    thread:set("id", count)
    count = count + 1
    table.insert(threads, thread)
end

local function lines(path, keep)
    local result = {}
    local index = 0
    for line in io.lines(path) do
        if keep(index) then table.insert(result, line) end
        index = index + 1
    end
    return result
end

function init(args)
    local every = tonumber(os.getenv("THREADS"))
    ids = lines(os.getenv("IDS_FILE"), function() return true end)
    next_id = 1 + math.floor(#ids * id / every)
    if os.getenv("JWTS_FILE") then
        tokens = lines(os.getenv("JWTS_FILE"), function(index) return index % every == id end)
    else
        tokens = lines(os.getenv("JWT_FILE"), function(index) return index == 0 end)
    end
    next_token = 1
    sent = 0
    reused = 0
    bad = 0
    statuses = {}
end

function request()
    local path = (os.getenv("URL_PREFIX") or "/inApps/v1/subscriptions/") .. ids[next_id]
    next_id = next_id % #ids + 1
    local token = tokens[next_token]
    next_token = next_token % #tokens + 1
    sent = sent + 1
    if os.getenv("JWTS_FILE") and sent > #tokens then reused = reused + 1 end
    return wrk.format("GET", path, {["Authorization"] = "Bearer " .. token})
end

function response(status, headers, body)
    if status ~= 200 or not string.find(body, os.getenv("EXPECT") or '"data":[{', 1, true) then
        bad = bad + 1
        statuses[status] = (statuses[status] or 0) + 1
    end
end

function done(summary, latency, requests)
    local totalSent, totalReused, totalBad = 0, 0, 0
    local byStatus = {}
    for _, thread in ipairs(threads) do
        totalSent = totalSent + thread:get("sent")
        totalReused = totalReused + thread:get("reused")
        totalBad = totalBad + thread:get("bad")
        for status, n in pairs(thread:get("statuses")) do byStatus[status] = (byStatus[status] or 0) + n end
    end
    local parts = {}
    for status, n in pairs(byStatus) do table.insert(parts, string.format("%s:%d", status, n)) end
    local line = string.format("sent=%d not_expected=%d", totalSent, totalBad)
    if os.getenv("JWTS_FILE") then line = line .. string.format(" jwt_reused=%d", totalReused) end
    if #parts > 0 then line = line .. " (" .. table.concat(parts, " ") .. ")" end
    io.write("BENCH " .. line .. "\n")
end
