import CZstd

/// A libzstd operation that failed, with the library's own message.
public struct ZstdError: Error, Sendable, CustomStringConvertible {
    public var operation: String
    public var message: String
    public var description: String { "zstd \(operation): \(message)" }
}

/// libzstd's functions return a size or an error code in one `size_t`:
/// every result is checked here, once, and a failure carries the library's
/// error name.
enum ZstdCall {
    /// `code` as a size, or a `ZstdError` for `operation` when it is an error code.
    @discardableResult
    static func check(_ code: Int, _ operation: String) throws(ZstdError) -> Int {
        if ZSTD_isError(code) != 0 {
            throw ZstdError(operation: operation, message: String(cString: ZSTD_getErrorName(code)))
        }
        return code
    }
}
