/// How messages are delimited on a connection: the only thing the connection
/// needs to know about the protocol spoken over it.
enum Framing {
  /// Varlink: JSON terminated by a NUL byte.
  case varlink
  /// Redis's RESP2: typed values with length prefixes.
  case resp

  /// The length of the first complete message in `bytes` (its terminator
  /// included), or nil when it is not complete yet.
  func messageLength(_ bytes: UnsafeRawBufferPointer) -> Int? {
    switch self {
    case .varlink:
      guard let nul = firstNUL(bytes) else { return nil }
      return nul + 1
    case .resp:
      return RESP.valueEnd(bytes, from: 0)
    }
  }
}
