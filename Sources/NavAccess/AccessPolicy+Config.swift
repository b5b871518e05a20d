import NavConfig

/// Looks user and group names up (the system's databases, or a table in tests).
public protocol IdentityResolver: Sendable {
  /// The uid of the user called `name`, if there is one.
  func uid(ofUser name: String) -> UInt32?
  /// The gid of the group called `name`, if there is one.
  func gid(ofGroup name: String) -> UInt32?
}

extension AccessPolicy {
  /// The configuration section that holds the policy.
  public static let section = "Access"

  /// Reads the `[Access]` sections of `files` (the main file first, then drop-ins in
  /// order) into a policy. Every problem is a `ConfigError` naming the file, line and key.
  ///
  /// Keys: `Allow=PRINCIPAL RIGHTS [scene:PATTERN …]`, repeatable; an empty `Allow=`
  /// drops the entries read before it (as systemd's list settings do), so a drop-in can
  /// replace the main file's list.
  ///
  /// - `PRINCIPAL`: `user:NAME`, `user:UID`, `group:NAME` or `group:GID`.
  /// - `RIGHTS`: a comma-separated list of `read`, `write`, `admin`.
  /// - `scene:PATTERN`: limits `read` and `write` to matching scenes (`*` and `?`
  ///   wildcards; several may follow); without one they apply to every scene.
  ///   `admin` is server-wide and takes no `scene:`.
  public static func load(
    from files: [ConfigFile], ownerUID: UInt32, identities: some IdentityResolver = SystemIdentities()
  ) throws(ConfigError) -> AccessPolicy {
    var rules: [AccessRule] = []
    for file in files {
      for entry in file.entries(in: section) {
        guard entry.key == "Allow" else {
          throw ConfigError(
            path: file.path, entry: entry, message: "unknown key in [\(section)]; the only key is Allow=")
        }
        if entry.value.isEmpty {
          rules.removeAll()
          continue
        }
        do throws(RuleError) {
          rules.append(try parseRule(entry.value, identities: identities))
        } catch {
          throw ConfigError(path: file.path, entry: entry, message: error.message)
        }
      }
    }
    return AccessPolicy(ownerUID: ownerUID, rules: rules)
  }

  private struct RuleError: Error {
    var message: String
  }

  private static func parseRule(_ text: String, identities: some IdentityResolver) throws(RuleError) -> AccessRule {
    let words = text.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
    guard words.count >= 2 else {
      throw RuleError(message: "expected \"PRINCIPAL RIGHTS [scene:PATTERN …]\", e.g. \"user:alice read,write\"")
    }
    let principal = try parsePrincipal(words[0], identities: identities)
    var rights: Set<AccessRight> = []
    for name in words[1].split(separator: ",", omittingEmptySubsequences: false) {
      guard let right = AccessRight(rawValue: String(name)) else {
        throw RuleError(message: "unknown right \"\(name)\"; rights are read, write and admin (comma-separated)")
      }
      rights.insert(right)
    }
    var scenes: [ScenePattern] = []
    for word in words.dropFirst(2) {
      guard word.hasPrefix("scene:") else {
        throw RuleError(message: "unexpected \"\(word)\"; after the rights only scene:PATTERN may follow")
      }
      guard let pattern = ScenePattern(String(word.dropFirst("scene:".count))) else {
        throw RuleError(
          message: "bad scene pattern in \"\(word)\"; use scene name characters [A-Za-z0-9._-] with * and ?")
      }
      scenes.append(pattern)
    }
    if rights.contains(.admin), !scenes.isEmpty {
      throw RuleError(message: "admin is server-wide and takes no scene:; grant it in an entry of its own")
    }
    return AccessRule(principal: principal, rights: rights, scenes: scenes)
  }

  private static func parsePrincipal(_ word: String, identities: some IdentityResolver) throws(RuleError)
    -> AccessRule.Principal
  {
    let parts = word.split(separator: ":", maxSplits: 1).map(String.init)
    guard parts.count == 2, !parts[1].isEmpty else {
      throw RuleError(message: "expected user:NAME, user:UID, group:NAME or group:GID, got \"\(word)\"")
    }
    let name = parts[1]
    switch parts[0] {
    case "user":
      if let uid = UInt32(name) { return .user(uid) }
      guard let uid = identities.uid(ofUser: name) else { throw RuleError(message: "no user named \"\(name)\"") }
      return .user(uid)
    case "group":
      if let gid = UInt32(name) { return .group(gid) }
      guard let gid = identities.gid(ofGroup: name) else { throw RuleError(message: "no group named \"\(name)\"") }
      return .group(gid)
    default:
      throw RuleError(message: "expected user:NAME, user:UID, group:NAME or group:GID, got \"\(word)\"")
    }
  }
}
