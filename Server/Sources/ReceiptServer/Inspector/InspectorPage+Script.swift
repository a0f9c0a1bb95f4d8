extension InspectorPage {
    /// The page's script, one inline element: the date and cell helpers and the rendering of a
    /// report (`render`), the subscriptions' timelines (`timeline`), and the controls (`controls`).
    static let script = render + timeline + controls

    /// Sends the dropped, chosen or pasted bytes to `POST /inspect`; Clear, Ctrl+Enter (or
    /// Cmd+Enter), the time-zone toggle, and a Copy button whose label comes back after 1.5 s.
    static let controls = #"""
        async function inspect(body) {
          if (typeof body === "string" && body.trim() === "") {
            $("status").textContent = "Paste a receipt or a token first, or drop a file.";
            return;
          }
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
        document.addEventListener("keydown", (event) => {
          if (event.key !== "Enter" || !(event.ctrlKey || event.metaKey)) return;
          event.preventDefault();
          inspect($("paste").value);
        });
        $("clear").addEventListener("click", () => {
          $("paste").value = "";
          $("file").value = "";
          $("result").hidden = true;
          $("status").textContent = "";
          $("paste").focus();
        });
        $("zone-la").addEventListener("change", showZone);

        let copyReset;
        $("copy-curl").addEventListener("click", async () => {
          clearTimeout(copyReset);
          // A clipboard the browser keeps waiting on (no focus, no permission) counts as refused
          // after a second: the text is selected for Ctrl+C instead.
          const refused = new Promise((resolve) => setTimeout(() => resolve(false), 1000));
          const copied = await Promise.race([navigator.clipboard.writeText($("curl").textContent).then(() => true), refused])
            .catch(() => false);
          if (copied) {
            $("copy-curl").textContent = "Copied";
          } else {
            getSelection().selectAllChildren($("curl"));
            $("copy-curl").textContent = "Selected: press Ctrl+C";
          }
          copyReset = setTimeout(() => { $("copy-curl").textContent = "Copy"; }, 1500);
        });
        """#
}
