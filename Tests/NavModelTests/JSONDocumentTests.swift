import NavTestSupport
import Testing

@testable import NavModel

/// `JSONDocument` (navd's one reader) against `TreeParser` (an independent reference, test
/// only): the same documents accepted with the same values, the same rejected with the same
/// error; and `Op.list(in:at:)` against `Op.list(json:)`.
///
/// Replay a failure with `NAVD_TEST_SEED=<seed> swift test --filter JSONDocumentTests`;
/// every failure message carries the seed and the document.
@Suite("JSONDocument against an independent tree parser")
struct JSONDocumentTests {
  static let defaultSeed: UInt64 = 0x5EED_12D0_C0DE

  /// The reference's value or error.
  static func reference(_ bytes: [UInt8], maxDepth: Int) -> Result<JSONValue, JSONParser.Error> {
    Result { () throws(JSONParser.Error) in try TreeParser.parse(bytes, maxDepth: maxDepth) }
  }

  /// The document's value (rebuilt as a tree) or error.
  static func typed(_ bytes: [UInt8], maxDepth: Int) -> Result<JSONValue, JSONParser.Error> {
    Result { () throws(JSONParser.Error) in
      let document = try JSONDocument(parsing: bytes, maxDepth: maxDepth)
      return document.value(document.root)
    }
  }

  @Test("§9.13 §9.14 random documents, valid and broken: the same value or the same error (offset and reason)")
  func randomDocuments() {
    let seed = SplitMix64.testSeed(default: Self.defaultSeed)
    var json = RandomJSONText(rng: SplitMix64(seed: seed))
    var rejected = 0
    for round in 0..<4000 {
      var bytes = Array(json.document().utf8)
      RandomJSONText.corrupt(&bytes, &json.rng)
      let text = String(decoding: bytes, as: UTF8.self)
      let maxDepth = json.rng.chance(10) ? json.rng.int(1...6) : JSONParser.defaultMaxDepth
      let expected = Self.reference(bytes, maxDepth: maxDepth)
      if case .failure = expected { rejected += 1 }
      #expect(
        Self.typed(bytes, maxDepth: maxDepth) == expected,
        "seed \(seed) (NAVD_TEST_SEED=\(seed)), round \(round), maxDepth \(maxDepth): \(text)")
    }
    // Both halves were exercised.
    #expect(rejected > 400 && rejected < 3600, "seed \(seed): \(rejected) of 4000 rejected")
  }

  @Test("§9.14 duplicate keys are found as a dictionary finds them: escaped, canonically equivalent, past 16 keys")
  func duplicateKeys() {
    let many = (0..<40).map { #""k\#($0)":\#($0)"# }.joined(separator: ",")
    for text in [
      #"{"a":1,"\u0061":2}"#, #"{"é":1,"e\u0301":2}"#, #"{"K":1,"\u212A":2}"#, #"{"\u212A":1,"K":2}"#,
      #"{\#(many),"k7":0}"#, #"{\#(many),"\u006b39":0}"#, #"{"x":{"a":1},"y":{"a":1},"x":2}"#,
      #"{"a":{"b":1,"b":[1,2,{}]}}"#, #"{"a":1,"b":2,"a":{"deep":[1}}"#,
    ] {
      let bytes = Array(text.utf8)
      let expected = Self.reference(bytes, maxDepth: JSONParser.defaultMaxDepth)
      #expect(Self.typed(bytes, maxDepth: JSONParser.defaultMaxDepth) == expected, "\(text)")
      if case .success = expected { Issue.record("expected a rejection: \(text)") }
    }
  }

  @Test("strings are scanned eight bytes at a time up to exactly the first quote, backslash, control or non-ASCII byte")
  func wordAtATimeScan() {
    let seed = SplitMix64.testSeed(default: Self.defaultSeed)
    var rng = SplitMix64(seed: seed)
    let special: [UInt8] = [0x22, 0x5C, 0x00, 0x01, 0x1F, 0x80, 0xC3, 0xFF]
    let ordinary: [UInt8] = [0x20, 0x21, 0x23, 0x5B, 0x5D, 0x7E, 0x7F, 0x41]
    for round in 0..<20_000 {
      let bytes = (0..<rng.below(40)).map { _ in rng.chance(6) ? rng.pick(special) : rng.pick(ordinary) }
      let start = bytes.isEmpty ? 0 : rng.below(bytes.count)
      let firstSpecial = bytes.indices.first { $0 >= start && special.contains(bytes[$0]) } ?? bytes.count
      let stop = bytes.withUnsafeBufferPointer { buffer in
        var lexer = JSONLexer(bytes: buffer, maxDepth: 1)
        lexer.index = start
        lexer.skipOrdinaryStringBytes()
        return lexer.index
      }
      // Exactly at the first special byte, or short of it within the last seven bytes.
      let exact = stop == firstSpecial || (stop < firstSpecial && stop > bytes.count - 8 && stop >= start)
      #expect(exact, "seed \(seed), round \(round): \(bytes) from \(start) stopped at \(stop), not \(firstSpecial)")
    }
  }

  /// A string scan's span, or its error, and where it left the lexer.
  static func scan(_ bytes: [UInt8], full: Bool) -> (String, Int) {
    bytes.withUnsafeBufferPointer { buffer in
      var lexer = JSONLexer(bytes: buffer, maxDepth: 1)
      let outcome: String
      do {
        let span: JSONStringSpan
        if full {
          lexer.index += 1
          span = try lexer.scanString(from: lexer.index)
        } else {
          span = try lexer.scanString()
        }
        outcome = "\(span.start)..<\(span.end) escaped \(span.escaped) ascii \(span.ascii)"
      } catch {
        outcome = "\(error)"
      }
      return (outcome, lexer.index)
    }
  }

  @Test("a string's inlined scan (plain ASCII to the quote) gives what the full scan gives, for random strings")
  func inlinedStringScan() {
    let seed = SplitMix64.testSeed(default: Self.defaultSeed)
    var rng = SplitMix64(seed: seed)
    let special: [UInt8] = [0x22, 0x5C, 0x00, 0x1F, 0x80, 0xC3, 0xA9, 0xFF, 0x6E, 0x75]
    let ordinary: [UInt8] = [0x20, 0x21, 0x23, 0x41, 0x5B, 0x7E, 0x7F, 0x30]
    var plain = 0
    for round in 0..<20_000 {
      // An opening quote, then bytes that mostly hold a closing quote somewhere.
      let bytes = [0x22] + (0..<rng.below(40)).map { _ in rng.chance(8) ? rng.pick(special) : rng.pick(ordinary) }
      let inlined = Self.scan(bytes, full: false)
      let full = Self.scan(bytes, full: true)
      #expect(inlined == full, "seed \(seed), round \(round): \(bytes)")
      if inlined.0.hasSuffix("escaped false ascii true") { plain += 1 }
    }
    #expect(plain > 1000, "seed \(seed): only \(plain) plain strings")
  }

  @Test("a plain ASCII string is the string String(decoding:as:) makes, short (written in place) or long")
  func asciiStrings() {
    let seed = SplitMix64.testSeed(default: Self.defaultSeed)
    var rng = SplitMix64(seed: seed)
    let table = ["", "a", "top", "bench", "0123456789abcde", "0123456789abcdef", String(repeating: "x", count: 200)]
    let random = (0..<5000).map { _ in
      String(decoding: (0..<rng.below(40)).map { _ in UInt8(rng.below(0x80)) }, as: UTF8.self)
    }
    for (round, text) in (table + random).enumerated() {
      let bytes = Array(text.utf8)
      let string = bytes.withUnsafeBufferPointer { JSONLexer.asciiString($0) }
      let reference = String(decoding: bytes, as: UTF8.self)
      #expect(
        string == reference && Array(string.utf8) == bytes && string.count == reference.count
          && string.hashValue == reference.hashValue,
        "seed \(seed), round \(round): \(bytes)")
    }
  }

  @Test("reading values: strings with escapes, numbers, keys compared as strings")
  func reading() throws {
    let document = try JSONDocument(
      parsing: Array(#"{"t\u0069tle":"a\nb\u00e9","n":-0.5e1,"big":123456789012345678}"#.utf8))
    let members = Array(document.members(document.root))
    #expect(members.count == 3)
    #expect(document.string(members[0].key, is: "title"))
    #expect(!document.isPlainString(members[0].key))
    #expect(document.string(members[0].value) == "a\nb\u{e9}")
    #expect(document.number(members[1].value) == -5)
    #expect(document.number(members[2].value) == 123_456_789_012_345_678)
    #expect(document.member("n", of: document.root) == members[1].value)
    #expect(document.member("title", of: members[0].value) == nil)
  }

  @Test(
    "the typed readers take the common ops themselves and read them as Op(json:path:) does",
    arguments: [
      #"{"op":"updateNavigationItem","item":"top","set":{"title":"T","prompt":null,"hidesBackButton":true}}"#,
      #"{"op":"pop","expectTop":"top","animated":true}"#, #"{"op":"popTo","item":"root"}"#,
      #"{"op":"push","item":{"id":"a","title":"A","leftBarButtonItems":["k"],"rightBarButtonItems":null}}"#,
      #"{"op":"setStack","items":[{"id":"a"},{"id":"b","backBarButtonItem":"k","hidesBackButton":null}]}"#,
    ])
  func typedCommonOps(text: String) throws {
    let document = try JSONDocument(parsing: Array(text.utf8))
    let typed = try #require(Op.typed(document, document.root))
    #expect(typed == (try Op(json: JSONParser.parse(text), path: "ops[0]")))
  }

  @Test("Op.list(in:at:) reads the same ops, or fails with the same error, as Op.list(json:)")
  func randomOps() throws {
    let seed = SplitMix64.testSeed(default: Self.defaultSeed)
    var rng = SplitMix64(seed: seed)
    var typedOps = 0
    var failures = 0
    for round in 0..<4000 {
      let text = "[" + (0..<rng.int(0...3)).map { _ in RandomOpText.op(&rng) }.joined(separator: ",") + "]"
      guard let reference = try? JSONParser.parse(text) else {
        Issue.record("seed \(seed), round \(round): the generator made invalid JSON: \(text)")
        continue
      }
      let document = try JSONDocument(parsing: Array(text.utf8))
      let expected = Result { () throws(NavError) in try Op.list(json: reference) }
      if case .failure = expected { failures += 1 }
      #expect(
        Result { () throws(NavError) in try Op.list(in: document, at: document.root) } == expected,
        "seed \(seed) (NAVD_TEST_SEED=\(seed)), round \(round): \(text)")
      for element in document.elements(document.root) where Op.typed(document, element) != nil { typedOps += 1 }
    }
    // The typed readers did the work for most ops, and the reference saw errors too.
    #expect(typedOps > 2000 && failures > 400, "seed \(seed): \(typedOps) typed ops, \(failures) failed lists")
  }
}
