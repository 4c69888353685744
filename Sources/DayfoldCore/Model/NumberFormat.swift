/// Numbers in reports: integers as integers, other doubles in the shortest
/// form that reads back to the same double (SPEC §9 Output form).
public func formatNumber(_ value: Double) -> String {
    if value == value.rounded(), abs(value) < 1e15 {
        return String(Int64(value))
    }
    return "\(value)"
}
