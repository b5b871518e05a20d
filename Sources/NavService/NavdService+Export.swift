import NavEngine
import NavModel
import NavServer
import NavWire
import Varlink

/// `Export` (PROTOCOL.md §3): a consistent snapshot of each scene, taken on its actor while
/// navd goes on serving, streamed one scene at a time (`ExportSource`), so navd holds at most
/// one scene's export at once.
extension NavdService {
  func export(_ call: ExportCall, more: Bool, _ context: any CallContext) {
    guard more else {
      context.fail(ExpectedMore())
      return
    }
    let mayRead = readableScenes(context)
    let names: [String]
    if let asked = call.scenes {
      if let denied = asked.first(where: { !mayRead($0) }) {
        deny(.read, scene: denied, context)
        return
      }
      for name in asked {
        do {
          _ = try engine.scene(name)
        } catch {
          context.fail(error)
          return
        }
      }
      names = Set(asked).sorted()
    } else {
      names = engine.sceneNames.filter(mayRead)
    }
    let engine = engine
    let source = ExportSource(wake: context.sourceHasDataSignal)
    run {
      var exported = 0
      var started = false
      for name in names {
        guard let scene = try? engine.scene(name) else { continue }  // deleted meanwhile
        let (state, version) = await scene.snapshot()
        guard version > 0 else { continue }  // a `main` never written holds nothing, as offline
        if !started {
          context.stream(from: source)
          started = true
        }
        var bytes: [UInt8] = []
        for frame in ExportFrame.frames(
          name: name, epoch: scene.epoch, version: version, stateText: JSONWriter.bytes(state.json))
        {
          VarlinkReply.encode(parameters: frame.parameters, continues: true, error: nil, into: &bytes)
        }
        guard await source.send(bytes, last: false) else { return }
        exported += 1
      }
      if started {
        _ = await source.send(
          VarlinkReply.encoded(parameters: ExportFrame.end(scenes: exported).parameters), last: true)
      } else {
        context.reply(ExportFrame.end(scenes: exported).parameters)
      }
    }
  }
}
