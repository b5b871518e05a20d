import CNavSys
import Glibc

/// Whether `needle` occurs in `haystack`.
func contains(_ haystack: UnsafeRawBufferPointer, _ needle: StaticString) -> Bool {
  find(haystack, needle) != nil
}

/// The index just past the first occurrence of `needle` in `haystack`.
///
/// glibc's `memmem` (`cnav_memmem`), not a loop over bytes: a navd update is ~500 bytes with its
/// `toVersion` at the end, and comparing byte by byte cost the client ~2,400
/// instructions per message (callgrind, `--scenarios delivery`), work the RESP client
/// does not do — the harness measured itself, not the server.
func find(_ haystack: UnsafeRawBufferPointer, _ needle: StaticString) -> Int? {
  guard let base = haystack.baseAddress, needle.utf8CodeUnitCount > 0,
    let match = cnav_memmem(base, haystack.count, needle.utf8Start, needle.utf8CodeUnitCount)
  else { return nil }
  return UnsafeRawPointer(match) - base + needle.utf8CodeUnitCount
}

/// The index just past the last occurrence of `needle` in `haystack`, searched from the end.
///
/// For what ends a message: a navd update ends with its `toVersion` (its keys in order, then
/// `continues`), so this reads ~40 bytes where `find` reads the whole update (`memmem` over a
/// ~340-byte update: 29–43 ns, per subscriber per publish, C on this project's VMs; the RESP
/// client reads no position at all), and a patch value holding the key's text is not taken
/// for it.
func findLast(_ haystack: UnsafeRawBufferPointer, _ needle: StaticString) -> Int? {
  let length = needle.utf8CodeUnitCount
  guard let base = haystack.baseAddress, length > 0, haystack.count >= length else { return nil }
  let first = needle.utf8Start.pointee
  var index = haystack.count - length
  while index >= 0 {
    if haystack[index] == first, memcmp(base + index, needle.utf8Start, length) == 0 { return index + length }
    index -= 1
  }
  return nil
}

/// The index of the first NUL in `bytes` (`memchr`, for the same reason as `find`).
func firstNUL(_ bytes: UnsafeRawBufferPointer) -> Int? {
  guard let base = bytes.baseAddress, let nul = memchr(base, 0, bytes.count) else { return nil }
  return UnsafeRawPointer(nul) - base
}
