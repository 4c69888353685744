/// Hex SHA-256 digests of `id|name` messages (an adherence event's id is
/// the digest of `task id|event type`, SPEC §7), written straight into a
/// column's bytes: the message is laid out in a temporary buffer on the
/// stack, never in an array per row (a million events per run).
enum EventIDDigests {
    /// Appends the 64 hex digits of SHA-256(`id` `|` `name`).
    static func append(_ id: Span<UInt8>, _ name: Span<UInt8>, into output: inout [UInt8]) {
        id.withUnsafeBufferPointer { id in
            name.withUnsafeBufferPointer { name in
                withUnsafeTemporaryAllocation(of: UInt8.self, capacity: id.count + 1 + name.count) { message in
                    writeMessage(id, name, into: message, at: 0)
                    SHA256Hasher.appendHex(of: UnsafeBufferPointer(message), into: &output)
                }
            }
        }
    }

    /// Appends the digests of two messages, first then second, computed
    /// side by side (`SHA256Hasher.appendHexOfPair`); the same bytes as
    /// `append` on each.
    static func appendPair(
        _ firstID: Span<UInt8>, _ firstName: Span<UInt8>, _ secondID: Span<UInt8>, _ secondName: Span<UInt8>,
        into output: inout [UInt8]
    ) {
        firstID.withUnsafeBufferPointer { firstID in
            secondID.withUnsafeBufferPointer { secondID in
                firstName.withUnsafeBufferPointer { firstName in
                    secondName.withUnsafeBufferPointer { secondName in
                        let firstLength = firstID.count + 1 + firstName.count
                        let secondLength = secondID.count + 1 + secondName.count
                        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: firstLength + secondLength) {
                            messages in
                            writeMessage(firstID, firstName, into: messages, at: 0)
                            writeMessage(secondID, secondName, into: messages, at: firstLength)
                            SHA256Hasher.appendHexOfPair(
                                UnsafeBufferPointer(rebasing: messages[..<firstLength]),
                                UnsafeBufferPointer(rebasing: messages[firstLength...]), into: &output)
                        }
                    }
                }
            }
        }
    }

    /// Writes `id|name` at `position` of `messages`.
    private static func writeMessage(
        _ id: UnsafeBufferPointer<UInt8>, _ name: UnsafeBufferPointer<UInt8>,
        into messages: UnsafeMutableBufferPointer<UInt8>,
        at position: Int
    ) {
        _ = UnsafeMutableBufferPointer(rebasing: messages[position...]).initialize(fromContentsOf: id)
        messages[position + id.count] = 0x7C
        _ = UnsafeMutableBufferPointer(rebasing: messages[(position + id.count + 1)...])
            .initialize(fromContentsOf: name)
    }
}
