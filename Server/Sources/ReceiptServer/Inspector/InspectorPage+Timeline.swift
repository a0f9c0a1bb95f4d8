extension InspectorPage {
    /// Draws each subscription as an inline SVG at the width it has (again when that changes): a
    /// lane per product, a bar per period coloured by its badge, a red mark at a cancellation,
    /// dashed boxes for gaps, a line for now, and the first and last dates under the axis. Every
    /// shape's title says what it is.
    static let timeline = #"""
        const svgNS = "http://www.w3.org/2000/svg";
        let timelines = [];
        let judgedAt = 0;
        let drawnWidth = 0;

        function svg(parent, name, attributes, text) {
          const element = parent.appendChild(document.createElementNS(svgNS, name));
          for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, String(value));
          if (text !== undefined) svgTitle(element, text);
          return element;
        }
        function svgTitle(element, text) {
          element.appendChild(document.createElementNS(svgNS, "title")).textContent = text;
        }
        const duration = (ms) => ms >= 86400000 ? Math.round(ms / 86400000) + " d" : Math.round(ms / 3600000) + " h";

        function renderTimelines(subscriptions, now) {
          timelines = subscriptions;
          judgedAt = now;
          $("subscriptions").replaceChildren();
          for (const s of subscriptions) {
            const figure = document.createElement("figure");
            const caption = document.createElement("figcaption");
            const periods = s.periods.length + (s.periods.length === 1 ? " period" : " periods")
              + (s.periods_omitted ? " (the last; " + s.periods_omitted + " earlier not drawn)" : "");
            caption.append(s.product_ids.join(", ") + " · original transaction " + s.original_transaction_id + " · " + periods + " ",
                           badges([s.active ? "active" : "ended"]));
            figure.append(caption, document.createElementNS(svgNS, "svg"));
            $("subscriptions").appendChild(figure);
          }
          drawTimelines();
        }

        function drawTimelines() {
          drawnWidth = $("subscriptions").clientWidth;
          [...$("subscriptions").children].forEach((figure, i) => drawTimeline(figure.lastChild, timelines[i]));
        }

        function drawTimeline(box, s) {
          const width = Math.max(200, box.parentElement.clientWidth);
          const lane = 30, top = 4, bottom = top + s.product_ids.length * lane;
          box.replaceChildren();
          for (const [key, value] of Object.entries({class: "timeline", width, height: bottom + 22, viewBox: "0 0 " + width + " " + (bottom + 22),
                                                      role: "img", "aria-label": "timeline of " + s.original_transaction_id})) {
            box.setAttribute(key, String(value));
          }
          const start = Math.min(...s.periods.map((p) => p.start_ms));
          let end = Math.max(...s.periods.map((p) => p.end_ms));
          if (judgedAt > end && judgedAt - end < (end - start) / 4) end = judgedAt;
          if (end <= start) end = start + 1;
          const x = (ms) => 1 + (ms - start) / (end - start) * (width - 3);
          for (const gap of s.gaps) {
            svg(box, "rect", {class: "gap", x: x(gap.start_ms), y: top, width: Math.max(1, x(gap.end_ms) - x(gap.start_ms)), height: bottom - top - 2},
                "gap of " + duration(gap.end_ms - gap.start_ms) + ": " + zoneText(gap.start_ms) + " – " + zoneText(gap.end_ms));
          }
          const maxChars = Math.floor(width / 7);
          s.product_ids.forEach((product, i) => {
            const label = svg(box, "text", {x: 1, y: top + i * lane + 10});
            label.textContent = product.length > maxChars ? product.slice(0, maxChars - 1) + "…" : product;
          });
          for (const p of s.periods) {
            const y = top + s.product_ids.indexOf(p.product_id) * lane + 13;
            svg(box, "rect", {class: "period " + p.badges.join(" "), x: x(p.start_ms), y, rx: 2, height: 13,
                              width: Math.max(2, x(p.end_ms) - x(p.start_ms) - 1)},
                p.transaction_id + ": " + zoneText(p.start_ms) + " – " + zoneText(p.end_ms) + (p.badges.length ? " (" + p.badges.join(", ") + ")" : ""));
            if (p.cancelled_ms !== undefined && p.cancelled_ms >= start && p.cancelled_ms <= end) {
              svg(box, "line", {class: "cancel", x1: x(p.cancelled_ms), x2: x(p.cancelled_ms), y1: y - 3, y2: y + 16},
                  "cancelled " + zoneText(p.cancelled_ms));
            }
          }
          svg(box, "line", {class: "axis", x1: 0, x2: width, y1: bottom + 1, y2: bottom + 1});
          if (judgedAt >= start && judgedAt <= end) {
            svg(box, "line", {class: "now", x1: x(judgedAt), x2: x(judgedAt), y1: top + 11, y2: bottom + 4}, "now: " + zoneText(judgedAt));
          }
          svg(box, "text", {x: 1, y: bottom + 16}).textContent = zoneText(start);
          svg(box, "text", {x: width - 1, y: bottom + 16, "text-anchor": "end"}).textContent = zoneText(end);
        }

        new ResizeObserver(() => { if ($("subscriptions").clientWidth !== drawnWidth) drawTimelines(); }).observe($("subscriptions"));

        """#
}
