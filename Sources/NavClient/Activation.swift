import NavModel

/// An activation delivered by `WatchActions`: a front end activated a bar button item.
public struct Activation: Sendable, Hashable {
  /// The scene the item belongs to.
  public var scene: String
  /// The bar button item's id.
  public var item: String
  /// The item's action name, if it has one.
  public var action: String?
  /// The item's tag.
  public var tag: Int
  /// The scene's version when it was activated.
  public var version: UInt64

  /// Creates an activation (tests, fakes).
  public init(scene: String, item: String, action: String?, tag: Int, version: UInt64) {
    self.scene = scene
    self.item = item
    self.action = action
    self.tag = tag
    self.version = version
  }

  init(_ parameters: [String: JSONValue]) throws(NavClientError) {
    let reader = ReplyReader(parameters, context: "WatchActions reply")
    self.init(
      scene: try reader.string("scene"), item: try reader.string("item"), action: try reader.optionalString("action"),
      tag: try reader.int("tag"), version: try reader.version("version"))
  }
}

/// navd's answer to `Activate`.
public struct ActivationResult: Sendable, Hashable {
  /// The item's action, if it has one.
  public var action: String?
  /// How many `WatchActions` callers it was delivered to.
  public var watchers: Int
  /// For the back button (`@back`): the version of the pop it committed.
  public var version: UInt64?

  init(_ parameters: [String: JSONValue]) throws(NavClientError) {
    let reader = ReplyReader(parameters, context: "Activate reply")
    action = try reader.optionalString("action")
    watchers = try reader.int("watchers")
    version = try reader.optionalVersion("version")
  }
}
