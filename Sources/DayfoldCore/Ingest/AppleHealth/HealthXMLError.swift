/// An Apple Health export that is not well-formed XML outside its DTD (or is
/// not valid UTF-8): the import fails, reported with the line where expat
/// stopped.
///
/// Example: `line 153, column 2: mismatched tag`.
public struct HealthXMLError: Error, Sendable, Equatable, CustomStringConvertible {
    /// 1-based line where reading broke.
    public var line: Int
    /// expat's message, e.g. `mismatched tag`, `not well-formed (invalid token)`.
    public var detail: String
    /// 0-based column where reading broke (expat's count).
    public var column: Int

    public init(line: Int, detail: String, column: Int = 0) {
        self.line = line
        self.detail = detail
        self.column = column
    }

    public var description: String { "line \(line), column \(column): \(detail)" }
}
