extension InspectorPage {
    /// The page's style: system fonts only. `[hidden]` wins over every `display` rule, so a
    /// section the script hides (the failure box of a valid receipt) is never drawn. Nothing is
    /// wider than the window: long values wrap anywhere, and below 700 px each table row becomes
    /// a card of labelled lines.
    static let style = """
        [hidden]{display:none!important}
        *{box-sizing:border-box}
        :root{color-scheme:light dark;--ok:#1a7f37;--bad:#cf222e;--warn:#9a6700;--line:#d0d7de;--muted:#656d76;--blue:#0969da;
        --violet:#8250df;--sky:#54aeff;--grey:#8c959f}
        body{font:15px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0 auto;max-width:1200px;padding:1rem 1.5rem}
        h1{margin:.2rem 0}h2{font-size:1.1rem;margin:1.6rem 0 .4rem}
        code,pre,td.mono{font-family:ui-monospace,"SF Mono",Menlo,Consolas,monospace;font-size:.85rem}
        #input{display:grid;grid-template-columns:minmax(0,1fr) minmax(0,1fr);gap:1rem}
        #drop{border:2px dashed var(--line);border-radius:8px;padding:2rem 1rem;text-align:center;cursor:pointer;display:flex;
        flex-direction:column;gap:.3rem;justify-content:center}
        #drop.over{border-color:var(--ok);background:rgba(26,127,55,.08)}
        #file{display:none}
        #paste-box{display:flex;flex-direction:column;gap:.5rem;min-width:0}
        #paste{min-height:6rem;resize:vertical;width:100%;font-family:ui-monospace,Menlo,Consolas,monospace}
        .buttons{display:flex;flex-wrap:wrap;gap:.5rem;align-items:center}
        button{padding:.35rem 1rem;border-radius:6px;border:1px solid var(--line);cursor:pointer}
        #verdict{font-size:1.6rem;font-weight:700;margin-top:1rem}
        #verdict[data-state=valid]{color:var(--ok)}#verdict[data-state=invalid]{color:var(--bad)}
        #verdict[data-state=malformed]{color:var(--warn)}
        #summary{font-size:1.1rem;font-weight:600;margin:.2rem 0}
        #message{font-family:ui-monospace,Menlo,Consolas,monospace}
        #message,td,dd,#context,figcaption{overflow-wrap:anywhere}
        #failure{display:grid;grid-template-columns:max-content minmax(0,1fr);gap:.2rem 1rem;border-left:4px solid var(--bad);
        padding-left:.8rem}
        #failure dt{font-weight:600}#failure dd{margin:0}
        .note,#context{color:var(--muted)}
        table{border-collapse:collapse;width:100%}
        th,td{border-bottom:1px solid var(--line);padding:.3rem .5rem;text-align:left;vertical-align:top}
        tr.failed td{background:rgba(207,34,46,.1)}td.fingerprint{word-break:break-all}table.pairs td:first-child{width:30%}
        time{white-space:nowrap;text-decoration:underline dotted var(--grey);text-underline-offset:3px}
        .badges{display:inline-flex;flex-wrap:wrap;gap:.25rem;vertical-align:middle}
        .badge{border-radius:1rem;padding:0 .5rem;font-size:.75rem;font-weight:600;color:#fff;background:var(--grey);white-space:nowrap}
        .badge.active{background:var(--ok)}.badge.refunded{background:var(--bad)}.badge.trial{background:var(--sky);color:#000}
        .badge.upgraded{background:var(--violet)}
        .original{display:block;color:var(--muted)}.nowrap{white-space:nowrap}.legend>span{white-space:nowrap}
        figure{margin:.6rem 0 1rem}figcaption{margin-bottom:.2rem}
        svg.timeline{display:block;max-width:100%;font-size:11px}
        svg.timeline text{fill:currentColor}
        .period{fill:var(--blue)}.period.active{fill:var(--ok)}.period.expired{fill:var(--grey)}.period.trial{fill:var(--sky)}
        .period.refunded{fill:var(--bad)}.period.upgraded{fill:var(--violet)}
        .gap{fill:rgba(207,34,46,.08);stroke:var(--bad);stroke-dasharray:3 3}
        .cancel{stroke:var(--bad);stroke-width:2}.now{stroke:var(--warn);stroke-width:2;stroke-dasharray:4 2}.axis{stroke:var(--line)}
        .swatch{display:inline-block;width:.9rem;height:.6rem;margin:0 .2rem 0 .6rem;border-radius:2px;background:var(--blue)}
        .swatch.active{background:var(--ok)}.swatch.expired{background:var(--grey)}.swatch.trial{background:var(--sky)}
        .swatch.refunded{background:var(--bad)}.swatch.upgraded{background:var(--violet)}
        .swatch.gap{background:none;border:1px dashed var(--bad)}.swatch.now{width:.2rem;background:var(--warn)}
        .nested-note{margin-top:-.2rem}
        pre{background:rgba(127,127,127,.1);padding:.8rem;border-radius:6px;overflow:auto;max-height:28rem;white-space:pre-wrap;
        word-break:break-all}
        @media (max-width:700px){
        body{padding:.75rem}
        #input{grid-template-columns:minmax(0,1fr)}
        table.cards thead,table.pairs thead{display:none}
        table.cards,table.cards tbody,table.cards tr,table.cards td{display:block}
        table.cards tr{border-bottom:1px solid var(--line);padding:.4rem 0}
        table.cards td{border:0;padding:.1rem 0 .1rem 6.5rem;position:relative;min-height:1.2rem}
        table.cards td::before{content:attr(data-label);position:absolute;left:0;width:6rem;color:var(--muted);
        font:.85rem system-ui,-apple-system,"Segoe UI",sans-serif}
        table.cards td:empty{display:none}
        table.pairs td{display:block;border:0;padding:0 .2rem}
        table.pairs td:first-child{padding-top:.4rem;color:var(--muted);font-size:.85rem}
        table.pairs tr{display:block;border-bottom:1px solid var(--line);padding-bottom:.3rem}
        }
        """
}
