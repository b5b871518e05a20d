import Foundation
import NavCtlKit
import NavEngine
import NavModel
import NavStore

/// `navctl export` and `navctl import`: navd's database, read and written directly.
enum StateFiles {
  /// The state directory navd uses with the same options and environment (STORAGE.md §1),
  /// or nil after saying why there is none. navctl never creates a directory it was not
  /// given with `--state-dir`: a default that does not exist is an error naming it, not a
  /// fresh empty state that a forgotten option would leave behind.
  static func directory(_ explicit: String?, command: String) -> String? {
    let location: StateDirectory.Location
    do {
      location = try StateDirectory.resolve(explicit: explicit, environment: ProcessInfo.processInfo.environment)
    } catch {
      Terminal.writeError("navctl: \(command): \(error)\n")
      return nil
    }
    guard location.origin != .option, !FileManager.default.fileExists(atPath: location.path) else {
      return location.path
    }
    Terminal.writeError(missingDefault(location, command: command))
    return nil
  }

  /// The message for a default state directory that does not exist.
  static func missingDefault(_ location: StateDirectory.Location, command: String) -> String {
    let system = "/var/lib/navd"
    let systemHint =
      location.path != system && FileManager.default.fileExists(atPath: system)
      ? "\n  the system service's state directory is \(system): navctl \(command) --state-dir \(system)" : ""
    return "navctl: \(command): no state directory at \(location.path) (\(location.origin))\n"
      + "  navctl opens an existing state directory, and creates one only when given --state-dir DIR"
      + "\(systemHint)\n"
  }

  /// Prints the export document; a scene that cannot be read is named on stderr (exit 1), a
  /// scene named that the file does not hold is not found (exit 5, as over the socket).
  static func export(stateDirectory: String?, scene: String?) -> ExitCode {
    guard let directory = directory(stateDirectory, command: "export") else { return .refused }
    let path = directory + "/" + SQLiteSceneStore.fileName
    if let problem = DatabaseLookup.problem(path) {
      Terminal.writeError("navctl: \(problem)\n")
      return .refused
    }
    let progress = ProgressLine(command: "export")
    do {
      _ = try DirectoryOwner.adopt(directory)
      let result = try SceneArchive.export(databaseAt: path, only: scene) { place, count, name in
        progress.show("reading scene \(place) of \(count): \(name)")
      }
      progress.clear()
      if let missing = result.missing {
        // As the Export call answers it: SceneNotFound, exit 5.
        Terminal.writeError("navctl: export: \(path) holds no scene \"\(missing)\"\n")
        return .notFound
      }
      Terminal.write(JSONWriter.string(result.archive.json) + "\n")
      for problem in result.problems { Terminal.writeError("navctl: export: \(problem)\n") }
      guard result.problems.isEmpty else {
        Terminal.writeError(
          "navctl: exported \(result.archive.scenes.count) scene(s); \(result.problems.count) could not be read\n")
        return .refused
      }
      return .success
    } catch {
      progress.clear()
      Terminal.writeError("navctl: export: \(error)\n")
      return .refused
    }
  }

  /// Writes the scenes of an export into the database, holding navd's lock so navd cannot start meanwhile.
  ///
  /// The file is read as the online import reads it (`ExportFile`, one scene at a time): once
  /// to check every scene, then again into one transaction, so it is never held whole.
  static func importArchive(stateDirectory: String?, file: ExportFile) async -> ExitCode {
    do {
      var count = 0
      try await file.scenes { _ in count += 1 }
      guard let directory = directory(stateDirectory, command: "import") else { return .refused }
      let owner = try DirectoryOwner.adopt(directory)
      try prepare(directory, owner: owner)
      guard let lock = lock(directory) else { return .refused }
      let transaction = try ArchiveImport(databaseAt: directory + "/" + SQLiteSceneStore.fileName)
      do {
        try await file.scenes { scene in try transaction.write(scene) }
        try transaction.commit()
      } catch {
        transaction.rollBack()
        throw error
      }
      withExtendedLifetime(lock) {}
      let written = owner.map { " (as \(DirectoryOwner.describe($0)), the directory's owner)" } ?? ""
      Terminal.write("imported \(count) scene(s) into \(directory)/\(SQLiteSceneStore.fileName)\(written)\n")
      return .success
    } catch let error as UsageError {
      Terminal.writeError(error.report)
      return .usage
    } catch {
      Terminal.writeError("navctl: import: \(error)\n")
      return .refused
    }
  }

  /// `StateDirectory.prepare`, its refusal naming the owner navctl works as, if any.
  private static func prepare(_ directory: String, owner: DirectoryOwner.Identity?) throws {
    let result = Result { () throws(StateDirectory.Refusal) in try StateDirectory.prepare(directory) }
    guard case .failure(let refusal) = result else { return }
    guard let owner else { throw refusal }
    throw DirectoryOwner.Unreachable(refusal: refusal, owner: owner)
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
