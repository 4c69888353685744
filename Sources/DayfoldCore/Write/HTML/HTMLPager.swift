/// Splits a page's blocks (a coach's clients, the rows of the clients at
/// risk) over as many pages as keep each under the report's page limit
/// (SPEC §14: no page over 5 MB): `coach-<id>.html`, `coach-<id>-2.html`, …
/// A single block larger than a page gets a page of its own.
enum HTMLPager {
    /// The bytes reserved for a page's links to its neighbours.
    static let navigationBytes = 512

    /// The ranges of `blocks` on each page: the first page has
    /// `firstBudget` bytes for blocks, the others `budget`. Always one page
    /// at least (an empty one when there are no blocks).
    static func split(_ blocks: [String], firstBudget: Int, budget: Int) -> [Range<Int>] {
        var pages: [Range<Int>] = []
        var start = 0
        var used = 0
        var limit = firstBudget
        for (index, block) in blocks.enumerated() {
            let size = block.utf8.count
            if index > start && used + size > limit {
                pages.append(start..<index)
                start = index
                used = 0
                limit = budget
            }
            used += size
        }
        pages.append(start..<blocks.count)
        return pages
    }

    /// The file name of page `page` (1-based) of `base`.
    static func fileName(_ base: String, page: Int) -> String {
        page == 1 ? "\(base).html" : "\(base)-\(page).html"
    }

    /// "page 2 of 5" with links to the previous and next page; empty for a single page.
    static func navigation(_ base: String, page: Int, count: Int) -> String {
        guard count > 1 else { return "" }
        var links: [String] = []
        if page > 1 { links.append("<a href=\"\(fileName(base, page: page - 1))\">← previous page</a>") }
        links.append("<span>page \(page) of \(count)</span>")
        if page < count { links.append("<a href=\"\(fileName(base, page: page + 1))\">next page →</a>") }
        return "<p class=\"pager\">" + links.joined() + "</p>\n"
    }
}
