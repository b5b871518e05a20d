import NavModel
import Testing
import Varlink

@Suite("Varlink reply encoding")
struct VarlinkReplyTests {
  func text(_ bytes: [UInt8]) -> String {
    #expect(bytes.last == 0)
    return String(decoding: bytes.dropLast(), as: UTF8.self)
  }

  @Test("a final reply is parameters only, NUL-terminated")
  func finalReply() {
    #expect(text(VarlinkReply(parameters: ["version": 3]).encoded()) == #"{"parameters":{"version":3}}"#)
  }

  @Test("a continuing reply says continues:true")
  func continuing() {
    #expect(
      text(VarlinkReply(parameters: ["a": true], continues: true).encoded())
        == #"{"parameters":{"a":true},"continues":true}"#)
  }

  @Test("an error reply carries the name and never continues")
  func errorReply() {
    let reply = VarlinkReply(
      parameters: ["method": "x.Y"], continues: true, error: "org.varlink.service.MethodNotFound")
    #expect(!reply.continues)
    #expect(
      text(reply.encoded()) == #"{"parameters":{"method":"x.Y"},"error":"org.varlink.service.MethodNotFound"}"#)
  }

  @Test("null parameters are written as {}")
  func nullParameters() {
    #expect(text(VarlinkReply.encoded(parameters: .null)) == #"{"parameters":{}}"#)
  }

  @Test("strings are escaped")
  func escaping() {
    #expect(
      text(VarlinkReply.encoded(parameters: ["s": "a\"b\\c\n"])) == #"{"parameters":{"s":"a\"b\\c\n"}}"#)
  }

  @Test("encode then decode gives the same reply")
  func roundTrip() throws {
    for reply in [
      VarlinkReply(parameters: ["x": [1, 2, "three"]]),
      VarlinkReply(parameters: [:], continues: true),
      VarlinkReply.error("io.navd.Conflict", ["version": 4]),
    ] {
      #expect(try VarlinkReply(frame: reply.encoded().dropLast()) == reply)
    }
  }

  @Test("decoding applies the protocol rules")
  func decodingRules() {
    func kind(_ text: String) -> VarlinkProtocolError.Kind? {
      do {
        _ = try VarlinkReply(frame: Array(text.utf8))
        return nil
      } catch {
        return error.kind
      }
    }
    #expect(kind(#"{"parameters":{},"error":"a.B","continues":true}"#) == .continuesWithError)
    #expect(kind(#"{"parameters":{},"bogus":1}"#) == .unknownKey("bogus"))
    #expect(kind(#"{"parameters":{},"org.example.x":1}"#) == nil)
    #expect(kind(#"{"parameters":[]}"#) == .wrongType(key: "parameters"))
    #expect(kind(#"{"error":5}"#) == .wrongType(key: "error"))
  }
}
