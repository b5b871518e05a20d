import NavModel
import NavWire
import Testing
import Varlink

/// PROTOCOL.md §2 "Pipelining" with `Mutate`s above the server's off-loop bound
/// (`ServerConfiguration.offLoopParseBytes`, 64 KiB): they are parsed and decoded on
/// another thread, and still applied and answered in the order sent among the small ones;
/// a large invalid one gets the error the same call gets when it is parsed on the loop.
@Suite("PROTOCOL §2 large Mutates, parsed off the loop, keep their order and their errors")
struct LargeMutateSocketTests {
  /// A Mutate of `main` with 250 title changes of 250 bytes (over 64 KiB), the last to `title`;
  /// op `bad`, if given, sets a title over the 256-byte limit.
  static func largeMutate(last title: String, bad: Int? = nil) -> [UInt8] {
    let ops: [JSONValue] = (0..<250).map { i in
      let text = i == 249 ? title : String(repeating: i == bad ? "w" : "t", count: i == bad ? 300 : 250)
      return ["op": "updateNavigationItem", "item": "root", "set": ["title": .string(text)]]
    }
    return VarlinkCall(method: "io.navd.Mutate", parameters: ["scene": "main", "ops": .array(ops)]).encoded()
  }

  @Test("PROTOCOL §2 large and small Mutates pipelined on one connection: applied and answered in the order sent")
  func largeAndSmallInOrder() async throws {
    try await withNavdOnSocket(store: GroupRecordingStore()) { path in
      let client = try SocketClient(path: path)
      let small: (String) -> [UInt8] = { title in
        mutateFrame(["op": "updateNavigationItem", "item": "root", "set": ["title": .string(title)]])
      }
      var calls = mutateFrame(["op": "push", "item": ["id": "root", "title": "start"]])
      calls += Self.largeMutate(last: "large 2") + small("small 3") + Self.largeMutate(last: "large 4")
      calls += small("small 5")
      #expect(Self.largeMutate(last: "x").count > 64 * 1024)
      try client.send(calls + VarlinkCall(method: "io.navd.GetState", parameters: ["scene": "main"]).encoded())
      var versions: [Int] = []
      for index in 0..<5 {
        let reply = try client.readReply()
        #expect(reply.error == nil, "reply \(index): \(reply)")
        versions.append(Int(reply.parameters["version"]?.numberValue ?? -1))
      }
      #expect(versions == [1, 2, 3, 4, 5], "applied in the order sent")
      let state = try client.readReply()
      #expect(state.parameters["version"] == 5)
      let title = state.parameters["state"]?["navigationBar"]?["items"]?.arrayValue?.first?["title"]
      #expect(title == "small 5", "the last Mutate sent is the last applied")
    }
  }

  @Test("SEMANTICS R66 a large Mutate over a string limit gets LimitExceeded naming the field; the connection goes on")
  func largeInvalidMutate() async throws {
    try await withNavdOnSocket(store: GroupRecordingStore()) { path in
      let client = try SocketClient(path: path)
      try client.send(mutateFrame(["op": "push", "item": ["id": "root", "title": "start"]]))
      #expect(try client.readReply().error == nil)
      try client.send(Self.largeMutate(last: "never", bad: 100))
      let refused = try client.readReply()
      #expect(refused.error == "io.navd.LimitExceeded", "\(refused)")
      #expect(refused.parameters["field"] == "ops[100].set.title")
      #expect(refused.parameters["limit"] == "stringMaxBytes")
      try client.send(VarlinkCall(method: "io.navd.GetState", parameters: ["scene": "main"]).encoded())
      let state = try client.readReply()
      #expect(state.parameters["version"] == 1, "the refused Mutate changed nothing")
    }
  }

  @Test("PROTOCOL §2 a large frame that is not JSON closes the connection after the calls before it are answered")
  func largeInvalidJSON() async throws {
    try await withNavdOnSocket(store: GroupRecordingStore()) { path in
      let client = try SocketClient(path: path)
      let junk = [UInt8(ascii: "{")] + [UInt8](repeating: UInt8(ascii: " "), count: 100_000) + [0]
      try client.send(mutateFrame(["op": "push", "item": ["id": "root", "title": "start"]]) + junk)
      #expect(try client.readReply().parameters["version"] == 1)
      #expect(throws: SocketClient.Failure.self, "closed after the reply") { try client.readReply() }
    }
  }
}
