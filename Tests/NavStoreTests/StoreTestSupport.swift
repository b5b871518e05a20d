import CSQLite
import Foundation
import NavEngine
import NavModel

@testable import NavStore

/// A fresh directory under /tmp, removed when the value goes away.
final class TemporaryDirectory {
  let path: String

  init() {
    var template = Array("/tmp/navstore-test-XXXXXX".utf8CString)
    path = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
  }

  var database: String { path + "/" + SQLiteSceneStore.fileName }

  deinit { try? FileManager.default.removeItem(atPath: path) }
}

/// Ops that are valid from the empty state in order: push `n` items, each titled.
func pushOps(_ id: String, title: String? = nil, bytes: Int = 0) -> [Op] {
  [.push(NavigationItem(id: id, title: (title ?? id) + String(repeating: "x", count: bytes)), animated: false)]
}

/// A record of `ops` at `version`, applied to `state` (which it advances).
func record(
  scene: String = "main", epoch: String = "e1", version: UInt64, ops: [Op], state: inout SceneState,
  client: String = "c", mutationId: String? = nil, snapshot: Bool = false, forgetThrough: UInt64 = 0
) throws -> CommitRecord {
  state = try state.applying(ops).state
  return CommitRecord(
    scene: scene, epoch: epoch, version: version, client: client, mutationId: mutationId,
    opsDigest: UInt64.max - version, ops: ops,
    outcome: try MutationOutcome(
      storedJSON: ["version": .number(Double(version)), "baseVersionExpired": false, "overwritten": []]),
    snapshot: snapshot ? state : nil, forgetMutationIdsThrough: forgetThrough)
}

/// Runs an SQL script on the file at `path` (outside navd's code, as another program would).
func runSQL(_ sql: String, at path: String) throws {
  var handle: OpaquePointer?
  guard sqlite3_open(path, &handle) == SQLITE_OK else { throw StoreError(.io, "open \(path)") }
  defer { sqlite3_close(handle) }
  guard sqlite3_exec(handle, sql, nil, nil, nil) == SQLITE_OK else {
    throw StoreError(.io, String(cString: sqlite3_errmsg(handle)))
  }
}

/// The state a stored scene reaches.
func state(of scene: StoredScene) -> SceneState { scene.replayed().state }
