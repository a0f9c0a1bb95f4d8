extension DashboardPage {
    /// The pages' one style sheet (allowed by its hash): a single column on a phone, tiles and
    /// two charts a row from 900 px; colours readable in print and without colour (the legend
    /// names each series).
    static let style = """
        :root{--ink:#1d2330;--muted:#5b6475;--line:#d9dde5;--bg:#f6f7f9;--card:#fff;--s1:#2f6fdf;--s2:#7a3fd1;--s3:#d98a00;--s4:#0f8a8a;--s5:#b0306e;--good:#1f9d55;--bad:#d1373d}
        *{box-sizing:border-box}
        body{margin:0;font:16px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--ink);background:var(--bg)}
        header{background:var(--card);border-bottom:1px solid var(--line);padding:12px 16px}
        h1{font-size:1.35rem;margin:0 0 8px}
        main{padding:12px 16px 32px;max-width:1400px;margin:0 auto}
        main.narrow{max-width:520px;margin-top:48px;background:var(--card);border:1px solid var(--line);border-radius:8px;padding:24px}
        form{display:flex;flex-wrap:wrap;gap:8px 12px;align-items:end}
        #sign-in{flex-direction:column;align-items:stretch}
        label{display:flex;flex-direction:column;font-size:.85rem;color:var(--muted);gap:2px}
        input,select,button{font:inherit;padding:6px 8px;border:1px solid var(--line);border-radius:6px;background:#fff;color:var(--ink)}
        button{background:var(--s1);border-color:var(--s1);color:#fff;cursor:pointer}
        .problem{background:#fdecec;border:1px solid #f3b5b7;color:#8a1c21;padding:8px 12px;border-radius:6px}
        .scope{color:var(--muted);margin:4px 0 12px}
        .tiles{display:grid;grid-template-columns:repeat(2,1fr);gap:10px;margin-bottom:14px}
        .tile{background:var(--card);border:1px solid var(--line);border-radius:8px;padding:10px 12px}
        .tile h2{font-size:.8rem;font-weight:600;text-transform:uppercase;letter-spacing:.03em;color:var(--muted);margin:0}
        .tile .value{font-size:1.5rem;font-weight:650;margin:2px 0;font-variant-numeric:tabular-nums}
        .tile .value.money{font-size:1.1rem}
        .tile .note{font-size:.8rem;color:var(--muted);margin:0}
        .charts{display:grid;grid-template-columns:1fr;gap:12px}
        figure{margin:0;background:var(--card);border:1px solid var(--line);border-radius:8px;padding:10px 12px}
        figcaption{font-weight:600;margin-bottom:4px}
        svg{width:100%;height:auto;display:block}
        svg .grid{stroke:var(--line);stroke-width:1}
        svg .zero{stroke:var(--muted);stroke-width:1.5}
        svg .tick{font-size:17px;fill:var(--muted)}
        svg .line{fill:none;stroke-width:3;stroke-linejoin:round}
        .line.s1{stroke:var(--s1)}.line.s2{stroke:var(--s2)}.line.s3{stroke:var(--s3)}.line.s4{stroke:var(--s4)}.line.s5{stroke:var(--s5)}
        circle.s1,.bar.s1,.swatch.s1{fill:var(--s1);background:var(--s1)}circle.s2,.bar.s2,.swatch.s2{fill:var(--s2);background:var(--s2)}
        circle.s3,.bar.s3,.swatch.s3{fill:var(--s3);background:var(--s3)}circle.s4,.bar.s4,.swatch.s4{fill:var(--s4);background:var(--s4)}
        circle.s5,.bar.s5,.swatch.s5{fill:var(--s5);background:var(--s5)}
        .bar.good,.swatch.good{fill:var(--good);background:var(--good)}.bar.bad,.swatch.bad{fill:var(--bad);background:var(--bad)}
        .legend{font-size:.85rem;color:var(--muted);margin:4px 0 0;display:flex;flex-wrap:wrap;gap:4px 14px}
        .swatch{display:inline-block;width:12px;height:12px;border-radius:2px;margin-right:5px;vertical-align:-1px}
        details{margin-top:16px;background:var(--card);border:1px solid var(--line);border-radius:8px;padding:8px 12px}
        .scroll{overflow-x:auto}
        table{border-collapse:collapse;font-size:.85rem;font-variant-numeric:tabular-nums;white-space:nowrap}
        th,td{padding:4px 8px;border-bottom:1px solid var(--line);text-align:right}
        th:first-child,td:first-child{text-align:left}
        @media (max-width:699px){svg .tick{font-size:26px}}
        @media (min-width:700px){.tiles{grid-template-columns:repeat(4,1fr)}}
        @media (min-width:900px){.charts{grid-template-columns:1fr 1fr}.tiles{grid-template-columns:repeat(7,1fr)}}
        """
}
