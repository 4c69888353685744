/// A failure that stops the run (exit 1) or a usage problem (exit 2).
/// The message names the file and line where possible and says what to do.
public struct DayfoldError: Error, Sendable, CustomStringConvertible {
    public enum Kind: Sendable { case usage, configuration, input, output }
    public var kind: Kind
    public var message: String
    public var fix: String?

    public init(_ kind: Kind, _ message: String, fix: String? = nil) {
        self.kind = kind
        self.message = message
        self.fix = fix
    }

    public var description: String { fix.map { "\(message)\nfix: \($0)" } ?? message }

    /// SPEC §7 exit codes: 1 failed, 2 usage or configuration.
    public var exitCode: Int32 {
        switch kind {
        case .usage, .configuration: return 2
        case .input, .output: return 1
        }
    }
}
