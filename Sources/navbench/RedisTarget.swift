/// Redis pub/sub over RESP: a publish is `PUBLISH channel payload` with a
/// payload as large as navd's `Mutate` parameters, a subscriber `SUBSCRIBE`s.
struct RedisTarget: PubSubTarget {
  let socketPath: String
  /// Size of each payload.
  let payloadBytes: Int
  var name: String { "redis" }
  var framing: Framing { .resp }
  var kind: OpKind?

  func prepare(_ connection: BenchConnection, channel: String) throws {}
  /// Pub/sub channels hold nothing once their subscribers are gone.
  func cleanUp(channels: [String]) throws {}

  func prepareLarge(_ connection: BenchConnection, channel: String) throws {}

  /// `PUBLISH` of a payload that makes the command `bytes` long.
  func largePublishFrame(channel: String, bytes: Int) -> [UInt8] {
    let empty = RESP.command([Array("PUBLISH".utf8), Array(channel.utf8), []]).count
    let digits = String(bytes).utf8.count
    let payload = [UInt8](repeating: UInt8(ascii: "x"), count: max(0, bytes - empty - digits + 1))
    return RESP.command([Array("PUBLISH".utf8), Array(channel.utf8), payload])
  }

  func publishFrame(channel: String, sequence: Int) -> [UInt8] {
    RESP.command([
      Array("PUBLISH".utf8), Array(channel.utf8),
      Payload.parameters(kind: kind, channel: channel, sequence: sequence, bytes: payloadBytes),
    ])
  }

  func checkAcknowledgement(_ message: UnsafeRawBufferPointer) throws {
    if RESP.isError(message) {
      throw BenchConnection.Failure(description: "redis refused: \(String(decoding: message, as: UTF8.self))")
    }
  }

  func subscribeFrame(channel: String) -> [UInt8] {
    RESP.command([Array("SUBSCRIBE".utf8), Array(channel.utf8)])
  }

  func subscribed(_ first: UnsafeRawBufferPointer) throws -> UInt64 {
    try checkAcknowledgement(first)
    guard contains(first, "subscribe") else {
      throw BenchConnection.Failure(
        description: "unexpected reply to SUBSCRIBE: \(String(decoding: first, as: UTF8.self))")
    }
    return 0
  }

  func position(after message: UnsafeRawBufferPointer, previous: UInt64) -> UInt64 { previous + 1 }

  func serverPid() throws -> Int32 {
    let connection = try connect()
    try connection.send(RESP.command([Array("INFO".utf8), Array("server".utf8)]))
    let reply = try connection.readMessage()
    return try reply.withUnsafeBytes { bytes in
      guard var i = find(bytes, "process_id:") else {
        throw BenchConnection.Failure(description: "INFO server did not say redis's pid")
      }
      var pid: Int32 = 0
      while i < bytes.count, bytes[i] >= UInt8(ascii: "0"), bytes[i] <= UInt8(ascii: "9") {
        pid = pid * 10 + Int32(bytes[i] - UInt8(ascii: "0"))
        i += 1
      }
      return pid
    }
  }
}
