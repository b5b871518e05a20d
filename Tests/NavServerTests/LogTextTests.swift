import Foundation
import NavServer
import Testing

@Suite("Log escaping (PROTOCOL.md § Access, logs)")
struct LogTextTests {
  @Test("control characters, ESC, newlines, separators and backslashes are escaped")
  func escapes() {
    let hostile = "a\nnavd[1] error: forged\r\t\u{1B}[31m\u{7F}\u{85}\u{2028}\u{202E}\\x"
    let escaped = LogText.escaped(hostile, limit: 1000)
    #expect(escaped == #"a\nnavd[1] error: forged\r\t\x1b[31m\x7f\x85\u{2028}\u{202e}\\x"#)
    #expect(!escaped.unicodeScalars.contains { $0.value < 0x20 || (0x7F..<0xA0).contains($0.value) })
  }

  @Test("text is cut at the limit on a character boundary, saying how much was left out")
  func bounded() {
    #expect(LogText.escaped(String(repeating: "é", count: 10), limit: 5) == "éé…[+16 bytes]")
    #expect(LogText.escaped("short", limit: 5) == "short")
    #expect(LogText.escaped("\n\n\n", limit: 4) == #"\n\n…[+2 bytes]"#)
  }

  @Test("a record's message and fields are escaped and bounded whatever the sink")
  func records() {
    let record = LogRecord(
      level: .info, message: "call rejected: \n\u{1B}]0;x\u{07}",
      fields: [("scene", String(repeating: "\n", count: 500))])
    #expect(record.message == #"call rejected: \n\x1b]0;x\x07"#)
    #expect(record.fields[0].value.utf8.count <= LogText.fieldLimit + 20)
    #expect(!record.fields[0].value.contains("\n"))
  }
}
