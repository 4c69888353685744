import DayfoldCore

/// Parsed command-line arguments: positionals and `--flag value` options.
struct Arguments {
    var positionals: [String] = []
    var options: [String: String] = [:]
    var flags: Set<String> = []

    /// Parses argv against the options that take a value and the bare flags.
    init(_ argv: [String], valued: Set<String>, bare: Set<String>) throws {
        var index = 0
        while index < argv.count {
            let argument = argv[index]
            if argument == "-h" || argument == "--help" {
                flags.insert("--help")
            } else if argument.hasPrefix("--") {
                var name = argument
                var inline: String?
                if let equals = argument.firstIndex(of: "=") {
                    name = String(argument[..<equals])
                    inline = String(argument[argument.index(after: equals)...])
                }
                if valued.contains(name) {
                    if let inline {
                        options[name] = inline
                    } else {
                        guard index + 1 < argv.count, !argv[index + 1].hasPrefix("--") else {
                            throw DayfoldError(.usage, "\(name) needs a value", fix: "see dayfold --help")
                        }
                        options[name] = argv[index + 1]
                        index += 1
                    }
                } else if bare.contains(name) && inline == nil {
                    flags.insert(name)
                } else if bare.contains(name) {
                    throw DayfoldError(.usage, "\(name) takes no value (got \(argument))", fix: "write \(name) alone")
                } else {
                    let known = Array(valued.union(bare)) + ["--help"]
                    let nearest = NearestName.suggestion(for: name, among: known)
                    throw DayfoldError(
                        .usage, "unknown option \(name)" + (nearest.map { "; did you mean \($0)?" } ?? ""),
                        fix: "see the command's --help for its options")
                }
            } else {
                positionals.append(argument)
            }
            index += 1
        }
    }
}
