/// The report's one style sheet and the SVG patterns its charts share,
/// written into every page: a page needs nothing but itself (no fonts,
/// scripts or sheets from elsewhere). Readable from a 375 px phone to a
/// 1280 px screen, and on paper.
enum HTMLStyle {
    static let css = """
        :root{--ink:#1b1b1b;--muted:#5f5f5f;--line:#d8d8d8;--kept:#2e7d32;--broken:#c62828;--open:#1565c0;\
        --high:#b71c1c;--medium:#e65100;--low:#5d4037;--bg:#fff;--soft:#f5f5f5}
        *{box-sizing:border-box}
        html{-webkit-text-size-adjust:100%}
        body{margin:0 auto;max-width:1200px;padding:12px 16px 40px;font:15px/1.45 system-ui,-apple-system,"Segoe UI",\
        Roboto,Helvetica,Arial,sans-serif;color:var(--ink);background:var(--bg)}
        header{border-bottom:2px solid var(--ink);margin-bottom:12px}
        nav{display:flex;flex-wrap:wrap;gap:4px 16px;font-size:14px;padding:4px 0}
        nav a,.pager a{color:var(--open)}
        h1{font-size:24px;margin:8px 0}
        h2{font-size:19px;margin:22px 0 8px}
        h3{font-size:16px;margin:14px 0 6px}
        code{font:13px/1.3 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;overflow-wrap:anywhere}
        .muted{color:var(--muted)}
        .scroll{overflow-x:auto;-webkit-overflow-scrolling:touch}
        table{border-collapse:collapse;font-size:14px;margin:4px 0 8px}
        th,td{border-bottom:1px solid var(--line);padding:4px 8px;text-align:left;vertical-align:top}
        th{background:var(--soft);font-weight:600}
        td.n,th.n{text-align:right;font-variant-numeric:tabular-nums}
        .nowrap{white-space:nowrap}
        table.progress td:last-child{min-width:12em}
        dl.run{display:grid;grid-template-columns:max-content 1fr;gap:2px 12px;margin:4px 0}
        dl.run dt{font-weight:600}
        dl.run dd{margin:0}
        .sev{font-weight:700;white-space:nowrap}
        .sev-HIGH{color:var(--high)}.sev-MEDIUM{color:var(--medium)}.sev-LOW{color:var(--low)}
        section.client{border:1px solid var(--line);border-radius:6px;padding:4px 14px 10px;margin:14px 0}
        section.client h2{margin-top:10px}
        .cards{display:flex;flex-wrap:wrap;gap:8px;margin:6px 0}
        .card{background:var(--soft);border-radius:6px;padding:6px 10px;min-width:110px}
        .card b{display:block;font-size:18px}
        .noplan{color:var(--muted);font-style:italic}
        span.noplan,span.muted{white-space:nowrap}
        svg.chart{display:block;max-width:100%;height:auto}
        svg.cal{width:100%;max-width:300px}
        svg.push{width:100%}
        svg.bars{width:100%;max-width:640px}
        svg.bar{width:140px;height:14px;display:block}
        .cal .k,.sw .k{fill:var(--kept)}
        .cal .b,.sw .b{fill:var(--broken)}
        .cal .n,.sw .n{fill:url(#np);stroke:#9e9e9e;stroke-width:.5}
        .cal .o,.sw .o{fill:url(#op);stroke:var(--open);stroke-width:1;stroke-dasharray:2 1}
        .cal text,.chart text{font:10px system-ui,sans-serif;fill:var(--muted)}
        .bar .track{fill:var(--soft)}.bar .fill{fill:#455a64}.bar .goal{stroke:var(--ink);stroke-width:1.5}
        ul.legend{list-style:none;display:flex;flex-wrap:wrap;gap:4px 14px;padding:0;margin:4px 0;font-size:13px}
        ul.legend svg{width:12px;height:12px;vertical-align:-1px;margin-right:4px}
        details{margin:4px 0 8px}
        summary{cursor:pointer;color:var(--open);font-size:14px}
        .pager{display:flex;gap:16px;margin:16px 0;font-size:14px}
        .defs{position:absolute;width:0;height:0;overflow:hidden}
        footer{margin-top:28px;border-top:1px solid var(--line);padding-top:6px;font-size:13px;color:var(--muted)}
        @media (max-width:600px){body{font-size:14px;padding:8px 10px 30px}h1{font-size:20px}\
        th,td{padding:3px 5px}.card{min-width:90px}section.client{padding:2px 8px 8px}\
        table.progress,table.progress tbody{display:block}table.progress tr:first-child{display:none}\
        table.progress tr{display:grid;grid-template-columns:1fr auto;border-bottom:1px solid var(--line);\
        padding:3px 0}table.progress td{border:0;padding:1px 4px}\
        table.progress td:nth-child(3),table.progress td:nth-child(4){grid-column:1/-1}\
        table.progress td:last-child{min-width:0;color:var(--muted);font-size:13px}}
        @media print{body{max-width:none;padding:0;font-size:11pt}nav,.pager,summary{display:none}\
        a{color:inherit;text-decoration:none}section.client,table,svg{break-inside:avoid}\
        .scroll{overflow:visible}th{background:none}}
        """

    /// The patterns of *no plan* (grey hatching) and *open* (dots), defined
    /// once per page and used by every calendar on it.
    static let svgDefinitions =
        "<svg class=\"defs\" aria-hidden=\"true\" focusable=\"false\"><defs>"
        + "<pattern id=\"np\" width=\"5\" height=\"5\" patternUnits=\"userSpaceOnUse\" patternTransform=\"rotate(45)\">"
        + "<rect width=\"5\" height=\"5\" fill=\"#eeeeee\"/><rect width=\"1.6\" height=\"5\" fill=\"#9e9e9e\"/></pattern>"
        + "<pattern id=\"op\" width=\"5\" height=\"5\" patternUnits=\"userSpaceOnUse\">"
        + "<rect width=\"5\" height=\"5\" fill=\"#ffffff\"/><circle cx=\"2.5\" cy=\"2.5\" r=\"1.1\" fill=\"#1565c0\"/>"
        + "</pattern></defs></svg>"
}
