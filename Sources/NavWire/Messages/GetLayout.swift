import NavModel

/// `GetLayout(scene, width?, compact?, navigationBarPosition?, toolbarPosition?)`.
public struct GetLayoutCall: NavCall {
  /// What navd answers.
  public typealias Reply = LayoutReply
  /// `GetLayout`.
  public static let method = NavMethod.getLayout

  /// The scene to resolve.
  public var scene: String
  /// The layout metrics of SEMANTICS R7 (defaults are not sent).
  public var metrics: LayoutMetrics

  /// The call for `scene` resolved with `metrics`.
  public init(scene: String, metrics: LayoutMetrics = .defaults) {
    self.scene = scene
    self.metrics = metrics
  }

  /// Reads `scene` and the metrics.
  public init(parameters: JSONValue) throws(CallError) {
    let reader = try ParameterReader(parameters, known: ParameterReader.metricsParameters.union(["scene"]))
    scene = try reader.string("scene")
    metrics = try reader.layoutMetrics()
  }

  /// `{"scene": …, "width"?: …, …}`.
  public var parameters: JSONValue {
    var members = metrics.parameters
    members["scene"] = .string(scene)
    return .object(members)
  }
}

/// `GetLayout`'s reply: the resolved layout document, its version and epoch.
public struct LayoutReply: NavReply {
  /// The scene's version.
  public var version: UInt64
  /// The history `version` belongs to; nil from a navd that does not say.
  public var epoch: String?
  /// The layout document (SEMANTICS R62).
  public var layout: JSONValue

  /// A reply.
  public init(version: UInt64, epoch: String?, layout: JSONValue) {
    self.version = version
    self.epoch = epoch
    self.layout = layout
  }

  /// Reads a `GetLayout` reply.
  public init(parameters: JSONValue) throws(MalformedReply) {
    let reader = try ReplyReader(parameters, context: "GetLayout reply")
    version = try reader.version("version")
    epoch = try reader.optionalString("epoch")
    layout = try reader.object("layout")
  }

  /// The reply's parameters.
  public var parameters: JSONValue {
    var members: [String: JSONValue] = ["version": version.json, "layout": layout]
    if let epoch { members["epoch"] = .string(epoch) }
    return .object(members)
  }
}

extension Layout {
  /// The layout document a reply or a stream frame carries, read into NavModel's types
  /// (`Layout(json:)`); one that does not read is a `MalformedReply` naming `context` and the field.
  public init(document: JSONValue, context: String) throws(MalformedReply) {
    do {
      try self.init(json: document)
    } catch {
      throw MalformedReply("\(context): layout: \(error.message)")
    }
  }
}

extension LayoutReply {
  /// `layout` read into NavModel's types.
  public func decodedLayout() throws(MalformedReply) -> Layout {
    try Layout(document: layout, context: "GetLayout reply")
  }
}
