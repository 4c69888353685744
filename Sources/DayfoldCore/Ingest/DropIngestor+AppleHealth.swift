/// health/<user_id>/*.xml: Apple Health exports (SPEC §1.5). A file that
/// cannot be read whole is a failed import for its user, not a failed run.
extension DropIngestor {
    func readHealthXML() throws {
        for (user, file) in layout.healthXML {
            let account = openAccount(file, kind: "health")
            drop.accounts[account].failed = "Apple Health XML reading is not built yet"
            drop.failedImports.insert(user)
            reject(file.relativePath, 0, "health", "import_failed:unsupported", "", account: account)
        }
    }
}
