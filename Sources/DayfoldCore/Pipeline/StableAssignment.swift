/// Which of N partitions a group of users goes to when the choice must be
/// the same from run to run and from machine to machine (an incremental
/// run finding its unchanged partitions again; shards, SPEC §13).
///
/// The hash is 64-bit FNV-1a over the UTF-8 bytes of the group's smallest
/// user id (by bytes), offset basis 0xcbf29ce484222325, prime
/// 0x100000001b3, taken modulo N. It is written out here, not taken from a
/// language's hasher, because those are seeded per process (Swift's
/// `Hasher`, Python's `hash` under `PYTHONHASHSEED`): the same id would
/// land in another partition in the next run.
public enum StableAssignment {
    /// FNV-1a 64 of `text`'s UTF-8 bytes.
    public static func hash(_ text: String) -> UInt64 {
        var value: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            value ^= UInt64(byte)
            value &*= 0x0000_0100_0000_01b3
        }
        return value
    }

    /// The partition (0 ..< count) of a group whose smallest user id is `user`.
    public static func partition(of user: String, among count: Int) -> Int {
        Int(hash(user) % UInt64(max(count, 1)))
    }
}
