import Foundation

/// Which input files' SHA-256 a run takes from its state and which it
/// hashes (SPEC §12): a digest is reused only for a file whose path, size
/// and modification time are the state's, and never under `--verify-inputs`,
/// which hashes every file and says which ones changed behind unchanged
/// metadata.
struct InputDigestPlan: Sendable {
    let files: [DropLayout.File]
    /// Each file's size and modification time when the run started (nil: cannot be read).
    private let status: [(size: Int64, modifiedNanoseconds: Int64)?]
    /// The state's digest of each file whose metadata is unchanged.
    private let known: [String?]
    private let verify: Bool

    init(files: [DropLayout.File], state: RunState?, verify: Bool) {
        self.files = files
        self.verify = verify
        status = files.map { try? SystemCall.status($0.absolutePath) }
        var stateFiles: [String: RunState.FileFacts] = [:]
        for file in state?.files ?? [] { stateFiles[file.path] = file }
        known = zip(files, status).map { file, status in
            guard let status, let facts = stateFiles[file.relativePath], facts.size == status.size,
                facts.modifiedNanoseconds == status.modifiedNanoseconds
            else { return nil }
            return facts.sha256
        }
    }

    /// The files to hash (absolute paths), in order.
    var pathsToHash: [String] {
        zip(files, known).compactMap { file, known in verify || known == nil ? file.absolutePath : nil }
    }

    /// Files whose digest came from the state: none when hashing was asked.
    var fromState: Set<String> {
        verify ? [] : Set(zip(files, known).compactMap { file, known in known == nil ? nil : file.relativePath })
    }

    /// Every file's digest and size, in order, from `hashed` (the digests of
    /// `pathsToHash`, in its order) and the state; with `--verify-inputs`,
    /// a warning for each file the state had another digest of.
    func combine(_ hashed: [(digest: String, size: Int)?]) -> (
        digests: [(digest: String, size: Int)?], warnings: [String]
    ) {
        var next = hashed.makeIterator()
        return combine { _ in next.next() ?? nil }
    }

    /// The same from `computed`, asked (in file order) for each file whose
    /// digest is not the state's: the digest and size of file `index`.
    func combine(computed: (_ index: Int) -> (digest: String, size: Int)?) -> (
        digests: [(digest: String, size: Int)?], warnings: [String]
    ) {
        var digests: [(digest: String, size: Int)?] = []
        var warnings: [String] = []
        for index in files.indices {
            if let digest = known[index], !verify {
                digests.append((digest, Int(status[index]?.size ?? 0)))
                continue
            }
            let digest = computed(index)
            if let stateDigest = known[index], let digest, digest.digest != stateDigest {
                warnings.append(
                    "\(files[index].relativePath): its content changed while its size and modification time "
                        + "did not (--verify-inputs found it); its digest is taken anew")
            }
            digests.append(digest)
        }
        return (digests, warnings)
    }

    /// The state's entries for the next run: each file with its digest,
    /// unless its size or modification time moved during this run (its
    /// digest may then not be of what it now holds).
    func stateFiles(_ digests: [(digest: String, size: Int)?]) -> [RunState.FileFacts] {
        zip(files.indices, digests).compactMap { index, digest in
            guard let digest, let before = status[index], let now = try? SystemCall.status(files[index].absolutePath),
                now == before, Int64(digest.size) == before.size
            else { return nil }
            return RunState.FileFacts(
                path: files[index].relativePath, size: before.size, modifiedNanoseconds: before.modifiedNanoseconds,
                sha256: digest.digest)
        }
    }
}
