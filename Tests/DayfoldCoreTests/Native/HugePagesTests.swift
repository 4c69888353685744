import CSystem
import Foundation
import Testing

@testable import DayfoldCore

/// Huge pages are only a hint about the tables' memory: the tables' contents
/// must be what the plain calls give, and the hint must cover exactly the
/// whole 2 MB pages inside the range it is given.
@Suite struct HugePagesTests {
    private static let huge = 2 << 20

    @Test func arraysHoldTheSameValuesBelowAndAboveTheThreshold() {
        for count in [0, 1, 1000, HugePages.threshold / 8 - 1, HugePages.threshold / 8, HugePages.threshold / 8 + 3] {
            let made = HugePages.array(repeating: Int64(-7), count: count)
            #expect(made.count == count)
            #expect(made.allSatisfy { $0 == -7 })
        }
        let pairs = HugePages.array(repeating: (key: UInt64(0), value: Int32(5)), count: HugePages.threshold / 16 + 1)
        #expect(pairs.allSatisfy { $0.key == 0 && $0.value == 5 })
    }

    @Test func reservingKeepsTheElementsAndMakesTheRoom() {
        var small = [1, 2, 3]
        HugePages.reserve(&small, 10)
        #expect(small == [1, 2, 3])
        #expect(small.capacity >= 10)
        var large = Array(0..<100)
        let capacity = HugePages.threshold / MemoryLayout<Int>.stride + 1
        HugePages.reserve(&large, capacity)
        #expect(large == Array(0..<100))
        #expect(large.capacity >= capacity)
        large.append(contentsOf: 100..<capacity)
        #expect(large.last == capacity - 1)
    }

    /// The VMA flags of the mapping that holds `address` (`hg`: advised), from /proc/self/smaps.
    private func flags(at address: UInt) throws -> [String] {
        // Read to the end: procfs reports no size, and a sized read stops early.
        let handle = try #require(FileHandle(forReadingAtPath: "/proc/self/smaps"))
        defer { try? handle.close() }
        let smaps = String(decoding: try handle.readToEnd() ?? Data(), as: UTF8.self)
        var inside = false
        for line in smaps.split(separator: "\n") {
            let words = line.split(separator: " ")
            if let range = words.first, range.contains("-"), words.count >= 5 {
                let bounds = range.split(separator: "-").compactMap { UInt($0, radix: 16) }
                inside = bounds.count == 2 && bounds[0] <= address && address < bounds[1]
            } else if inside, line.hasPrefix("VmFlags:") {
                return words.dropFirst().map(String.init)
            }
        }
        return []
    }

    /// A large table is advised only when the run asks for it (an as-of
    /// series does, `HugePages.advising`); its contents are the same either way.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/sys/kernel/mm/transparent_hugepage/enabled")))
    func aLargeTableIsAdvisedOnlyWhenAsked() throws {
        let count = 3 * Self.huge / 8
        for advise in [false, true] {
            let table = HugePages.array(repeating: UInt64(9), count: count, advise: advise)
            #expect(table.allSatisfy { $0 == 9 })
            let middle = try table.withUnsafeBufferPointer { try #require($0.baseAddress) } + count / 2
            #expect(try flags(at: UInt(bitPattern: middle)).contains("hg") == advise, "advise: \(advise)")
            var grown: [UInt64] = []
            HugePages.reserve(&grown, count, advise: advise)
            let room = try grown.withUnsafeBufferPointer { try #require($0.baseAddress) } + count / 2
            #expect(try flags(at: UInt(bitPattern: room)).contains("hg") == advise, "advise: \(advise), reserved")
        }
    }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/sys/kernel/mm/transparent_hugepage/enabled")))
    func adviceCoversExactlyTheWhole2MBPagesInside() throws {
        let length = 12 << 20
        let raw = mmap(nil, length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
        let mapped = try #require(raw == MAP_FAILED ? nil : raw)
        defer { munmap(mapped, length) }
        let start = (UInt(bitPattern: mapped) + UInt(Self.huge) - 1) & ~UInt(Self.huge - 1)
        let base = try #require(UnsafeMutableRawPointer(bitPattern: start))
        // A range from one page into the first 2 MB page to one page into the
        // sixth: only the whole 2 MB pages between (the second to the fifth) are advised.
        #expect(dayfold_advise_huge_pages(base + 4096, 5 * Self.huge) == 0)
        #expect(try !flags(at: start + 4096).contains("hg"))
        #expect(try flags(at: start + UInt(Self.huge)).contains("hg"))
        #expect(try flags(at: start + UInt(5 * Self.huge) - 4096).contains("hg"))
        #expect(try !flags(at: start + UInt(5 * Self.huge) + 4096).contains("hg"))
        // No whole 2 MB page inside: nothing is advised.
        #expect(dayfold_advise_huge_pages(base + 4096, Self.huge) == -1)
    }
}
