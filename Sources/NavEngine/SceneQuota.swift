import NavModel

/// Whose request creates or waits for a scene, for the per-user scene quotas
/// (`EngineConfiguration.maxScenesPerUser`, `maxWaitedScenesPerUser`).
///
/// One user must not use up `maxScenes` (or `maxWaitedScenes`) for everyone: each uid
/// holds at most its share, and the last `reservedShare` of each limit is left to the
/// exempt users (root and navd's own uid), who have no per-user quota. Requests with
/// no user (`nil` in the engine's API: navd's own work, tests) are exempt.
public struct SceneRequester: Sendable, Hashable {
  /// The requesting uid.
  public let uid: UInt32
  /// Root or navd's own uid: no per-user quota, and the reserve is theirs.
  public let exempt: Bool

  /// A requester.
  public init(uid: UInt32, exempt: Bool) {
    self.uid = uid
    self.exempt = exempt
  }

  /// The part of `limit` only exempt users may take: a sixteenth (64 of 1,024), at least
  /// one once the limit leaves room for anyone else.
  public static func reservedShare(of limit: Int) -> Int { limit > 1 ? max(1, limit / 16) : 0 }

  /// Why this requester may not take one more of `limit` slots (`held` in all, `own`
  /// its own), or nil when it may. `name` is the scene asked for; `limitName`,
  /// `perUserLimitName` and `perUser` name the bounds; `what` is "scenes" or "waited scenes".
  func refusal(
    name: String, held: Int, own: Int, limit: Int, limitName: String, perUser: Int, perUserLimitName: String,
    what: String
  ) -> NavError? {
    if held >= limit {
      return NavError(
        .limitExceeded, "navd already holds \(held) \(what)", field: "scene", value: name, limit: limitName,
        max: limit)
    }
    guard !exempt else { return nil }
    if own >= perUser {
      return NavError(
        .limitExceeded, "uid \(uid) already holds \(own) \(what), its share", field: "scene", value: name,
        limit: perUserLimitName, max: perUser)
    }
    let open = limit - Self.reservedShare(of: limit)
    if held >= open {
      return NavError(
        .limitExceeded,
        "navd already holds \(held) \(what); the last \(limit - open) are reserved for root and navd's own uid",
        field: "scene", value: name, limit: limitName, max: limit)
    }
    return nil
  }
}
