// swift-tools-version:6.0
// Benchmarks live in their own package so `swift test` never builds or runs them.
import PackageDescription

let package = Package(
    name: "dayfold-benchmarks",
    dependencies: [.package(name: "dayfold", path: "..")],
    targets: [
        .executableTarget(
            name: "snapshot-memory",
            dependencies: [.product(name: "DayfoldCore", package: "dayfold")]
        )
    ],
    swiftLanguageModes: [.v6]
)
