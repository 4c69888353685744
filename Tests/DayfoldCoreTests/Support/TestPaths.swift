import Foundation

/// Where the repository, its fixtures and the built binary are.
enum TestPaths {
    static let repositoryRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static let fixtures = repositoryRoot.appendingPathComponent("Tests/DayfoldCoreTests/Fixtures")

    /// `../shared/` beside the repository (real third-party files).
    static let shared = repositoryRoot.deletingLastPathComponent().appendingPathComponent("shared")

    /// The `dayfold` executable built with the tests.
    static var binary: URL {
        let candidates = [".build/debug/dayfold", ".build/release/dayfold"].map {
            repositoryRoot.appendingPathComponent($0)
        }
        let bundleSibling = Bundle.main.bundleURL.appendingPathComponent("dayfold")
        return ([bundleSibling] + candidates).first { FileManager.default.isExecutableFile(atPath: $0.path) }
            ?? candidates[0]
    }

    static func temporaryDirectory(_ name: String = #function) throws -> URL {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent(
                "dayfold-tests-\(getpid())-\(name.filter { $0.isLetter || $0.isNumber })-\(UUID().uuidString.prefix(8))"
            )
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
