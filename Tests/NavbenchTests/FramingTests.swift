import Testing

@testable import navbench

@Suite("navbench framing: Varlink NUL frames and RESP values")
struct FramingTests {
  func length(_ framing: Framing, _ text: String) -> Int? {
    Array(text.utf8).withUnsafeBytes { framing.messageLength($0) }
  }

  @Test("a Varlink message ends at its NUL; without one it is incomplete")
  func varlink() {
    #expect(Array("{}\0{".utf8).withUnsafeBytes { Framing.varlink.messageLength($0) } == 3)
    #expect(length(.varlink, "{\"parameters\":{}") == nil)
  }

  @Test("RESP simple values, integers and errors end at CRLF")
  func respLines() {
    #expect(length(.resp, ":12\r\n:3\r\n") == 5)
    #expect(length(.resp, "-ERR unknown\r\n") == 14)
    #expect(length(.resp, "+OK\r") == nil)
  }

  @Test("a RESP pub/sub message is complete only with every bulk string's bytes")
  func respMessage() {
    let message = "*3\r\n$7\r\nmessage\r\n$2\r\nch\r\n$5\r\nhello\r\n"
    #expect(length(.resp, message) == message.utf8.count)
    #expect(length(.resp, message + "*3\r\n") == message.utf8.count)
    for cut in 1..<message.utf8.count {
      let partial = String(decoding: Array(message.utf8)[0..<cut], as: UTF8.self)
      #expect(length(.resp, partial) == nil, "complete after only \(cut) bytes")
    }
  }

  @Test("a RESP null bulk string and a command round-trip through the parser")
  func respCommand() {
    #expect(length(.resp, "$-1\r\n") == 5)
    let command = RESP.command([Array("PUBLISH".utf8), Array("ch".utf8), Array("x\r\ny".utf8)])
    #expect(String(decoding: command, as: UTF8.self) == "*3\r\n$7\r\nPUBLISH\r\n$2\r\nch\r\n$4\r\nx\r\ny\r\n")
    #expect(command.withUnsafeBytes { Framing.resp.messageLength($0) } == command.count)
  }
}
