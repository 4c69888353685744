import Foundation

/// health/: health CSV files and Apple Health exports (SPEC §1.5, §9).
/// Both feed one decision function so a sample is judged the same wherever
/// it came from.
extension DropIngestor {
    /// The text fields of one health row, from either source.
    struct HealthFields {
        var user: String?
        var type: String?
        var value: String?
        var unit: String?
        var start: String?
        var end: String?
        var sourceName: String?
        var bundleID: String?
    }

    /// Decides a health row: its fate and, when rejected, the reason.
    /// Order: unknown type → missing value → bad instant → unknown unit →
    /// non-numeric → after as-of → self-source → exact duplicate → accepted.
    func decideHealth(_ fields: HealthFields, seen: inout Set<String>) -> (RowFate, String?) {
        guard let type = fields.type else { return (.rejected, "missing_column:type") }
        guard let metric = HealthTypes.metric(forType: type) else { return (.ignored, nil) }
        guard let user = fields.user else { return (.rejected, "missing_column:user_id") }
        guard let valueText = fields.value else { return (.rejected, "missing_column:value") }
        guard let unit = fields.unit else { return (.rejected, "missing_column:unit") }
        guard let startText = fields.start else { return (.rejected, "missing_column:start") }
        let startBytes = Array(startText.utf8)
        guard let start = InstantParser.parse(startBytes, 0, startBytes.count) else {
            return (.rejected, "bad_instant:start")
        }
        var end: Instant?
        if let endText = fields.end {
            let endBytes = Array(endText.utf8)
            guard let parsed = InstantParser.parse(endBytes, 0, endBytes.count) else {
                return (.rejected, "bad_instant:end")
            }
            end = parsed.instant
        }
        let valueBytes = Array(valueText.utf8)
        guard let raw = parseDouble(valueBytes, 0, valueBytes.count) else {
            // A unit the type does not know is the first problem to report.
            if HealthTypes.normalize(0, unit: unit, metric: metric) == nil {
                return (.rejected, "unknown_unit:\(unit)/\(type)")
            }
            return (.rejected, "non_numeric:value")
        }
        guard let value = HealthTypes.normalize(raw, unit: unit, metric: metric) else {
            return (.rejected, "unknown_unit:\(unit)/\(type)")
        }
        if isAfterAsOf(start.instant) { return (.ignored, nil) }
        if let bundle = fields.bundleID, options.selfSources.contains(bundle) { return (.ignored, nil) }
        if let name = fields.sourceName, options.selfSources.contains(name) { return (.ignored, nil) }
        let sourceKey = "\(fields.bundleID ?? "\u{0}")|\(fields.sourceName ?? "\u{0}")"
        let duplicateKey =
            "\(user)|\(type)|\(sourceKey)|\(start.instant.micros)|\(end.map { String($0.micros) } ?? "-")|\(raw.bitPattern)|\(unit)"
        if !seen.insert(duplicateKey).inserted { return (.duplicate, nil) }
        lastHealthKey = duplicateKey
        let source: Int
        if let known = healthSourceIndex[sourceKey] {
            source = known
        } else {
            source = healthSourceIndex.count
            healthSourceIndex[sourceKey] = source
        }
        drop.health.append(
            HealthSample(
                userID: user, metric: metric, value: value, start: start, end: end, source: source,
                order: drop.health.count))
        return (.accepted, nil)
    }

    func readHealthCSV() throws {
        let spec = columns([
            ("user_id", false), ("type", false), ("value", false), ("unit", false), ("start", false), ("end", false),
            ("source_name", false), ("source_bundle_id", false), ("device", false),
        ])
        let required = ["user_id", "type", "value", "unit", "start"]
        for file in layout.healthCSV {
            var missingColumn: String?
            try readCSV(file, kind: "health", columns: spec) { row, account in
                if missingColumn == nil {
                    missingColumn = required.first { name in
                        guard let position = spec.firstIndex(where: { $0.name == name }) else { return false }
                        return row.indexes[position] < 0
                    } ?? ""
                }
                let fields = HealthFields(
                    user: row.text(0), type: row.text(1), value: row.text(2), unit: row.text(3), start: row.text(4),
                    end: row.text(5), sourceName: row.text(6), bundleID: row.text(7))
                if let missing = missingColumn, !missing.isEmpty,
                    fields.type.flatMap(HealthTypes.metric(forType:)) != nil || fields.type == nil
                {
                    row.fail("missing_column:\(missing)")
                    return
                }
                let (fate, reason) = decideHealth(fields, seen: &healthDuplicates)
                if let reason { row.fail(reason) } else { row.fate = fate }
            }
        }
    }
}
