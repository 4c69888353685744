/// Numbers in reports: integers as integers, other doubles in the shortest
/// form that reads back to the same double (SPEC §9 Output form).
public func formatNumber(_ value: Double) -> String {
    if value == value.rounded(), abs(value) < 1e15 {
        return String(Int64(value))
    }
    return "\(value)"
}

/// Byte-wise string order (SPEC §9: "Strings sort by bytes").
public func bytesLess(_ lhs: String, _ rhs: String) -> Bool {
    lhs.utf8.lexicographicallyPrecedes(rhs.utf8)
}
