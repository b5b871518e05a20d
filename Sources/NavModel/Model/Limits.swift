/// The documented bounds on every input (Protocol/SEMANTICS.md, "Limits").
///
/// Every check is `value <= max`: a value exactly at the limit is accepted.
public struct ModelLimits: Sendable, Hashable {
  public var idMaxLength = 64
  public var stringMaxBytes = 256
  public var stackDepth = 64
  public var itemsPerArray = 32
  public var barButtonItemsPerScene = 512
  public var opsPerMutation = 256
  public var possibleTitles = 16
  public var maxWidth = 10_000.0
  /// Tags are integers exact in a JSON number: ±2^53.
  public var maxTagMagnitude = 9_007_199_254_740_992.0

  public init() {}

  public static let `default` = ModelLimits()
}
