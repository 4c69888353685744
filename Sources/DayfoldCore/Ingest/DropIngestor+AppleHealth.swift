/// health/<user_id>/*.xml: Apple Health exports (SPEC §1.5, §9, §10). Rows
/// are the direct children of `HealthData`: each `Record` a sample, every
/// other element one ignored row. A file that cannot be read whole is a
/// failed import for its user: what it had yielded is taken back, the run
/// goes on. The Health app's archive (`export.zip`) is read in place: its
/// `apple_health_export/<name>.xml` streams out of the archive, and the other
/// entries are counted on its account, as are the other files of an unzipped
/// `apple_health_export/` folder.
extension DropIngestor {
    func readHealthXML() throws {
        for (user, file) in layout.healthXML {
            let account = openAccount(file, kind: "health")
            let pendingBefore = health.pending.count
            let rejectsBefore = drop.rejects.count
            var claimed: [UInt64] = []
            var fileAccount = FileAccount(path: file.relativePath, kind: "health")
            var failure: (line: Int, reason: String, detail: String)?
            do {
                if file.relativePath.hasSuffix(".zip") {
                    try readHealthArchive(user, file, &fileAccount, &claimed)
                } else {
                    let stream = try openByteStream(path: file.absolutePath)
                    let result = try readHealthStream(stream, user, file, &fileAccount, &claimed)
                    if case .skipped(let root) = result {
                        fileAccount = FileAccount(path: file.relativePath, kind: "health")
                        fileAccount.skipped = "root element \(root) is not HealthData"
                    } else if let parts = exportParts(of: file) {
                        fileAccount.skipped = DropIngestor.notRead(
                            parts, "other file", "other files", "of apple_health_export/ not read")
                    }
                }
            } catch let error as HealthXMLError {
                failure = (
                    error.line, "import_failed:malformed_xml", "malformed_xml: line \(error.line): \(error.detail)"
                )
            } catch let error as ByteStreamError {
                failure = (0, "import_failed:\(error.kind.rawValue)", "\(error.kind.rawValue): \(error.detail)")
            }
            if let failure {
                // Nothing of a file that cannot be read whole is used.
                health.pending.removeSubrange(pendingBefore...)
                drop.rejects.removeSubrange(rejectsBefore...)
                for key in claimed { health.seen.remove(key) }
                fileAccount = FileAccount(path: file.relativePath, kind: "health")
                fileAccount.failed = failure.detail
                drop.failedImports.insert(user)
                drop.rejects.append(
                    RejectedRecord(
                        file: file.relativePath, line: failure.line, kind: "health", reason: failure.reason, raw: ""))
            }
            drop.accounts[account] = fileAccount
        }
        warnAboutHealthFolders()
    }

    /// The other files of the unzipped export folder `file` lies in (nil when none, or not in one).
    private func exportParts(of file: DropLayout.File) -> [String]? {
        let folder = file.relativePath.split(separator: "/").dropLast().joined(separator: "/")
        guard folder.hasSuffix("/apple_health_export"), let parts = layout.healthExportParts[folder], !parts.isEmpty
        else { return nil }
        return parts.map { String($0.relativePath.dropFirst(folder.count + 1)) }
    }

    /// `3 other entries not read: export_cda.xml, workout-routes/route_1.gpx, …`.
    static func notRead(_ names: [String], _ singular: String, _ plural: String, _ tail: String) -> String {
        let shown = names.prefix(3).joined(separator: ", ") + (names.count > 3 ? ", …" : "")
        return "\(names.count) \(names.count == 1 ? singular : plural) \(tail): \(shown)"
    }

    /// Whether an archive entry is an export's XML: `apple_health_export/<name>.xml`
    /// (or `<name>.xml` at the archive's top, for an archive made by hand).
    static func isArchivedExport(_ name: String) -> Bool {
        let parts = name.split(separator: "/", omittingEmptySubsequences: false)
        guard name.hasSuffix(".xml"), !name.hasPrefix("__MACOSX/") else { return false }
        return parts.count == 1 || (parts.count == 2 && parts[0] == "apple_health_export")
    }

    /// Reads the Health app's archive: every `HealthData` XML in it, streamed
    /// from the archive; the other entries are named on the account.
    private func readHealthArchive(
        _ user: String, _ file: DropLayout.File, _ fileAccount: inout FileAccount, _ claimed: inout [UInt64]
    ) throws {
        let archive = try ZipArchive(path: file.absolutePath)
        var skipped: [String] = []
        var readAny = false
        for (index, name) in try archive.entryNames().enumerated() where !name.hasSuffix("/") {
            guard DropIngestor.isArchivedExport(name) else {
                skipped.append(name)
                continue
            }
            let result = try readHealthStream(try archive.entryStream(index), user, file, &fileAccount, &claimed)
            if case .skipped = result { skipped.append(name) } else { readAny = true }
        }
        if !readAny {
            fileAccount.skipped =
                "no apple_health_export/*.xml whose root is HealthData; "
                + DropIngestor.notRead(skipped, "entry", "entries", "not read")
        } else if !skipped.isEmpty {
            fileAccount.skipped = DropIngestor.notRead(skipped, "other entry", "other entries", "not read")
        }
    }

    /// Streams one HealthData XML into `fileAccount` (rows decided, rejects kept).
    private func readHealthStream(
        _ stream: ByteStream, _ user: String, _ file: DropLayout.File, _ fileAccount: inout FileAccount,
        _ claimed: inout [UInt64]
    ) throws -> HealthXMLReadResult {
        // An element's fields, back to back in one buffer (reused), with
        // their ranges: the row is decided on them in place.
        var buffer: [UInt8] = []
        func add(_ text: String?, emptyIsNull: Bool = true) -> Range<Int>? {
            guard let text, !(emptyIsNull && text.isEmpty) else { return nil }
            let start = buffer.count
            buffer.append(contentsOf: text.utf8)
            return start..<buffer.count
        }
        var account = fileAccount
        var keys = claimed
        defer {
            fileAccount = account
            claimed = keys
        }
        return try AppleHealthXMLReader.read(stream) { element in
            account.rowsRead += 1
            guard element.name == "Record" else {
                account.ignored += 1
                return
            }
            buffer.removeAll(keepingCapacity: true)
            let userRange = add(user, emptyIsNull: false)
            let type = add(element.type)
            let value = add(element.value)
            let unit = add(element.unit)
            let start = add(element.startDate)
            let end = add(element.endDate)
            let sourceName = add(element.sourceName)
            let decision = decideHealth(
                HealthRow(
                    bytes: buffer, user: userRange, type: type, value: value, unit: unit, start: start, end: end,
                    sourceName: sourceName, bundleID: nil))
            if let key = decision.claimed { keys.append(key) }
            account.count(decision.fate)
            if let reason = decision.reason {
                drop.rejects.append(
                    RejectedRecord(
                        file: file.relativePath, line: element.line, kind: "health", reason: reason,
                        raw: options.retainRows ? element.raw : ""))
            }
        }
    }

    /// One warning per health folder whose name is no `client_user_id` of
    /// relationships.csv: its files are read for that user all the same.
    private func warnAboutHealthFolders() {
        let clients = Set(drop.relationships.map(\.clientUserID))
        for folder in layout.healthUserFolders where !clients.contains(folder) {
            let shown = DropFileSorter.shownName(Array(folder.utf8))
            drop.healthFolderWarnings.append(
                "health/\(shown)/: folder name is not a client_user_id of subjects/relationships.csv "
                    + "(its files are read as user \(shown))")
        }
    }
}
