import ReceiptService

/// A chart of daily values as inline SVG: lines or bars over the window's days, a zero line,
/// three value ticks and the first, middle and last dates. The picture scales with its box
/// (`viewBox`); series are told apart by class (`DashboardPage.style` colours them) and by the
/// legend under the chart.
struct DashboardChart {
    /// One series: its legend, its CSS class and one value per day.
    struct Series {
        let label: String
        let cssClass: String
        let values: [Double]
    }

    enum Kind { case line, bars }

    let id: String
    let title: String
    let days: [Int64]
    let kind: Kind
    let series: [Series]
    /// How a tick value is written.
    let format: (Double) -> String

    static let width = 640.0, height = 260.0
    static let left = 72.0, right = 14.0, top = 14.0, bottom = 40.0

    var svg: String {
        let values = series.flatMap(\.values)
        let (low, high) = Self.range(values)
        let plotWidth = Self.width - Self.left - Self.right, plotHeight = Self.height - Self.top - Self.bottom
        func y(_ v: Double) -> Double { Self.top + plotHeight * (1 - (v - low) / (high - low)) }
        let slot = plotWidth / Double(max(days.count, 1))
        func x(_ index: Int) -> Double { Self.left + slot * (Double(index) + 0.5) }

        var svg = #"<svg viewBox="0 0 \#(Int(Self.width)) \#(Int(Self.height))" role="img" aria-labelledby="\#(id)-title">"#
        svg += #"<title id="\#(id)-title">\#(DashboardPage.escape(title))</title>"#
        for tick in low < 0 ? [low, 0, high] : [low, (low + high) / 2, high] {
            let line = tick == 0 && low < 0 ? "zero" : "grid"
            svg += #"<line class="\#(line)" x1="\#(Self.left)" x2="\#(Self.width - Self.right)" y1="\#(r(y(tick)))" y2="\#(r(y(tick)))"/>"#
            svg += #"<text class="tick" x="\#(Self.left - 8)" y="\#(r(y(tick) + 6))" text-anchor="end">\#(DashboardPage.escape(format(tick)))</text>"#
        }
        for index in Set([0, days.count / 2, days.count - 1]).sorted() where days.indices.contains(index) {
            let anchor = index == 0 ? "start" : index == days.count - 1 ? "end" : "middle"
            let at = index == 0 ? Self.left : index == days.count - 1 ? Self.width - Self.right : x(index)
            svg += #"<text class="tick" x="\#(r(at))" y="\#(Self.height - 12)" text-anchor="\#(anchor)">\#(UTCDay.format(days[index]))</text>"#
        }
        switch kind {
        case .line:
            for s in series {
                let points = s.values.enumerated().map { "\(r(x($0.offset))),\(r(y($0.element)))" }.joined(separator: " ")
                svg +=
                    days.count == 1
                    ? #"<circle class="\#(s.cssClass)" cx="\#(r(x(0)))" cy="\#(r(y(s.values.first ?? 0)))" r="4"/>"#
                    : #"<polyline class="line \#(s.cssClass)" points="\#(points)"/>"#
            }
        case .bars:
            let barWidth = max(slot * 0.8 / Double(max(series.count, 1)), 0.5)
            for (number, s) in series.enumerated() {
                for (index, value) in s.values.enumerated() where value != 0 {
                    let x0 = x(index) - slot * 0.4 + barWidth * Double(number)
                    let (a, b) = (y(max(value, 0)), y(min(value, 0)))
                    svg += #"<rect class="bar \#(s.cssClass)" x="\#(r(x0))" y="\#(r(a))" width="\#(r(barWidth))" height="\#(r(max(b - a, 0.5)))"/>"#
                }
            }
        }
        return svg + "</svg>"
    }

    /// The figure: caption, chart, legend.
    var html: String {
        let legend = series.map { #"<span><span class="swatch \#($0.cssClass)"></span>\#(DashboardPage.escape($0.label))</span>"# }
        return
            #"<figure id="\#(id)"><figcaption>\#(DashboardPage.escape(title))</figcaption>\#(svg)<p class="legend">\#(legend.joined(separator: " "))</p></figure>"#
    }

    /// The axis range: from 0 (or the lowest negative value) to a round value above the highest.
    static func range(_ values: [Double]) -> (Double, Double) {
        let high = nice(max(values.max() ?? 0, 0)), lowest = min(values.min() ?? 0, 0)
        let low = lowest < 0 ? -nice(-lowest) : 0
        return (low, high == 0 && low == 0 ? 1 : max(high, low == 0 ? 1 : 0))
    }

    /// 1, 2 or 5 times a power of ten, at least `value`.
    static func nice(_ value: Double) -> Double {
        guard value > 0 else { return 0 }
        var power = 1.0
        while power * 10 <= value { power *= 10 }
        while power > value { power /= 10 }
        for step in [1.0, 2, 5, 10] where step * power >= value { return step * power }
        return 10 * power
    }

    private func r(_ value: Double) -> String {
        let rounded = (value * 10).rounded() / 10
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
    }
}
