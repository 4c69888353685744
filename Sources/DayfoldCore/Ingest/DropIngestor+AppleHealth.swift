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
                    let result = try readHealthStream(
                        { try openByteStream(path: file.absolutePath) }, user, file, &fileAccount, &claimed)
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
            let result = try readHealthStream(
                { try archive.entryStream(index) }, user, file, &fileAccount, &claimed)
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

    /// Streams one HealthData XML into `fileAccount` (rows decided, rejects
    /// kept): first with the fast reader; when it hands the file to expat,
    /// what it yielded is taken back and the file is opened again and read by
    /// expat (issue 24), so both give the same rows and the same failures.
    private func readHealthStream(
        _ open: () throws -> ByteStream, _ user: String, _ file: DropLayout.File, _ fileAccount: inout FileAccount,
        _ claimed: inout [UInt64]
    ) throws -> HealthXMLReadResult {
        let before = HealthReadMark(
            pending: health.pending.count, rejects: drop.rejects.count, claimed: claimed.count, order: health.order,
            account: fileAccount)
        // Inflating or reading runs ahead on the second core while the scanner works.
        if try readHealthFast(ReadAheadByteStream(open()), user, file, &fileAccount, &claimed) == .read {
            return .read
        }
        health.pending.removeSubrange(before.pending...)
        drop.rejects.removeSubrange(before.rejects...)
        for key in claimed[before.claimed...] { health.seen.remove(key) }
        claimed.removeSubrange(before.claimed...)
        health.order = before.order
        fileAccount = before.account
        return try readHealthExpat(open(), user, file, &fileAccount, &claimed)
    }

    /// What a fast read that hands its file to expat takes back.
    private struct HealthReadMark {
        var pending: Int
        var rejects: Int
        var claimed: Int
        var order: Int
        var account: FileAccount
    }

    /// The fast reader's pass: values decoded into batches on the scanning
    /// thread, the rows decided here as the batches come.
    private func readHealthFast(
        _ stream: ByteStream, _ user: String, _ file: DropLayout.File, _ fileAccount: inout FileAccount,
        _ claimed: inout [UInt64]
    ) throws -> HealthXMLFastOutcome {
        var account = fileAccount
        var keys = claimed
        defer {
            fileAccount = account
            claimed = keys
        }
        return try AppleHealthFastXMLReader.readInBatches(
            stream, user: Array(user.utf8), keepRaw: options.retainRows
        ) { batch in
            let bytes = batch.bytes
            for child in batch.children {
                account.rowsRead += 1
                guard child.isRecord else {
                    account.ignored += 1
                    continue
                }
                decideHealthRecord(
                    HealthRow(
                        bytes: bytes, user: batch.user, type: child.type, value: child.value, unit: child.unit,
                        start: child.start, end: child.end, sourceName: child.sourceName, bundleID: nil),
                    line: child.line, raw: { batch.raw(child) }, file, &account, &keys)
            }
        }
    }

    /// Expat's pass (the checker and fallback): an element's fields, back to
    /// back in one buffer (reused), with their ranges.
    private func readHealthExpat(
        _ stream: ByteStream, _ user: String, _ file: DropLayout.File, _ fileAccount: inout FileAccount,
        _ claimed: inout [UInt64]
    ) throws -> HealthXMLReadResult {
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
            decideHealthRecord(
                HealthRow(
                    bytes: buffer, user: userRange, type: type, value: value, unit: unit, start: start, end: end,
                    sourceName: sourceName, bundleID: nil), line: element.line, raw: { element.raw }, file, &account,
                &keys)
        }
    }

    /// One top-level `Record`, whichever reader found it: decided, counted, its reject kept.
    private func decideHealthRecord(
        _ row: HealthRow, line: Int, raw: () -> String, _ file: DropLayout.File, _ account: inout FileAccount,
        _ keys: inout [UInt64]
    ) {
        let decision = decideHealth(row)
        if let key = decision.claimed { keys.append(key) }
        account.count(decision.fate)
        if let reason = decision.reason {
            drop.rejects.append(
                RejectedRecord(
                    file: file.relativePath, line: line, kind: "health", reason: reason,
                    raw: options.retainRows ? raw() : ""))
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
