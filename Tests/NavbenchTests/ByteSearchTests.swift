import NavTestSupport
import Testing

@testable import navbench

/// navbench's byte search (`memmem`, `memchr`, a search from the end) gives what simple
/// loops give: the index just past a needle (the first, or the last), the index of a NUL,
/// nil when absent.
@Suite("navbench byte search")
struct ByteSearchTests {
  func found(_ text: String, _ needle: StaticString) -> Int? {
    Array(text.utf8).withUnsafeBytes { find($0, needle) }
  }

  @Test("the index just past the first match, at the start, in the middle, at the end")
  func positions() {
    #expect(found(#""toVersion":7}"#, #""toVersion":"#) == 12)
    #expect(found(#"{"a":1,"toVersion":12}"#, #""toVersion":"#) == 19)
    #expect(found("abcabc", "abc") == 3, "the first of two")
    #expect(found("xxtoVersion", "toVersion") == 11)
  }

  @Test("searched from the end: the index just past the last match")
  func lastPositions() {
    func last(_ text: String, _ needle: StaticString) -> Int? {
      Array(text.utf8).withUnsafeBytes { findLast($0, needle) }
    }
    #expect(last(#""toVersion":7}"#, #""toVersion":"#) == 12)
    #expect(last("abcabc", "abc") == 6, "the last of two")
    #expect(last(#"{"value":"\"toVersion\":1","toVersion":12}"#, #""toVersion":"#) == 39, "not the one in a value")
    #expect(last("abc", "abc") == 3)
    #expect(last(#"{"fromVersion":1}"#, #""toVersion":"#) == nil)
    #expect(last("ab", "abc") == nil)
    #expect(last("", "a") == nil)
  }

  @Test("nil when the needle is absent, cut short, or longer than the haystack")
  func absent() {
    #expect(found(#"{"fromVersion":1}"#, #""toVersion":"#) == nil)
    #expect(found(#"{"toVersion"#, #""toVersion":"#) == nil)
    #expect(found("", "a") == nil)
    #expect([UInt8]().withUnsafeBytes { firstNUL($0) } == nil)
  }

  @Test("seeded: memmem, memchr and the search from the end agree with a byte-by-byte search")
  func seeded() {
    let seed = UInt64.random(in: 1...UInt64.max)
    var random = SplitMix64(seed: seed)
    for _ in 0..<2_000 {
      let bytes = (0..<Int(random.next() % 64)).map { _ in [0, 58, 97, 98][Int(random.next() % 4)] as UInt8 }
      bytes.withUnsafeBytes { buffer in
        let naive = (0...max(0, bytes.count - 3)).first { i in
          i + 3 <= bytes.count && bytes[i] == 97 && bytes[i + 1] == 98 && bytes[i + 2] == 58
        }
        #expect(find(buffer, "ab:") == naive.map { $0 + 3 }, "seed \(seed): \(bytes)")
        let naiveLast = (0...max(0, bytes.count - 3)).last { i in
          i + 3 <= bytes.count && bytes[i] == 97 && bytes[i + 1] == 98 && bytes[i + 2] == 58
        }
        #expect(findLast(buffer, "ab:") == naiveLast.map { $0 + 3 }, "seed \(seed): \(bytes)")
        #expect(firstNUL(buffer) == bytes.firstIndex(of: 0), "seed \(seed): \(bytes)")
      }
    }
  }
}
