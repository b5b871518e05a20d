import NavAccess

/// Everything navd and its clients need to know about one io.navd method, declared once
/// (`NavMethod.descriptor`): the router decodes with `call`, the access gate checks `right`
/// within `scope`, and NavClient and navctl send `streams` methods with `"more": true`.
public struct NavMethodDescriptor: Sendable {
  /// Where the right a call needs applies (PROTOCOL.md § Access).
  public enum Scope: Sendable, Hashable {
    /// On the call's `scene`; on some scene when the call has no usable scene parameter (it
    /// then fails its parameter check as usual).
    case scene
    /// On some scene; the handler narrows the work to the scenes the peer holds it on.
    case someScene
    /// On the server as a whole, never scoped to a scene (`admin`).
    case server
    /// Any right anywhere (read or write on some scene, or admin); a denial names `right`.
    case anyRight
  }

  /// The method.
  public let method: NavMethod
  /// The type of its parameters.
  public let call: any NavCall.Type
  /// The type of its reply, or of each frame of its stream.
  public let reply: any NavReply.Type
  /// The right a call needs.
  public let right: AccessRight
  /// Where `right` applies.
  public let scope: Scope
  /// Whether the method only streams (`[Requires 'more' flag]`): a plain call gets ExpectedMore.
  public let streams: Bool

  init<Call: NavCall>(_ call: Call.Type, _ right: AccessRight, _ scope: Scope, streams: Bool = false) {
    self.method = Call.method
    self.call = call
    self.reply = Call.Reply.self
    self.right = right
    self.scope = scope
    self.streams = streams
  }
}

extension NavMethod {
  /// The method's descriptor: the one table of io.navd's methods.
  public var descriptor: NavMethodDescriptor {
    switch self {
    case .getServerInfo: NavMethodDescriptor(GetServerInfoCall.self, .read, .anyRight)
    case .listScenes: NavMethodDescriptor(ListScenesCall.self, .read, .someScene)
    case .getState: NavMethodDescriptor(GetStateCall.self, .read, .scene)
    case .getLayout: NavMethodDescriptor(GetLayoutCall.self, .read, .scene)
    case .subscribe: NavMethodDescriptor(SubscribeCall.self, .read, .scene, streams: true)
    case .mutate: NavMethodDescriptor(MutateCall.self, .write, .scene)
    case .activate: NavMethodDescriptor(ActivateCall.self, .write, .scene)
    case .watchActions: NavMethodDescriptor(WatchActionsCall.self, .read, .scene, streams: true)
    case .deleteScene: NavMethodDescriptor(DeleteSceneCall.self, .write, .scene)
    case .getStatistics: NavMethodDescriptor(GetStatisticsCall.self, .admin, .server)
    case .export: NavMethodDescriptor(ExportCall.self, .read, .someScene, streams: true)
    case .importScene: NavMethodDescriptor(ImportCall.self, .admin, .server)
    }
  }
}
