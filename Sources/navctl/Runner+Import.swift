import Foundation
import NavClient
import NavCtlKit
import NavModel
import NavStore
import NavWire

/// `navctl import` without `--state-dir`: each scene of the export through the `Import` call
/// while navd serves (PROTOCOL.md §3 Import), checked here first as navd will check it.
extension Runner {
  /// The import's exit status; nil when navd cannot be reached before any scene was sent
  /// (the caller then writes the default state directory, as for a stopped navd).
  func importOnline(_ text: String) async -> ExitCode? {
    let archive: SceneArchive
    do {
      archive = try SceneArchive(json: try JSONParser.parse(text))
    } catch {
      Terminal.writeError("navctl: import: \(error)\n")
      return .refused
    }
    var imported = 0
    do {
      // An export of no scene sends no Import: whether a navd runs is asked all the same.
      if archive.scenes.isEmpty { _ = try await client.serverInfo() }
      for scene in archive.scenes {
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
