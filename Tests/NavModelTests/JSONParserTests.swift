import NavTestSupport
import Testing

@testable import NavModel

/// The parser's error for `bytes`, or nil when they parse.
private func rejection(_ bytes: [UInt8], maxDepth: Int = JSONParser.defaultMaxDepth) -> JSONParser.Error? {
  do {
    _ = try JSONParser.parse(bytes, maxDepth: maxDepth)
    return nil
  } catch {
    return error
  }
}

private func rejection(_ text: String, maxDepth: Int = JSONParser.defaultMaxDepth) -> JSONParser.Error? {
  rejection(Array(text.utf8), maxDepth: maxDepth)
}

@Suite("JSONParser and JSONWriter")
struct JSONParserTests {
  @Test("literals, whitespace, nesting")
  func values() throws {
    #expect(try JSONParser.parse(" \t\r\n true \n") == true)
    #expect(try JSONParser.parse("false") == false)
    #expect(try JSONParser.parse("null") == nil)
    #expect(try JSONParser.parse(#"{"a":[1,{"b":null}],"c":"d"}"#) == ["a": [1, ["b": nil]], "c": "d"])
    #expect(try JSONParser.parse("[ ]") == [])
    #expect(try JSONParser.parse("{ }") == [:])
    #expect(try JSONParser.parse(#"{ "a" : 1 , "b" : [ 2 , 3 ] }"#) == ["a": 1, "b": [2, 3]])
  }

  @Test(
    "numbers in every JSON form",
    arguments: [
      ("0", 0), ("-0", 0), ("7", 7), ("-12", -12), ("1.5", 1.5), ("1e3", 1000), ("1E-2", 0.01), ("-12.5e+2", -1250),
      ("9007199254740993", 9_007_199_254_740_992), ("1e308", 1e308), ("0.1", 0.1), ("123456789012", 123_456_789_012),
    ] as [(String, Double)])
  func numbers(text: String, value: Double) throws {
    #expect(try JSONParser.parse(text) == .number(value))
  }

  @Test(
    "malformed numbers are rejected",
    arguments: [
      "01", "1.", ".5", "+1", "-", "1e", "1e+", "0x10", "NaN", "Infinity", "-Infinity", "1e309", "--1", "1.2.3",
    ])
  func badNumbers(text: String) {
    #expect(rejection(text) != nil)
  }

  @Test("the writer prints integers without a fraction and everything else so it parses back")
  func writerNumbers() throws {
    let cases: [(Double, String)] = [
      (3, "3"), (-0.0, "0"), (0.5, "0.5"), (9_007_199_254_740_992, "9007199254740992"),
      (-9_007_199_254_740_992, "-9007199254740992"), (-7, "-7"),
      (10, "10"), (1_000_000_007, "1000000007"),
    ]
    for (value, text) in cases { #expect(JSONWriter.string(.number(value)) == text) }
    for value in [1e21, -2.5e-7, 1e308, Double.leastNonzeroMagnitude, 0.1, 123.456, -9_007_199_254_740_994] {
      #expect(try JSONParser.parse(JSONWriter.string(.number(value))) == .number(value))
    }
  }

  @Test("escapes decode: the short forms, \\u, and surrogate pairs")
  func escapes() throws {
    #expect(try JSONParser.parse(#""\"\\\/\b\f\n\r\t""#) == "\"\\/\u{08}\u{0C}\n\r\t")
    #expect(try JSONParser.parse(#""\u0041\u00e9\u20AC""#) == "Aé€")
    #expect(try JSONParser.parse(#""\ud83d\ude00""#) == "😀")
    #expect(try JSONParser.parse(#""a\u0000b""#) == "a\u{0}b")
    #expect(try JSONParser.parse(#""plain ü 😀""#) == "plain ü 😀")
    #expect(rejection(#""\x""#)?.reason == "invalid escape")
    #expect(rejection(#""\u12""#) != nil)
    #expect(rejection(#""\u12G4""#) != nil)
  }

  @Test(
    "lone surrogates are rejected",
    arguments: [#""\ud800""#, #""\udc00""#, #""\ud800x""#, #""\ud800\u0041""#, #""\ud800\ud800""#, #""\udfff\ud800""#])
  func loneSurrogates(text: String) {
    #expect(rejection(text)?.reason == "lone surrogate in \\u escape")
  }

  @Test(
    "invalid UTF-8 is rejected, with or without escapes in the same string",
    arguments: [
      [0xFF], [0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xE2, 0x82], [0xF4, 0x90, 0x80, 0x80], [0x80], [0xF0, 0x9F, 0x98],
    ] as [[UInt8]])
  func invalidUTF8(bad: [UInt8]) {
    let quote = UInt8(ascii: "\"")
    #expect(rejection([quote] + bad + [quote])?.reason == "invalid UTF-8 in string")
    #expect(
      rejection([quote, UInt8(ascii: "\\"), UInt8(ascii: "n")] + bad + [quote])?.reason == "invalid UTF-8 in string")
    #expect(
      rejection([UInt8(ascii: "{"), quote] + bad + [quote, UInt8(ascii: ":"), UInt8(ascii: "1"), UInt8(ascii: "}")])
        != nil)
  }

  @Test("control characters must be escaped inside strings")
  func controlCharacters() {
    #expect(rejection("\"a\nb\"")?.reason == "control character in string")
    #expect(rejection("\"\\n\u{01}\"")?.reason == "control character in string")
  }

  @Test("duplicate keys are rejected at the second key")
  func duplicateKeys() {
    let error = rejection(#"{"a":1,"b":2,"a":3}"#)
    #expect(error?.offset == 13)
    #expect(error?.reason == "duplicate key \"a\"")
    #expect(rejection(#"{"a":{"x":1},"b":{"x":2}}"#) == nil)
    // Keys equal after unescaping are the same key.
    #expect(rejection(#"{"a":1,"\u0061":2}"#) != nil)
  }

  @Test("nesting deeper than maxDepth is rejected without recursing further")
  func depth() {
    let deepest = String(repeating: "[", count: 64) + String(repeating: "]", count: 64)
    #expect(rejection(deepest) == nil)
    let tooDeep = String(repeating: "[", count: 65) + String(repeating: "]", count: 65)
    #expect(rejection(tooDeep)?.reason == "nesting deeper than 64 levels")
    #expect(rejection(tooDeep)?.offset == 64)
    #expect(
      rejection(String(repeating: #"{"a":"#, count: 5) + "1" + String(repeating: "}", count: 5), maxDepth: 4) != nil)
    #expect(
      rejection(String(repeating: #"{"a":"#, count: 4) + "1" + String(repeating: "}", count: 4), maxDepth: 4) == nil)
    // A hostile document: a million brackets fail fast instead of overflowing the stack.
    #expect(rejection(String(repeating: "[", count: 1_000_000)) != nil)
  }

  @Test(
    "structural errors report the offset of the first bad byte",
    arguments: [
      ("", 0), ("   ", 3), ("[1,]", 3), ("[1 2]", 3), (#"{"a" 1}"#, 5), (#"{"a":1,}"#, 7), ("{1:2}", 1), ("1 2", 2),
      ("{} x", 3), ("tru", 0), ("nul", 0), (#""abc"#, 4), ("[", 1), ("]", 0), ("\u{FEFF}1", 0),
    ] as [(String, Int)])
  func structuralErrors(text: String, offset: Int) {
    #expect(rejection(text)?.offset == offset, "\(text.debugDescription): \(String(describing: rejection(text)))")
  }

  @Test("the writer escapes what JSON requires and sorts keys")
  func writer() {
    #expect(JSONWriter.string("q\"b\\n\nr\rt\t\u{01}\u{1F}é😀/") == #""q\"b\\n\nr\rt\t\u0001\u001fé😀/""#)
    #expect(JSONWriter.string(["b": 1, "a": [true, nil], "": "x"]) == #"{"":"x","a":[true,null],"b":1}"#)
  }

  @Test("the writer's run-copying string escape equals the byte-by-byte reference, for 2,000 random strings")
  func writerStringsMatchReference() {
    let seed = SplitMix64.testSeed(default: 12)
    var random = SplitMix64(seed: seed)
    // Escapes, ASCII, and multi-byte scalars, at the start, middle and end of strings.
    let pieces = ["\"", "\\", "\n", "\r", "\t", "\u{00}", "\u{1F}", "\u{7F}", "a", "xyz", "é", "😀", "/", " "]
    for index in 0..<2_000 {
      var text = ""
      for _ in 0..<random.below(12) { text += pieces[random.below(pieces.count)] }
      var written: [UInt8] = []
      JSONWriter.writeString(text, into: &written)
      #expect(written == referenceEscape(text), "seed \(seed), string \(index): \(text.debugDescription)")
    }
  }

  @Test("parse(write(v)) == v and writing is canonical, for 2,000 random documents")
  func roundTrip() throws {
    var random = RandomJSON(seed: SplitMix64.testSeed(default: 42), maxDepth: 6)
    for index in 0..<2_000 {
      let value = random.document()
      let bytes = JSONWriter.bytes(value)
      let parsed = try JSONParser.parse(bytes)
      #expect(parsed == value, "document \(index): \(JSONWriter.string(value))")
      #expect(JSONWriter.bytes(parsed) == bytes)
    }
  }
}

/// The simple escape the writer's fast path replaced: one byte at a time.
private func referenceEscape(_ s: String) -> [UInt8] {
  var out: [UInt8] = [UInt8(ascii: "\"")]
  for byte in s.utf8 {
    switch byte {
    case UInt8(ascii: "\""): out += Array(#"\""#.utf8)
    case UInt8(ascii: "\\"): out += Array(#"\\"#.utf8)
    case 0x0A: out += Array(#"\n"#.utf8)
    case 0x0D: out += Array(#"\r"#.utf8)
    case 0x09: out += Array(#"\t"#.utf8)
    case 0..<0x20:
      let hex = Array("0123456789abcdef".utf8)
      out += Array(#"\u00"#.utf8) + [hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
    default: out.append(byte)
    }
  }
  out.append(UInt8(ascii: "\""))
  return out
}
