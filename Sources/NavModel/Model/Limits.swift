/// The documented bounds on every input (Protocol/SEMANTICS.md, "Limits").
///
/// Every check is `value <= max`: a value exactly at the limit is accepted.
public struct ModelLimits: Sendable, Hashable {
  /// Longest id, in bytes (R66).
  public var idMaxLength = 64
  /// Longest title, prompt or name, in UTF-8 bytes (R66).
  public var stringMaxBytes = 256
  /// Deepest navigation stack (R66).
  public var stackDepth = 64
  /// Most ids in one side array or the toolbar (R66).
  public var itemsPerArray = 32
  /// Most bar button items in one scene (R66).
  public var barButtonItemsPerScene = 512
  /// Most ops in one mutation (R6).
  public var opsPerMutation = 256
  /// Most entries in one `possibleTitles` (R66).
  public var possibleTitles = 16
  /// Largest width or size in points (R66).
  public var maxWidth = 10_000.0
  /// Tags are integers exact in a JSON number: ±2^53.
  public var maxTagMagnitude = 9_007_199_254_740_992.0

  /// The documented limits.
  public init() {}

  /// The documented limits of SEMANTICS R66.
  public static let `default` = ModelLimits()
}
