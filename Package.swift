// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "dayfold",
    products: [
        .executable(name: "dayfold", targets: ["dayfold"]),
        .library(name: "DayfoldCore", targets: ["DayfoldCore"]),
    ],
    targets: [
        .systemLibrary(name: "CSQLite", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CCSV", providers: [.apt(["libcsv-dev"])]),
        .systemLibrary(name: "CZstd", providers: [.apt(["libzstd-dev"])]),
        .systemLibrary(name: "CCrypto", providers: [.apt(["libssl-dev"])]),
        .systemLibrary(name: "CExpat", providers: [.apt(["libexpat1-dev"])]),
        .systemLibrary(name: "CSystem"),
        // dayfold's own C kernels (CSV block masks and plain-record loop,
        // two-lane SHA-256), compiled as a regular C target.
        .target(name: "CKernels"),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(name: "CZip", pkgConfig: "libzip", providers: [.apt(["libzip-dev"])]),
        .target(
            name: "DayfoldCore",
            dependencies: [
                "CSQLite", "CCSV", "CZstd", "CCrypto", "CExpat", "CSystem", "CKernels", "CZlib", "CZip",
            ]
            // No unsafe flags: the run-time exclusivity checks stay on, and the
            // ingest loops' per-row state skips them where it is proven
            // single-threaded (`@exclusivity(unchecked)`, Native/LoopState.swift).
        ),
        // `dayfold generate`: deterministic synthetic drops for tests and
        // benchmarks, kept out of the library that reads real drops.
        .target(name: "DayfoldGenerate", dependencies: ["DayfoldCore"]),
        .executableTarget(name: "dayfold", dependencies: ["DayfoldCore", "DayfoldGenerate"]),
        .testTarget(
            name: "DayfoldCoreTests",
            // libzip writes the Health app's archive for the export.zip tests.
            dependencies: ["DayfoldCore", "DayfoldGenerate", "CKernels", "CZip"],
            exclude: ["Fixtures"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
