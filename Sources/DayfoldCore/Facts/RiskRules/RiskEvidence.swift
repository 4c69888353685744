/// A rule's evidence (SPEC §5: compact JSON of counts, dates, task ids and
/// reason codes, never free text) as a typed value. Only `EvidenceWriter`
/// turns it into text, so every rule's JSON has the same form.
protocol RiskEvidence: Sendable {
    /// Writes the fields, keys in byte order (as every evidence object is).
    func write(to writer: inout EvidenceWriter)
}

/// The one writer of evidence JSON: one object, no spaces, keys as given
/// (ASCII names, written without escaping), numbers as reports write them.
struct EvidenceWriter {
    private var text = "{"
    private var isEmpty = true

    /// `evidence` as the `evidence` column's text.
    static func json(_ evidence: some RiskEvidence) -> String {
        var writer = EvidenceWriter()
        evidence.write(to: &writer)
        return writer.text + "}"
    }

    private mutating func key(_ name: String) {
        if !isEmpty { text += "," }
        isEmpty = false
        text += "\"" + name + "\":"
    }

    /// A count.
    mutating func field(_ name: String, _ value: Int) {
        key(name)
        text += String(value)
    }

    /// A mean or amount: rounded to 6 decimals, then in the shortest form
    /// that reads back (`formatNumber`), so 0.5 is `0.5` and 2000 is `2000`.
    mutating func field(_ name: String, _ value: Double) {
        key(name)
        text += formatNumber((value * 1_000_000).rounded() / 1_000_000)
    }

    /// A code or an id, escaped by `jsonString`.
    mutating func field(_ name: String, _ value: String) {
        key(name)
        text += jsonString(value)
    }

    /// Ids or codes, in the order given.
    mutating func field(_ name: String, _ values: [String]) {
        key(name)
        text += "[" + values.map(jsonString).joined(separator: ",") + "]"
    }

    /// Dates as `"YYYY-MM-DD"`, in the order given.
    mutating func field(_ name: String, _ dates: [LocalDate]) {
        key(name)
        text += "[" + dates.map { "\"\($0)\"" }.joined(separator: ",") + "]"
    }
}
