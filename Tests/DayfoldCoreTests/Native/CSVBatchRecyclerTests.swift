import Testing

@testable import DayfoldCore

/// Recycled buffers are reused only when nothing else holds them, and come
/// back empty with the room asked for.
@Suite struct CSVBatchRecyclerTests {
    @Test func anUnsharedFieldTableIsReusedEmptied() {
        let recycler = CSVBatchRecycler()
        let table = FieldOffsets(capacity: 64)
        table.append(3, 5)
        recycler.put(input: [], offsets: table)
        let identity = ObjectIdentifier(table)
        _ = consume table
        let again = recycler.fieldOffsets(capacity: 32)
        #expect(ObjectIdentifier(again) == identity)
        #expect(again.count == 0)
    }

    @Test func aSharedOrTooSmallFieldTableIsNotReused() {
        let recycler = CSVBatchRecycler()
        let held = FieldOffsets(capacity: 64)
        held.append(1, 2)
        recycler.put(input: [], offsets: held)
        let fresh = recycler.fieldOffsets(capacity: 32)
        #expect(fresh !== held)
        #expect(held.count == 1 && held.end(0) == 2)
        let small = FieldOffsets(capacity: 16)
        let smallIdentity = ObjectIdentifier(small)
        recycler.put(input: [], offsets: small)
        _ = consume small
        #expect(ObjectIdentifier(recycler.fieldOffsets(capacity: 1000)) != smallIdentity)
    }

    @Test func aRecycledInputComesBackEmptyWithItsRoomAndSharedOnesStayIntact() {
        let recycler = CSVBatchRecycler()
        var bytes = [UInt8](repeating: 7, count: 100)
        bytes.reserveCapacity(4096)
        let shared = bytes
        recycler.put(input: bytes, offsets: FieldOffsets())
        let input = recycler.input(capacity: 1000)
        #expect(input.isEmpty && input.capacity >= 1000)
        // A holder of the old bytes still sees them.
        #expect(shared.count == 100 && shared.allSatisfy { $0 == 7 })
    }
}
