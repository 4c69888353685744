/// What `dayfold generate` makes: how many clients, how many days ending on
/// `endDate`, from which seed, into which folder.
///
///     let options = DropGeneratorOptions(clients: 2000, days: 365, seed: 7, output: "/tmp/drop")
///     let summary = try DropGenerator.generate(options)
public struct DropGeneratorOptions: Sendable {
    /// Clients (one relationship each).
    public var clients: Int
    /// Local dates in the window, ending on `endDate`.
    public var days: Int
    /// Same seed and options → byte-identical files.
    public var seed: UInt64
    /// The drop folder to create; it must not exist or be empty.
    public var output: String
    /// Write `.csv.zst` (zstd-compressed) instead of `.csv`.
    public var zstd: Bool
    /// The last local date of the window, `YYYY-MM-DD`.
    public var endDate: String
    /// A kind's rows go to a new numbered file once a file holds this many
    /// bytes of CSV (before compression).
    public var maxFileBytes: Int64
    /// Write push exports (`push/`, `subjects/notification_preferences.csv`, SPEC §11).
    public var push: Bool

    public init(
        clients: Int, days: Int, seed: UInt64 = 1, output: String, zstd: Bool = false, endDate: String = "2026-03-31",
        maxFileBytes: Int64 = 200_000_000, push: Bool = true
    ) {
        self.push = push
        self.clients = clients
        self.days = days
        self.seed = seed
        self.output = output
        self.zstd = zstd
        self.endDate = endDate
        self.maxFileBytes = maxFileBytes
    }
}
