/// One page of the report: the document around a page's body. Pages
/// forbid every request (`Content-Security-Policy: default-src 'none'`,
/// only inline styles), so a page opened from the file system loads
/// nothing from anywhere.
enum HTMLPage {
    static func render(title: String, nav: String, body: String, footer: String) -> String {
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            + "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
            + "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">"
            + "<meta name=\"color-scheme\" content=\"light\">"
            + "<title>\(HTMLText.escape(title))</title><style>\(HTMLStyle.css)</style></head>\n<body>"
            + HTMLStyle.svgDefinitions
            + "<header><nav>\(nav)</nav><h1>\(HTMLText.escape(title))</h1></header>\n<main>\n"
            + body + "</main>\n<footer>\(footer)</footer>\n</body></html>\n"
    }

    /// The bytes a page has besides its body (the style sheet, the
    /// patterns, the frame): what a page's budget leaves for its body.
    static func frameBytes(title: String, nav: String, footer: String) -> Int {
        render(title: title, nav: nav, body: "", footer: footer).utf8.count
    }
}
