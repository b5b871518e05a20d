import NavModel
import NavTestSupport
import Testing
import Varlink

@Suite("Varlink call parsing rules")
struct VarlinkCallTests {
  func parse(_ text: String) throws(VarlinkProtocolError) -> VarlinkCall {
    try VarlinkCall(frame: Array(text.utf8))
  }

  func kind(_ text: String) -> VarlinkProtocolError.Kind? {
    do {
      _ = try parse(text)
      return nil
    } catch {
      return error.kind
    }
  }

  @Test("a plain call")
  func plain() throws {
    let call = try parse(#"{"method":"io.navd.GetState","parameters":{"scene":"main"}}"#)
    #expect(call.method == "io.navd.GetState")
    #expect(call.interface == "io.navd")
    #expect(call.methodName == "GetState")
    #expect(call.parameters == ["scene": "main"])
    #expect(!call.oneway && !call.more && !call.upgrade)
  }

  @Test(
    "seeded random method names (dots anywhere, none, non-ASCII, a combining mark after a dot): interface as sliced")
  func interfaceMatchesSlicing() {
    let seed: UInt64 = 0x1F_ACE
    var random = SplitMix64(seed: seed)
    let pieces = ["io", "navd", ".", "Get", "é", "\u{301}", "日本", "🙂", "x"]
    for round in 0..<500 {
      let method = (0..<Int.random(in: 0...8, using: &random)).map { _ in pieces.randomElement(using: &random)! }
        .joined()
      // The simple reference: the String sliced at the last dot of its UTF-8.
      let sliced = method.utf8.lastIndex(of: UInt8(ascii: ".")).map { String(method[..<$0]) } ?? ""
      #expect(VarlinkCall(method: method).interface == sliced, "seed \(seed) round \(round): \(method)")
    }
  }

  @Test("missing, null and empty parameters are the same")
  func parametersEquivalence() throws {
    let a = try parse(#"{"method":"a.B"}"#)
    let b = try parse(#"{"method":"a.B","parameters":null}"#)
    let c = try parse(#"{"method":"a.B","parameters":{}}"#)
    #expect(a == b && b == c)
    #expect(a.parameters.isEmpty)
  }

  @Test("flags set to false are normal (python's CLI sends more:false)")
  func falseFlags() throws {
    let call = try parse(#"{"method":"a.B","oneway":false,"more":false,"upgrade":false}"#)
    #expect(!call.oneway && !call.more && !call.upgrade)
  }

  @Test("each flag alone is accepted")
  func singleFlags() throws {
    #expect(try parse(#"{"method":"a.B","oneway":true}"#).oneway)
    #expect(try parse(#"{"method":"a.B","more":true}"#).more)
    #expect(try parse(#"{"method":"a.B","upgrade":true}"#).upgrade)
  }

  @Test("at most one of oneway/more/upgrade may be true")
  func conflictingFlags() {
    #expect(kind(#"{"method":"a.B","oneway":true,"more":true}"#) == .conflictingFlags)
    #expect(kind(#"{"method":"a.B","more":true,"upgrade":true}"#) == .conflictingFlags)
    #expect(kind(#"{"method":"a.B","oneway":true,"upgrade":true}"#) == .conflictingFlags)
  }

  @Test("an unknown unprefixed top-level key is a protocol error")
  func unknownKey() {
    #expect(kind(#"{"method":"a.B","colour":"red"}"#) == .unknownKey("colour"))
  }

  @Test("reverse-domain-prefixed keys are ignored")
  func vendorKeys() throws {
    let call = try parse(#"{"method":"a.B","com.example.trace":{"id":7}}"#)
    #expect(call.method == "a.B")
  }

  @Test("a missing method is a protocol error")
  func missingMethod() {
    #expect(kind(#"{"parameters":{}}"#) == .missingMethod)
  }

  @Test("wrongly typed fields are protocol errors")
  func wrongTypes() {
    #expect(kind(#"{"method":7}"#) == .wrongType(key: "method"))
    #expect(kind(#"{"method":"a.B","parameters":[1]}"#) == .wrongType(key: "parameters"))
    #expect(kind(#"{"method":"a.B","parameters":"x"}"#) == .wrongType(key: "parameters"))
    #expect(kind(#"{"method":"a.B","more":"yes"}"#) == .wrongType(key: "more"))
    #expect(kind(#"{"method":"a.B","oneway":1}"#) == .wrongType(key: "oneway"))
  }

  @Test("a message that is not an object is a protocol error")
  func notAnObject() {
    #expect(kind(#"["method"]"#) == .notAnObject)
    #expect(kind("42") == .notAnObject)
  }

  @Test("invalid JSON, invalid UTF-8 and too-deep nesting are protocol errors")
  func invalidJSON() {
    #expect(kind(#"{"method":"a.B""#) == .invalidJSON)
    var invalidUTF8 = Array(#"{"method":"a."#.utf8)
    invalidUTF8 += [0xC3, 0x28] + Array(#""}"#.utf8)
    #expect(throws: VarlinkProtocolError.self) { try VarlinkCall(frame: invalidUTF8) }
    let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
    #expect(kind(#"{"method":"a.B","parameters":{"x":"# + deep + "}}") == .invalidJSON)
  }

  @Test("a call encodes back to a NUL-terminated frame that parses to itself")
  func roundTrip() throws {
    let call = VarlinkCall(method: "io.navd.Subscribe", parameters: ["scene": "main"], more: true)
    let frame = call.encoded()
    #expect(frame.last == 0)
    #expect(try VarlinkCall(frame: frame.dropLast()) == call)
  }
}
