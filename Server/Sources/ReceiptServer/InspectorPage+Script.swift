extension InspectorPage {
    /// The page's script: sends the dropped, chosen or pasted bytes to `POST /inspect` and fills
    /// the result from the report, with `textContent` only.
    static let script = #"""
        "use strict";
        const $ = (id) => document.getElementById(id);
        const verdictText = {valid: "Valid", "not valid": "Not valid", malformed: "Malformed"};
        const verdictState = {valid: "valid", "not valid": "invalid", malformed: "malformed"};

        async function inspect(body) {
          $("status").textContent = "Inspecting…";
          let response;
          try {
            response = await fetch("/inspect", {method: "POST", headers: {"Content-Type": "application/octet-stream"}, body});
          } catch (error) {
            $("status").textContent = "The server did not answer: " + error;
            return;
          }
          if (!response.ok) {
            $("status").textContent = response.status === 413 ? "The file is larger than this server accepts (--max-body)."
                                                              : "The server answered HTTP " + response.status + ".";
            return;
          }
          render(await response.json());
          $("status").textContent = "";
        }

        function row(table, cells, className) {
          const tr = document.createElement("tr");
          if (className) tr.className = className;
          for (const [text, cellClass] of cells) {
            const td = document.createElement("td");
            td.textContent = text === undefined || text === null ? "" : String(text);
            if (cellClass) td.className = cellClass;
            tr.appendChild(td);
          }
          table.tBodies[0].appendChild(tr);
        }

        function clear(id) { $(id).tBodies[0].replaceChildren(); }

        function render(r) {
          $("result").hidden = false;
          $("verdict").textContent = verdictText[r.verdict] || r.verdict;
          $("verdict").dataset.state = verdictState[r.verdict] || "";
          $("message").textContent = r.message;
          $("failure").hidden = !r.rule;
          $("rule").textContent = r.rule || "";
          $("failed-certificate").textContent = r.failed_certificate || "(none named)";
          const context = [];
          if (r.kind) context.push(r.kind === "jws" ? "StoreKit 2 signed data" + (r.payload_kind ? " (" + r.payload_kind + ")" : "") : r.kind === "transaction-receipt" ? "iOS 6 transaction receipt" : "App Store receipt");
          if (r.policy) context.push("policy " + r.policy);
          if (r.validation_time) context.push("judged at " + r.validation_time);
          $("context").textContent = context.join(" · ");

          clear("chain");
          $("chain-note").textContent = r.chain.length === 0 ? "No certificates."
            : r.chain_verified ? "The verified path, signer first, trust anchor last."
            : "The certificates the data carries (no path verified).";
          for (const c of r.chain) {
            const validity = c.valid_at_validation_time === false ? " (not valid then)" : "";
            row($("chain"), [[c.role], [c.subject], [c.issuer], [c.not_before], [c.not_after + validity], [c.sha256, "mono fingerprint"]],
                c.failed ? "failed" : "");
          }

          clear("fields");
          for (const f of r.fields) {
            if ("utc" in f) row($("fields"), [[f.name], [f.utc], [f.los_angeles]]);
            else row($("fields"), [[f.name], [f.value], [""]]);
          }

          clear("purchases");
          $("purchases-section").hidden = r.kind === "jws";
          $("purchase-count").textContent = r.purchases_omitted > 0
            ? r.purchases_total + ", the first " + r.purchases.length + " shown, " + r.purchases_omitted + " omitted"
            : String(r.purchases.length);
          for (const p of r.purchases) {
            row($("purchases"), [[p.product_id], [p.transaction_id, "mono"], [p.original_transaction_id, "mono"], [p.quantity],
                [p.purchase_date], [p.purchase_date_pst], [p.expires_date], [p.expires_date_pst], [p.cancellation_date]]);
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
        }

        async function inspectFile(file) {
          if (!file) return;
          $("paste").value = "";
          inspect(new Uint8Array(await file.arrayBuffer()));
        }

        const drop = $("drop");
        drop.addEventListener("dragover", (event) => { event.preventDefault(); drop.classList.add("over"); });
        drop.addEventListener("dragleave", () => drop.classList.remove("over"));
        drop.addEventListener("drop", (event) => {
          event.preventDefault();
          drop.classList.remove("over");
          inspectFile(event.dataTransfer.files[0]);
        });
        drop.addEventListener("keydown", (event) => { if (event.key === "Enter" || event.key === " ") $("file").click(); });
        $("file").addEventListener("change", () => inspectFile($("file").files[0]));
        $("inspect").addEventListener("click", () => inspect($("paste").value));
        $("copy-curl").addEventListener("click", async () => {
          try {
            await navigator.clipboard.writeText($("curl").textContent);
            $("copy-curl").textContent = "Copied";
          } catch (error) {
            getSelection().selectAllChildren($("curl"));
            $("copy-curl").textContent = "Selected: press Ctrl+C";
          }
        });
        """#
}
