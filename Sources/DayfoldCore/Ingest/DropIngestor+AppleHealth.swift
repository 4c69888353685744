/// health/<user_id>/*.xml: Apple Health exports (SPEC §1.5, §9). Rows are
/// the direct children of `HealthData`: each `Record` a sample, every other
/// element one ignored row. A file that cannot be read whole is a failed
/// import for its user: what it had yielded is taken back, the run goes on.
extension DropIngestor {
    func readHealthXML() throws {
        for (user, file) in layout.healthXML {
            let account = openAccount(file, kind: "health")
            let pendingBefore = health.pending.count
            let rejectsBefore = drop.rejects.count
            var claimed: [UInt64] = []
            var fileAccount = FileAccount(path: file.relativePath, kind: "health")
            var failure: (line: Int, reason: String, detail: String)?
            // An element's fields, back to back in one buffer (reused), with
            // their ranges: the row is decided on them in place.
            var buffer: [UInt8] = []
            func add(_ text: String?, emptyIsNull: Bool = true) -> Range<Int>? {
                guard let text, !(emptyIsNull && text.isEmpty) else { return nil }
                let start = buffer.count
                buffer.append(contentsOf: text.utf8)
                return start..<buffer.count
            }
            do {
                let stream = try openByteStream(path: file.absolutePath)
                let result = try AppleHealthXMLReader.read(stream) { element in
                    fileAccount.rowsRead += 1
                    guard element.name == "Record" else {
                        fileAccount.ignored += 1
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
                    let decision = buffer.withUnsafeBufferPointer { fields in
                        func field(_ range: Range<Int>?) -> UnsafeBufferPointer<UInt8>? {
                            range.map { UnsafeBufferPointer(rebasing: fields[$0]) }
                        }
                        return decideHealth(
                            HealthRow(
                                user: field(userRange), type: field(type), value: field(value), unit: field(unit),
                                start: field(start), end: field(end), sourceName: field(sourceName), bundleID: nil))
                    }
                    if let key = decision.claimed { claimed.append(key) }
                    fileAccount.count(decision.fate)
                    if let reason = decision.reason {
                        drop.rejects.append(
                            RejectedRecord(
                                file: file.relativePath, line: element.line, kind: "health", reason: reason,
                                raw: options.retainRows ? element.raw : ""))
                    }
                }
                if case .skipped(let root) = result {
                    fileAccount = FileAccount(path: file.relativePath, kind: "health")
                    fileAccount.skipped = "root element \(root) is not HealthData"
                }
            } catch let error as HealthXMLError {
                failure = (error.line, "import_failed:xml", "xml: line \(error.line): \(error.detail)")
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
    }
}
