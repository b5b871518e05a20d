extension String {
  /// Calls `body` with the string's UTF-8, read in place.
  ///
  /// `withUTF8` is mutating, so calling it on a `let` string needs a copy of the string:
  /// a retain and a release of its storage, paid by every title change several times over. A native string's bytes are read here
  /// through `utf8.withContiguousStorageIfAvailable`, which borrows the string instead;
  /// any other (a bridged one) through `withUTF8` on a copy, as before.
  @inlinable
  package func withUTF8Bytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
    if let result = try utf8.withContiguousStorageIfAvailable(body) { return result }
    var copy = self
    return try copy.withUTF8(body)
  }
}
