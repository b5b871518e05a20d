import NavModel
import NavWire

/// navd over Varlink: a channel is a scene, a publish is a `Mutate` that
/// changes the title of its one screen (or, with an op kind, that kind's
/// ops on its three-screen scene), a subscriber follows its layout.
struct NavdTarget: PubSubTarget {
  let socketPath: String
  /// Size of each `Mutate`'s parameters.
  let payloadBytes: Int
  var kind: OpKind?
  /// The layout width subscribers ask for (an op kind's scene: `OpKind.width`).
  var width: Int { kind == nil ? 375 : OpKind.width }
  var name: String { "navd" }
  var framing: Framing { .varlink }

  func prepare(_ connection: BenchConnection, channel: String) throws {
    let ops = kind == nil ? #"[{"op":"setStack","items":[{"id":"root","title":"Bench"}]}]"# : OpKind.setupOps
    try connection.send(Self.call(.mutate, #"{"scene":"\#(channel)","ops":\#(ops)}"#))
    let reply = try connection.readMessage()
    try reply.withUnsafeBytes { try checkAcknowledgement($0) }
  }

  /// Deletes each scene (`DeleteScene`); one already gone (`SceneNotFound`) is fine.
  func cleanUp(channels: [String]) throws {
    guard !channels.isEmpty else { return }
    let connection = try connect()
    for channel in channels {
      try connection.send(Self.call(.deleteScene, #"{"scene":"\#(channel)"}"#))
      let reply = try connection.readMessage()
      guard !reply.withUnsafeBytes({ contains($0, #""error":"io.navd.SceneNotFound""#) }) else { continue }
      try reply.withUnsafeBytes { try checkAcknowledgement($0) }
    }
  }

  func prepareLarge(_ connection: BenchConnection, channel: String) throws {
    let ops = #"[{"op":"defineBarButtonItem","barButtonItem":{"id":"large","title":"Large"}}]"#
    try connection.send(Self.call(.mutate, #"{"scene":"\#(channel)","ops":\#(ops)}"#))
    let reply = try connection.readMessage()
    try reply.withUnsafeBytes { try checkAcknowledgement($0) }
  }

  /// A valid `Mutate` as large as SEMANTICS' limits let one be: up to 256 ops (R6), each
  /// setting the item's title and its 16 possible titles (R66), every string 256 bytes.
  func largePublishFrame(channel: String, bytes: Int) -> [UInt8] {
    let text = String(repeating: "x", count: 254)
    let titles = (10..<26).map { "\"\(text)\($0)\"" }.joined(separator: ",")
    let op = Array(
      #"{"op":"updateBarButtonItem","barButtonItem":"large","set":{"title":"\#(text)ab","possibleTitles":[\#(titles)]}}"#
        .utf8)
    var frame = Array(
      #"{"method":"\#(NavMethod.mutate.qualifiedName)","parameters":{"scene":"\#(channel)","ops":["#.utf8)
    let tail = Array("]}}".utf8) + [0]
    var ops = 0
    while ops < 256, frame.count + op.count + 1 + tail.count <= bytes {
      if ops > 0 { frame.append(UInt8(ascii: ",")) }
      frame += op
      ops += 1
    }
    return frame + tail
  }

  func publishFrame(channel: String, sequence: Int) -> [UInt8] {
    var frame = Array(#"{"method":"\#(NavMethod.mutate.qualifiedName)","parameters":"#.utf8)
    frame += Payload.parameters(kind: kind, channel: channel, sequence: sequence, bytes: payloadBytes)
    frame += [UInt8(ascii: "}"), 0]
    return frame
  }

  func checkAcknowledgement(_ message: UnsafeRawBufferPointer) throws {
    if contains(message, #""error":""#) {
      throw BenchConnection.Failure(description: "navd refused: \(String(decoding: message.dropLast(), as: UTF8.self))")
    }
  }

  func subscribeFrame(channel: String) -> [UInt8] { subscribeFrame(channel: channel, width: width) }

  /// A subscribe to `channel`'s layout at `width`.
  func subscribeFrame(channel: String, width: Int) -> [UInt8] {
    Self.call(.subscribe, #"{"scene":"\#(channel)","width":\#(width)}"#)
  }

  func subscribed(_ first: UnsafeRawBufferPointer) throws -> UInt64 {
    try checkAcknowledgement(first)
    let reply = try JSONParser.parse(first.dropLast())
    guard let version = reply["parameters"]?["version"]?.numberValue else {
      throw BenchConnection.Failure(
        description: "navd's first Subscribe reply has no version: \(String(decoding: first.dropLast(), as: UTF8.self))"
      )
    }
    return UInt64(version)
  }

  func position(after message: UnsafeRawBufferPointer, previous: UInt64) -> UInt64 {
    guard var i = findLast(message, #""toVersion":"#) else { return previous }
    var version: UInt64 = 0
    while i < message.count, message[i] >= UInt8(ascii: "0"), message[i] <= UInt8(ascii: "9") {
      version = version * 10 + UInt64(message[i] - UInt8(ascii: "0"))
      i += 1
    }
    return version
  }

  func serverPid() throws -> Int32 {
    let connection = try connect()
    try connection.send(Self.call(.getServerInfo, "{}"))
    let reply = try JSONParser.parse(try connection.readMessage().dropLast())
    guard let pid = reply["parameters"]?["pid"]?.numberValue else {
      throw BenchConnection.Failure(description: "GetServerInfo did not say navd's pid")
    }
    return Int32(pid)
  }

  /// One call frame, NUL-terminated; `parameters` is JSON text (built by
  /// hand so a publish costs the client nothing measurable).
  static func call(_ method: NavMethod, _ parameters: String) -> [UInt8] {
    let more = method.descriptor.streams ? #","more":true"# : ""
    return Array(#"{"method":"\#(method.qualifiedName)","parameters":\#(parameters)\#(more)}"#.utf8) + [0]
  }
}
