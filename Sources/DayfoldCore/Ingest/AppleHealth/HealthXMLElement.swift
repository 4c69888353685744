/// One direct child element of `<HealthData>` in an Apple Health export.
///
/// Only these are rows (SPEC §9): a `Record` is a sample, every other child
/// (`Correlation`, `Workout`, `ActivitySummary`, `Me`, `ExportDate`, …) one
/// ignored row. Elements nested deeper (a `Record` inside a `Correlation`,
/// `MetadataEntry`, …) are never reported. Attribute values are handed through
/// as written; dates are parsed later.
public struct HealthXMLElement: Sendable, Equatable {
    /// 1-based line of the start tag's `<`.
    public var line: Int
    /// Byte offset of the start tag's `<` in the (decompressed) file.
    public var byteOffset: Int
    /// The element name: `Record`, `Correlation`, `Workout`, `Me`, `ExportDate`, …
    public var name: String
    public var type: String?
    public var unit: String?
    public var value: String?
    public var startDate: String?
    public var endDate: String?
    public var sourceName: String?
    public var sourceVersion: String?
    /// Free text with a per-record memory address: never a key.
    public var device: String?
    public var creationDate: String?
    /// The physical line holding the start tag, without its line terminator,
    /// for the rejects file. A start tag written over several lines is quoted
    /// through the end of its last line; a line longer than 8 KiB is quoted from
    /// the start tag, and any quote is cut at 8 KiB.
    public var raw: String

    public init(
        line: Int, byteOffset: Int = 0, name: String, type: String? = nil, unit: String? = nil,
        value: String? = nil, startDate: String? = nil, endDate: String? = nil,
        sourceName: String? = nil, sourceVersion: String? = nil, device: String? = nil,
        creationDate: String? = nil, raw: String = ""
    ) {
        self.line = line
        self.byteOffset = byteOffset
        self.name = name
        self.type = type
        self.unit = unit
        self.value = value
        self.startDate = startDate
        self.endDate = endDate
        self.sourceName = sourceName
        self.sourceVersion = sourceVersion
        self.device = device
        self.creationDate = creationDate
        self.raw = raw
    }
}
