import Foundation
import NavClient
import NavCtlKit
import NavModel
import NavStore
import NavWire

/// `navctl import` without `--state-dir`: each scene of the export through the `Import` call
/// while navd serves (PROTOCOL.md §3 Import), checked here first as navd will check it.
///
/// The file is read twice in bounded pieces (`ExportReader`), never whole: once to check
/// every scene before anything is sent, once to send them, so navctl holds one scene at a
/// time whatever the file's size. The offline import (`StateFiles.importArchive`) reads it
/// the same way.
extension Runner {
  /// The longest scene object navctl reads from an export: navd holds at most
  /// `importSceneBytes` of a scene's document as navctl sends it (without spaces), and a
  /// hand-formatted export may spend as much again on indentation.
  static let maxImportSceneBytes = 2 * 8 * 1024 * 1024

  /// The import's exit status; nil when navd cannot be reached before any scene was sent
  /// (the caller then writes the default state directory, as for a stopped navd).
  func importOnline(_ file: ExportFile) async -> ExitCode? {
    var count = 0
    do {
      try await file.scenes { _ in count += 1 }
    } catch {
      Terminal.writeError("navctl: import: \(error)\n")
      return .refused
    }
    var imported = 0
    do {
      // An export of no scene sends no Import: whether a navd runs is asked all the same.
      if count == 0 { _ = try await client.serverInfo() }
      try await file.scenes { scene in
        let reply = try await client.importScene(
          scene.name, version: scene.version, stateText: JSONWriter.bytes(scene.state.json))
        imported += 1
        let created = reply.created == true ? " (created)" : ""
        Terminal.write(
          "imported scene \(scene.name) at version \(reply.version ?? scene.version), epoch \(reply.epoch ?? "?")\(created)\n"
        )
      }
      Terminal.write("imported \(imported) scene(s) into the running navd\n")
      return .success
    } catch let error as NavClientError {
      if case .unreachable = error, imported == 0 { return nil }
      let failure = failure(error)
      Terminal.writeError(failure.report(json: options.json, command: invocation.command, scene: options.scene))
      if imported > 0 { Terminal.writeError("navctl: import: \(imported) scene(s) were imported before it\n") }
      return failure.exitCode
    } catch {
      Terminal.writeError("navctl: import: \(error)\n")
      return .refused
    }
  }
}

/// The export file `navctl import` reads: the file named, or standard input, which is
/// first copied into an unlinked temporary file unless it is a regular file already, so
/// that it can be read twice. Copying and reading both go in bounded pieces.
struct ExportFile {
  let handle: FileHandle

  /// Opens `source`; a file that cannot be opened is a usage error naming it.
  init(_ source: ApplySource) throws {
    switch source {
    case .file(let path):
      guard let handle = FileHandle(forReadingAtPath: path) else {
        throw UsageError("cannot read \(path)", command: "import")
      }
      self.handle = handle
    case .standardInput:
      var status = stat()
      if fstat(STDIN_FILENO, &status) == 0, status.st_mode & S_IFMT == S_IFREG {
        handle = FileHandle.standardInput
        return
      }
      handle = try Self.spool(FileHandle.standardInput)
    }
  }

  /// A copy of `input` in an unlinked temporary file, open for reading.
  private static func spool(_ input: FileHandle) throws -> FileHandle {
    var template = Array((NSTemporaryDirectory() + "/navctl-import-XXXXXX").utf8CString)
    let descriptor = mkstemp(&template)
    guard descriptor >= 0 else {
      throw UsageError("cannot copy standard input: \(String(cString: strerror(errno)))", command: "import")
    }
    unlink(template)
    let copy = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
    while let piece = try input.read(upToCount: ExportReader.pieceBytes), !piece.isEmpty {
      try copy.write(contentsOf: piece)
    }
    return copy
  }

  /// Reads the export from its start, handing each checked scene to `body` (`ExportReader`).
  func scenes(_ body: (SceneArchive.Scene) async throws -> Void) async throws {
    try handle.seek(toOffset: 0)
    let handle = self.handle
    var reader = ExportReader(maxSceneBytes: Runner.maxImportSceneBytes) { count in
      Array(try handle.read(upToCount: count) ?? Data())
    }
    try await reader.scenes(body)
  }

}
