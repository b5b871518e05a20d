import Foundation
import NavCtlKit
import NavEngine
import NavModel
import NavStore

/// `navctl export` and `navctl import`: navd's database, read and written directly.
enum StateFiles {
  static func directory(_ explicit: String?) -> String {
    StateDirectory.resolve(explicit: explicit, environment: ProcessInfo.processInfo.environment)
  }

  /// Prints the export document; a scene that cannot be read is named on stderr (exit 1).
  static func export(stateDirectory: String?, scene: String?) -> ExitCode {
    let path = directory(stateDirectory) + "/" + SQLiteSceneStore.fileName
    guard FileManager.default.fileExists(atPath: path) else {
      Terminal.writeError("navctl: no navd database at \(path) (give --state-dir DIR)\n")
      return .refused
    }
    do {
      let result = try SceneArchive.export(databaseAt: path, only: scene)
      Terminal.write(JSONWriter.string(result.archive.json) + "\n")
      for problem in result.problems { Terminal.writeError("navctl: export: \(problem)\n") }
      guard result.problems.isEmpty else {
        Terminal.writeError(
          "navctl: exported \(result.archive.scenes.count) scene(s); \(result.problems.count) could not be read\n")
        return .refused
      }
      return .success
    } catch {
      Terminal.writeError("navctl: export: \(error)\n")
      return .refused
    }
  }

  /// Writes the scenes of an export into the database, holding navd's lock so navd cannot start meanwhile.
  static func importArchive(stateDirectory: String?, source: ApplySource) -> ExitCode {
    let directory = directory(stateDirectory)
    do {
      let archive = try SceneArchive(json: try JSONParser.parse(try Runner.read(source, command: "import")))
      try StateDirectory.prepare(directory)
      guard let lock = lock(directory) else { return .refused }
      try withExtendedLifetime(lock) {
        try archive.importInto(databaseAt: directory + "/" + SQLiteSceneStore.fileName)
      }
      Terminal.write("imported \(archive.scenes.count) scene(s) into \(directory)/\(SQLiteSceneStore.fileName)\n")
      return .success
    } catch let error as UsageError {
      Terminal.writeError(error.report)
      return .usage
    } catch {
      Terminal.writeError("navctl: import: \(error)\n")
      return .refused
    }
  }

  /// navd's lock, or nil (after saying why) when navd runs on `directory`.
  private static func lock(_ directory: String) -> StateLock? {
    let result = Result { () throws(StateLock.Failure) in try StateLock(directory: directory) }
    switch result {
    case .success(let lock): return lock
    case .failure(.held(let path, let holder)):
      Terminal.writeError(
        "navctl: import: navd\(holder.map { " (pid \($0))" } ?? "") is running on \(directory) "
          + "(it holds \(path)): stop navd first\n")
    case .failure(let error):
      Terminal.writeError("navctl: import: \(error)\n")
    }
    return nil
  }
}
