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

/// The index of the first NUL in `bytes` (`memchr`, for the same reason as `find`).
func firstNUL(_ bytes: UnsafeRawBufferPointer) -> Int? {
  guard let base = bytes.baseAddress, let nul = memchr(base, 0, bytes.count) else { return nil }
  return UnsafeRawPointer(nul) - base
}
