/// One server under test, seen through what the scenarios need: publish a
/// message on a channel, subscribe to a channel, and tell messages apart.
///
/// navd's channel is a scene and its message a `Mutate` that changes one
/// title; Redis's is `PUBLISH` of a payload of the same size. Everything
/// else (clients, loops, clocks, statistics) is shared, so the only
/// difference between two runs is the server.
protocol PubSubTarget {
  /// `navd` or `redis`, for tables and errors.
  var name: String { get }
  var socketPath: String { get }
  var framing: Framing { get }
  /// What a publish changes: nil for the title of a one-screen scene (the
  /// original scenarios), else an op kind on its three-screen scene.
  var kind: OpKind? { get set }

  /// Makes `channel` ready to publish on (navd: creates the scene with the screen whose title changes).
  func prepare(_ connection: BenchConnection, channel: String) throws
  /// The bytes of one publish; `sequence` makes each message different.
  func publishFrame(channel: String, sequence: Int) -> [UInt8]
  /// Makes `channel` ready for `largePublishFrame` (navd: defines the bar button item it changes).
  func prepareLarge(_ connection: BenchConnection, channel: String) throws
  /// One valid publish of at most `bytes` and close to it, frame or command included.
  func largePublishFrame(channel: String, bytes: Int) -> [UInt8]
  /// Throws when a publish's acknowledgement is an error.
  func checkAcknowledgement(_ message: UnsafeRawBufferPointer) throws
  /// The bytes that subscribe a connection to `channel`.
  func subscribeFrame(channel: String) -> [UInt8]
  /// Checks the first message after subscribing and returns the position the
  /// subscriber starts from (navd: the snapshot's version).
  func subscribed(_ first: UnsafeRawBufferPointer) throws -> UInt64
  /// A subscriber's position after `message`: navd counts versions made
  /// visible (a coalesced update covers several), Redis counts messages.
  func position(after message: UnsafeRawBufferPointer, previous: UInt64) -> UInt64
  /// The server's process id (asked over the socket), for its memory and CPU time.
  func serverPid() throws -> Int32
  /// Removes what `prepare` made for `channels` (navd: deletes the scenes), so a run leaves
  /// nothing behind in the server it measured.
  func cleanUp(channels: [String]) throws
}

extension PubSubTarget {
  func connect() throws -> BenchConnection {
    try BenchConnection(socketPath: socketPath, framing: framing)
  }

  /// Publishes once and waits for the acknowledgement.
  func publish(_ connection: BenchConnection, channel: String, sequence: Int) throws {
    try connection.send(publishFrame(channel: channel, sequence: sequence))
    let ack = try connection.readMessage()
    try ack.withUnsafeBytes { try checkAcknowledgement($0) }
  }

  /// Opens a subscriber to `channel` and returns it with its starting position.
  func subscriber(channel: String) throws -> (BenchConnection, UInt64) {
    let connection = try connect()
    try connection.send(subscribeFrame(channel: channel))
    let first = try connection.readMessage()
    return (connection, try first.withUnsafeBytes { try subscribed($0) })
  }
}

/// The parameters of a publish: one title change padded to `bytes` in all,
/// so navd's `Mutate` parameters and Redis's payload are the same size; with
/// an op kind, that kind's `Mutate` (padded in its text where it has one).
enum Payload {
  static func parameters(kind: OpKind?, channel: String, sequence: Int, bytes: Int) -> [UInt8] {
    guard let kind else { return parameters(channel: channel, sequence: sequence, bytes: bytes) }
    return kind.parameters(channel: channel, sequence: sequence, bytes: bytes)
  }

  static func parameters(channel: String, sequence: Int, bytes: Int) -> [UInt8] {
    let head = #"{"scene":"\#(channel)","ops":[{"op":"updateNavigationItem","item":"root","set":{"title":""#
    let tail = #""}}]}"#
    let title = "title \(sequence) "
    let padding = max(0, bytes - head.utf8.count - tail.utf8.count - title.utf8.count)
    return Array((head + title + String(repeating: "x", count: padding) + tail).utf8)
  }
}
