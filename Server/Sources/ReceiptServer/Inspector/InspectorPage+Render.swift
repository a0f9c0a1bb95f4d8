extension InspectorPage {
    /// Fills the result from a report, with `textContent` only. Dates come as milliseconds and are
    /// shown as short UTC (`2024-03-01 12:00Z`) or, with the toggle, Los Angeles time; the title
    /// of each holds both to the second.
    static let render = #"""
        "use strict";
        const $ = (id) => document.getElementById(id);
        const verdictText = {valid: "Valid", "not valid": "Not valid", malformed: "Malformed"};
        const verdictState = {valid: "valid", "not valid": "invalid", malformed: "malformed"};

        const pad2 = (n) => String(n).padStart(2, "0");
        const losAngeles = new Intl.DateTimeFormat("en-US", {timeZone: "America/Los_Angeles", year: "numeric", month: "2-digit",
          day: "2-digit", hour: "2-digit", minute: "2-digit", second: "2-digit", hourCycle: "h23", timeZoneName: "short"});
        function utcText(ms, seconds) {
          const d = new Date(Math.floor(ms));
          return d.getUTCFullYear() + "-" + pad2(d.getUTCMonth() + 1) + "-" + pad2(d.getUTCDate()) + " " + pad2(d.getUTCHours())
            + ":" + pad2(d.getUTCMinutes()) + (seconds ? ":" + pad2(d.getUTCSeconds()) : "") + "Z";
        }
        function laText(ms, seconds) {
          const p = {};
          for (const part of losAngeles.formatToParts(new Date(Math.floor(ms)))) p[part.type] = part.value;
          return p.year + "-" + p.month + "-" + p.day + " " + p.hour + ":" + p.minute + (seconds ? ":" + p.second : "") + " " + p.timeZoneName;
        }
        const zoneText = (ms) => $("zone-la").checked ? laText(ms) : utcText(ms);
        function when(ms) {
          if (ms === undefined || ms === null || ms === "") return "";
          const time = document.createElement("time");
          time.dateTime = new Date(Math.floor(Number(ms))).toISOString();
          time.dataset.ms = String(ms);
          time.title = "UTC " + utcText(Number(ms), true) + "\nLos Angeles " + laText(Number(ms), true);
          time.textContent = zoneText(Number(ms));
          return time;
        }
        function showZone() {
          for (const time of document.querySelectorAll("time[data-ms]")) time.textContent = zoneText(Number(time.dataset.ms));
          drawTimelines();
        }

        function badges(names, box) {
          box = box || document.createElement("span");
          box.className = "badges";
          box.replaceChildren();
          for (const name of names || []) {
            const badge = document.createElement("span");
            badge.className = "badge " + name;
            badge.textContent = name;
            box.appendChild(badge);
          }
          return names && names.length ? box : "";
        }

        function row(table, cells, className) {
          const tr = document.createElement("tr");
          if (className) tr.className = className;
          const labels = [...table.tHead.rows[0].cells].map((th) => th.textContent);
          cells.forEach(([content, cellClass], index) => {
            const td = document.createElement("td");
            td.dataset.label = labels[index] || "";
            if (content instanceof Node) td.appendChild(content);
            else td.textContent = content === undefined || content === null ? "" : String(content);
            if (cellClass) td.className = cellClass;
            tr.appendChild(td);
          });
          table.tBodies[0].appendChild(tr);
        }

        function fillFields(table, fields) {
          table.tBodies[0].replaceChildren();
          for (const f of fields) row(table, [[f.name], ["ms" in f ? when(f.ms) : "utc" in f ? f.utc : f.value]]);
        }

        function renderNested(tokens) {
          $("nested").replaceChildren();
          for (const token of tokens || []) {
            const heading = document.createElement("h2");
            heading.append(token.name + " ", badges(token.badges));
            const note = document.createElement("p");
            note.className = "note nested-note";
            note.textContent = "Decoded from " + token.path + " (" + token.payload_kind + "). The notification's signature covers "
              + "this token; its own signature is not checked here.";
            const table = document.createElement("table");
            table.className = "pairs nested-fields";
            const header = table.createTHead().insertRow();
            for (const name of ["Field", "Value"]) header.appendChild(document.createElement("th")).textContent = name;
            table.createTBody();
            $("nested").append(heading, note, table);
            fillFields(table, token.fields);
          }
        }

        function render(r) {
          $("result").hidden = false;
          $("verdict").textContent = verdictText[r.verdict] || r.verdict;
          $("verdict").dataset.state = verdictState[r.verdict] || "";
          $("summary").hidden = !r.summary;
          $("summary").textContent = r.summary ? r.summary.text : "";
          $("summary").title = r.summary ? "judged at " + r.summary.judged_at + ", when you asked" : "";
          $("message").textContent = r.message;
          $("failure").hidden = !r.rule;
          $("rule").textContent = r.rule || "";
          $("failed-certificate").textContent = r.failed_certificate || "(none named)";
          const context = [];
          if (r.kind) context.push(r.kind === "jws" ? "StoreKit 2 signed data" + (r.payload_kind ? " (" + r.payload_kind + ")" : "") : r.kind === "transaction-receipt" ? "iOS 6 transaction receipt" : "App Store receipt");
          if (r.policy) context.push("policy " + r.policy);
          $("context").replaceChildren(context.join(" · "));
          if (r.validation_time_ms) $("context").append(" · certificates checked as of ", when(r.validation_time_ms));

          $("purchases-section").hidden = r.kind === "jws";
          $("purchases").tBodies[0].replaceChildren();
          $("purchase-count").textContent = r.purchases_omitted > 0
            ? r.purchases_total + ", the first " + r.purchases.length + " shown, " + r.purchases_omitted + " omitted"
            : String(r.purchases.length);
          r.purchases.forEach((p, i) => {
            const transaction = document.createElement("span");
            transaction.append(p.transaction_id);
            if (p.original_transaction_id && p.original_transaction_id !== p.transaction_id) {
              transaction.appendChild(document.createElement("span")).className = "original";
              transaction.lastChild.textContent = "original " + p.original_transaction_id;
            }
            row($("purchases"), [[p.product_id + (p.quantity && p.quantity !== "1" ? " × " + p.quantity : "")],
                [badges(r.purchase_badges && r.purchase_badges[i])], [when(p.purchase_date_ms)], [when(p.expires_date_ms)],
                [when(p.cancellation_date_ms)], [transaction, "mono"]]);
          });

          badges(r.badges, $("field-badges"));
          fillFields($("fields"), r.fields);
          renderNested(r.nested);

          $("chain").tBodies[0].replaceChildren();
          $("chain-note").textContent = r.chain.length === 0 ? "No certificates."
            : r.chain_verified ? "The verified path, signer first, trust anchor last."
            : "The certificates the data carries (no path verified).";
          for (const c of r.chain) {
            const until = document.createElement("span");
            until.append(when(c.not_after_ms), c.valid_at_validation_time === false ? " (not valid then)" : "");
            row($("chain"), [[c.role, "nowrap"], [c.subject], [c.issuer], [when(c.not_before_ms)], [until], [c.sha256, "mono fingerprint"]],
                c.failed ? "failed" : "");
          }

          let raw = r.raw || (r.purchases_omitted > 0
            ? "(not shown for a receipt of " + r.purchases_total + " purchases: run receipt verify --json on it)" : "");
          try { raw = JSON.stringify(JSON.parse(raw), null, 2); } catch (error) { /* shown as it is */ }
          $("raw").textContent = raw;

          $("curl-section").hidden = !r.receipt_data;
          $("curl").textContent = r.receipt_data
            ? "curl -s -X POST " + location.origin + r.endpoint + " -H 'Content-Type: application/json' --data-binary '{\"receipt-data\":\""
              + r.receipt_data + "\"}'"
            : "";

          $("subscriptions-section").hidden = !(r.subscriptions && r.subscriptions.length);
          renderTimelines(r.subscriptions || [], r.summary ? r.summary.judged_at_ms : Date.now());
        }

        """#
}
