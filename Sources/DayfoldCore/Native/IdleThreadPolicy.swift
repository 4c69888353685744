import CSystem
import Foundation

/// Linux's idle scheduling class for one thread: the thread gets a core only
/// when no other thread of the system wants it.
enum IdleThreadPolicy {
    /// Whether a thread of this process may leave the idle class again:
    /// that takes CAP_SYS_NICE, or a RLIMIT_NICE that allows nice 0. A
    /// thread that could not leave it might, on a machine kept busy by other
    /// work, get almost no time while a run waits for it.
    static let canLeave: Bool = {
        if dayfold_nice_limit() >= 20 { return true }
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("CapEff:") }),
            let mask = UInt64(line.dropFirst("CapEff:".count).trimmingCharacters(in: .whitespaces), radix: 16)
        else { return false }
        let capSysNice: UInt64 = 23
        return mask & (1 << capSysNice) != 0
    }()

    /// Puts the calling thread in the idle class when it may leave it again;
    /// returns the thread's id for `leave`, or nil when it keeps its class.
    static func enter() -> Int32? {
        guard canLeave, dayfold_set_idle_policy(0, 1) == 0 else { return nil }
        return dayfold_thread_id()
    }

    /// Gives thread `id` its normal class back (someone now waits for its work).
    static func leave(_ id: Int32) {
        _ = dayfold_set_idle_policy(id, 0)
    }
}
