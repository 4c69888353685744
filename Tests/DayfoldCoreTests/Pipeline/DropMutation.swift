import Foundation

/// One random change to a drop on disk, of the kinds hostile or broken
/// exports show: used by `FuzzedDropTests`.
enum DropMutation: CaseIterable {
    case truncate, flipBytes, strayQuotes, nulBytes, lineEndings, giantField, xmlBreakage, header
    case linkOutside, linkDangling, linkLoop, linkInside, fifo, strayFile, emptyFile

    /// Applies a random mutation to a random file under `root`; returns what it did.
    static func apply(to root: URL, random: inout SeededRandom) throws -> String {
        let files = regularFiles(under: root)
        guard !files.isEmpty else { return "nothing left to mutate" }
        let file = random.pick(files)
        let url = root.appendingPathComponent(file)
        var bytes = [UInt8]((try? Data(contentsOf: url)) ?? Data())
        let mutation = random.pick(allCases)
        let offset = { (random: inout SeededRandom) in random.below(bytes.count + 1) }
        switch mutation {
        case .truncate:
            let at = offset(&random)
            bytes.removeSubrange(at...)
            try write(bytes, to: url)
            return "\(file) truncated at \(at)"
        case .flipBytes:
            let count = random.below(8) + 1
            for _ in 0..<count where !bytes.isEmpty {
                bytes[random.below(bytes.count)] ^= UInt8(truncatingIfNeeded: random.next() | 1)
            }
            try write(bytes, to: url)
            return "\(file): \(count) bytes flipped"
        case .strayQuotes:
            let count = random.below(3) + 1
            for _ in 0..<count { bytes.insert(UInt8(ascii: "\""), at: offset(&random)) }
            try write(bytes, to: url)
            return "\(file): \(count) quotes inserted"
        case .nulBytes:
            let at = offset(&random)
            bytes.insert(contentsOf: [UInt8](repeating: 0, count: random.below(64) + 1), at: at)
            try write(bytes, to: url)
            return "\(file): NULs at \(at)"
        case .lineEndings:
            bytes = bytes.flatMap { byte -> [UInt8] in
                guard byte == 10 else { return [byte] }
                switch random.below(3) {
                case 0: return [13, 10]
                case 1: return [13]
                default: return [10]
                }
            }
            try write(bytes, to: url)
            return "\(file): line endings mixed"
        case .giantField:
            let at = offset(&random)
            let size = (random.below(4) + 1) << 18
            bytes.insert(contentsOf: [UInt8](repeating: UInt8(ascii: "x"), count: size), at: at)
            try write(bytes, to: url)
            return "\(file): \(size)-byte field at \(at)"
        case .xmlBreakage:
            let xml = files.filter { $0.hasSuffix(".xml") }
            guard let target = xml.isEmpty ? nil : random.pick(xml) else { return "no XML to break" }
            let xmlURL = root.appendingPathComponent(target)
            var text = [UInt8]((try? Data(contentsOf: xmlURL)) ?? Data())
            let at = random.below(text.count + 1)
            let insert = random.pick(["<", "&", "</Record>", "<Record type=\"", "&bogus;", "<![CDATA[x]]>", "\u{0B}"])
            text.insert(contentsOf: Array(insert.utf8), at: at)
            try write(text, to: xmlURL)
            return "\(target): \(insert.debugDescription) at \(at)"
        case .header:
            guard let newline = bytes.firstIndex(of: 10) else { return "\(file): no header line" }
            if random.below(2) == 0 {
                bytes.removeSubrange(...newline)
                try write(bytes, to: url)
                return "\(file): header removed"
            }
            bytes.insert(contentsOf: Array(bytes[...newline]), at: 0)
            try write(bytes, to: url)
            return "\(file): header doubled"
        case .linkOutside:
            try replaceWithLink(url, target: random.pick(["/etc/passwd", "/dev/zero", "/"]))
            return "\(file) → outside the drop"
        case .linkDangling:
            try replaceWithLink(url, target: root.appendingPathComponent("nowhere.csv").path)
            return "\(file) → a missing file"
        case .linkLoop:
            try replaceWithLink(url, target: url.path)
            return "\(file) → itself"
        case .linkInside:
            try replaceWithLink(url, target: root.appendingPathComponent(random.pick(files)).path)
            return "\(file) → another file of the drop"
        case .fifo:
            try FileManager.default.removeItem(at: url)
            guard mkfifo(url.path, 0o644) == 0 else { return "\(file): mkfifo failed" }
            return "\(file) replaced by a FIFO"
        case .strayFile:
            let folder = url.deletingLastPathComponent()
            let names: [[UInt8]] = [
                Array("notes.txt".utf8), Array("export.xml".utf8), [0x66, 0xFF, 0x2E, 0x63, 0x73, 0x76],
            ]
            let name = random.pick(names)
            let path = folder.path + "/" + String(decoding: name, as: UTF8.self)
            // A name that is not UTF-8 is written through its bytes.
            let bytesPath = (Array(folder.path.utf8) + [UInt8(ascii: "/")] + name + [0]).map { CChar(bitPattern: $0) }
            let fd = open(bytesPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            if fd >= 0 {
                _ = bytes.prefix(200).withUnsafeBytes { Foundation.write(fd, $0.baseAddress, $0.count) }
                close(fd)
            }
            return "stray file \(path.debugDescription)"
        case .emptyFile:
            try write([], to: url)
            return "\(file) emptied"
        }
    }

    /// Regular files and links under `root`, relative, in byte order.
    static func regularFiles(under root: URL) -> [String] {
        (FileManager.default.subpaths(atPath: root.path) ?? []).filter { name in
            var info = stat()
            return lstat(root.appendingPathComponent(name).path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG
        }.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
    }

    static func write(_ bytes: [UInt8], to url: URL) throws {
        try Data(bytes).write(to: url)
    }

    static func replaceWithLink(_ url: URL, target: String) throws {
        try FileManager.default.removeItem(at: url)
        try FileManager.default.createSymbolicLink(atPath: url.path, withDestinationPath: target)
    }
}
