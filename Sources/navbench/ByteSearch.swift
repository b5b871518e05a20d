import Glibc

/// Whether `needle` occurs in `haystack`.
func contains(_ haystack: UnsafeRawBufferPointer, _ needle: StaticString) -> Bool {
  find(haystack, needle) != nil
}

/// The index just past the first occurrence of `needle` in `haystack`.
func find(_ haystack: UnsafeRawBufferPointer, _ needle: StaticString) -> Int? {
  let pattern = UnsafeRawBufferPointer(start: needle.utf8Start, count: needle.utf8CodeUnitCount)
  guard pattern.count <= haystack.count, let first = pattern.first else { return nil }
  var i = 0
  let last = haystack.count - pattern.count
  while i <= last {
    if haystack[i] == first, memcmp(haystack.baseAddress! + i, pattern.baseAddress!, pattern.count) == 0 {
      return i + pattern.count
    }
    i += 1
  }
  return nil
}
