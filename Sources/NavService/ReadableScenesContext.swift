import NavModel
import NavServer

/// A ListScenes context that drops the scenes the caller may not read from the reply.
final class ReadableScenesContext: CallContext {
  private let base: any CallContext
  private let isReadable: @Sendable (String) -> Bool

  init(_ base: any CallContext, isReadable: @escaping @Sendable (String) -> Bool) {
    self.base = base
    self.isReadable = isReadable
  }

  var peer: PeerCredentials { base.peer }
  var connectionID: UInt64 { base.connectionID }
  var serverStatistics: ServerStatistics { base.serverStatistics }

  func reply(_ parameters: JSONValue) {
    guard case .object(var object) = parameters, case .array(let scenes)? = object["scenes"] else {
      return base.reply(parameters)
    }
    object["scenes"] = .array(scenes.filter { $0["name"]?.stringValue.map(isReadable) ?? false })
    base.reply(.object(object))
  }

  func fail(_ name: String, _ parameters: JSONValue) { base.fail(name, parameters) }
  func stream(from source: any ReplySource) { base.stream(from: source) }
  func sourceHasData() { base.sourceHasData() }
  func close(reason: String) { base.close(reason: reason) }
}
