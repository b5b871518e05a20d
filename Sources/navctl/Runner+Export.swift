import Foundation
import NavClient
import NavCtlKit
import NavModel
import NavWire

/// `navctl export` without `--state-dir`: the `Export` call over the socket, written to stdout
/// scene by scene in the export format (byte for byte what the offline export prints), so
/// navctl holds one scene at a time.
extension Runner {
  /// The export's exit status; nil when navd cannot be reached (the caller then reads the
  /// default state directory instead, as for a stopped navd).
  func exportOnline(scene: String?) async -> ExitCode? {
    var wroteHeader = false
    var first = true
    var state: [UInt8] = []
    var pending: (name: String, epoch: String, version: UInt64, chunks: Int)?
    func header() {
      guard !wroteHeader else { return }
      Terminal.write(#"{"format":"navd-export","formatVersion":1,"scenes":["#)
      wroteHeader = true
    }
    func finishScene() {
      guard let scene = pending else { return }
      var line = first ? "" : ","
      line += #"{"epoch":"# + JSONWriter.string(.string(scene.epoch)) + #","name":"#
      line += JSONWriter.string(.string(scene.name)) + #","state":"# + String(decoding: state, as: UTF8.self)
      line += #","version":\#(scene.version)}"#
      Terminal.write(line)
      first = false
      pending = nil
      state = []
    }
    do {
      for try await reply in client.export(scenes: scene.map { [$0] }) {
        switch try ExportFrame(parameters: reply) {
        case .scene(let name, let epoch, let version, let chunks):
          header()
          finishScene()
          pending = (name, epoch, version, chunks)
        case .state(let text):
          state += Array(text.utf8)
        case .end:
          header()
          finishScene()
          Terminal.write("]}\n")
          return .success
        }
      }
      Terminal.writeError("navctl: export: navd ended the export early\n")
      return .refused
    } catch let error as NavClientError {
      if case .unreachable = error, !wroteHeader { return nil }
      let failure = failure(error)
      Terminal.writeError(failure.report(json: options.json, command: invocation.command, scene: options.scene))
      return failure.exitCode
    } catch {
      Terminal.writeError("navctl: export: \(error)\n")
      return .refused
    }
  }
}
