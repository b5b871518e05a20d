import NavModel
import NavWire
import Synchronization

/// The pieces of the scene document each connection is importing (`Import`, PROTOCOL.md §3):
/// one scene per connection, at most `sceneBytes` bytes of it and `totalBytes` across all
/// connections, dropped when the document is imported, started afresh, or its connection
/// closes. A whole document stays counted while it is checked (`checked`), so the documents
/// being parsed count toward `totalBytes` too.
final class ImportStaging: Sendable {
  /// The default bound on one scene's document, in bytes of JSON text.
  static let defaultSceneBytes = 8 << 20
  /// The default bound on every connection's documents together: four whole scenes.
  static let defaultTotalBytes = 32 << 20

  /// One connection's scene so far.
  struct Staged {
    var scene: String
    var version: UInt64
    var text: [UInt8]
  }

  /// The bound on one scene's document.
  let sceneBytes: Int
  /// The bound on all connections' documents together.
  let totalBytes: Int
  /// Each connection's document, and the bytes they hold together.
  private let staged = Mutex<(documents: [UInt64: Staged], bytes: Int)>(([:], 0))

  init(sceneBytes: Int, totalBytes: Int = defaultTotalBytes) {
    self.sceneBytes = sceneBytes
    self.totalBytes = totalBytes
  }

  /// The bytes all connections' documents hold together.
  var stagedBytes: Int { staged.withLock { $0.bytes } }

  /// Adds `call`'s piece to its connection's document; the whole document once `call.last`
  /// (and the connection holds nothing more). An `offset` other than what was received, or
  /// a document past `sceneBytes`, is refused and drops what the connection held.
  func add(_ call: ImportCall, connection: UInt64) throws(CallError) -> (received: Int, document: Staged?) {
    try staged.withLock { staged throws(CallError) in
      var current = staged.documents.removeValue(forKey: connection)
      staged.bytes -= current?.text.count ?? 0
      if call.offset == 0 { current = Staged(scene: call.scene, version: call.version, text: []) }
      guard var document = current, document.scene == call.scene, document.version == call.version,
        document.text.count == call.offset
      else {
        throw .rejected(
          NavError(
            .invalidMutation,
            "Import of scene \"\(call.scene)\": offset \(call.offset) does not continue this connection's document "
              + "(\(current.map { "\($0.text.count) bytes of scene \"\($0.scene)\" at version \($0.version)" } ?? "none"))"
              + "; start the scene again at offset 0", field: "offset", value: "\(call.offset)"))
      }
      let bytes = call.text.utf8
      guard document.text.count + bytes.count <= sceneBytes else {
        throw .rejected(
          NavError(
            .limitExceeded,
            "Import of scene \"\(call.scene)\": the state document is over \(sceneBytes) bytes; nothing changed",
            field: "text", value: "\(document.text.count + bytes.count)", limit: "importSceneBytes", max: sceneBytes))
      }
      guard staged.bytes + document.text.count + bytes.count <= totalBytes else {
        throw .rejected(
          NavError(
            .limitExceeded,
            "Import of scene \"\(call.scene)\": other connections' imports in progress hold \(staged.bytes) bytes, "
              + "and with this document navd would hold more than \(totalBytes); nothing changed: "
              + "finish or close another import, then start this scene again at offset 0",
            field: "text", value: "\(staged.bytes + document.text.count + bytes.count)", limit: "importTotalBytes",
            max: totalBytes))
      }
      document.text.append(contentsOf: bytes)
      staged.bytes += document.text.count
      guard call.last else {
        staged.documents[connection] = document
        return (document.text.count, nil)
      }
      return (document.text.count, document)
    }
  }

  /// A whole document `add` returned has been checked: its bytes no longer count.
  func checked(_ document: Staged) {
    staged.withLock { $0.bytes -= document.text.count }
  }

  /// The connection closed: what it held goes.
  func drop(connection: UInt64) {
    staged.withLock { staged in
      staged.bytes -= staged.documents.removeValue(forKey: connection)?.text.count ?? 0
    }
  }
}
