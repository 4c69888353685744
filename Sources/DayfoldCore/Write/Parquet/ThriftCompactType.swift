/// The type nibble of the Thrift compact protocol, used in field headers and
/// list headers. Booleans carry their value in the nibble of a field header.
enum ThriftCompactType: UInt8, Sendable {
    case booleanTrue = 1
    case booleanFalse = 2
    case byte = 3
    case i16 = 4
    case i32 = 5
    case i64 = 6
    case double = 7
    case binary = 8
    case list = 9
    case set = 10
    case map = 11
    case structure = 12
}
