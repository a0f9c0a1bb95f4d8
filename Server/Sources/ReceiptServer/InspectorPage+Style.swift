extension InspectorPage {
    /// The page's style: system fonts only. `[hidden]` wins over every `display` rule, so a
    /// section the script hides (the failure box of a valid receipt) is never drawn.
    static let style = """
        [hidden]{display:none!important}
        :root{color-scheme:light dark;--ok:#1a7f37;--bad:#cf222e;--warn:#9a6700;--line:#d0d7de;--muted:#656d76}
        body{font:15px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0 auto;max-width:1200px;padding:1rem 1.5rem}
        h1{margin:.2rem 0}h2{font-size:1.1rem;margin:1.6rem 0 .4rem}
        code,pre,td.mono{font-family:ui-monospace,"SF Mono",Menlo,Consolas,monospace;font-size:.85rem}
        #input{display:grid;grid-template-columns:1fr 1fr;gap:1rem}
        #drop{border:2px dashed var(--line);border-radius:8px;padding:2rem 1rem;text-align:center;cursor:pointer;display:flex;
        flex-direction:column;gap:.3rem;justify-content:center}
        #drop.over{border-color:var(--ok);background:rgba(26,127,55,.08)}
        #file{display:none}
        #paste-box{display:flex;flex-direction:column;gap:.5rem}
        #paste{min-height:6rem;resize:vertical;font-family:ui-monospace,Menlo,Consolas,monospace}
        button{align-self:flex-start;padding:.35rem 1rem;border-radius:6px;border:1px solid var(--line);cursor:pointer}
        #verdict{font-size:1.6rem;font-weight:700;margin-top:1rem}
        #verdict[data-state=valid]{color:var(--ok)}#verdict[data-state=invalid]{color:var(--bad)}
        #verdict[data-state=malformed]{color:var(--warn)}
        #message{font-family:ui-monospace,Menlo,Consolas,monospace;word-break:break-word}
        #failure{display:grid;grid-template-columns:max-content 1fr;gap:.2rem 1rem;border-left:4px solid var(--bad);padding-left:.8rem}
        #failure dt{font-weight:600}#failure dd{margin:0}
        .note,#context{color:var(--muted)}
        .scroll{overflow-x:auto}
        table{border-collapse:collapse;width:100%}
        th,td{border-bottom:1px solid var(--line);padding:.3rem .5rem;text-align:left;vertical-align:top}
        tr.failed td{background:rgba(207,34,46,.1)}td.fingerprint{word-break:break-all;min-width:14rem}
        pre{background:rgba(127,127,127,.1);padding:.8rem;border-radius:6px;overflow:auto;max-height:28rem;white-space:pre-wrap;
        word-break:break-all}
        @media (max-width:700px){#input{grid-template-columns:1fr}}
        """
}
