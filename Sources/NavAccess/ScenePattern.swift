/// A scene name pattern in an `Allow=` entry: `*` matches any run of characters (also
/// none), `?` exactly one, every other character itself. Scene names use only
/// `[A-Za-z0-9._-]` (SEMANTICS R66), so `.` is an ordinary character: `mail.*` matches
/// `mail.inbox` and `mail.`, not `mail`.
public struct ScenePattern: Sendable, Hashable, CustomStringConvertible {
  /// The pattern as written.
  public let text: String
  private let characters: [Character]

  /// Parses `text`; nil when it is empty or holds a character no scene name can have.
  public init?(_ text: String) {
    guard !text.isEmpty, text.count <= 128 else { return nil }
    guard text.allSatisfy({ $0 == "*" || $0 == "?" || Self.isSceneCharacter($0) }) else { return nil }
    self.text = text
    self.characters = Array(text)
  }

  /// Whether the pattern matches every scene name (`*`, `**`, …).
  public var matchesEverything: Bool { characters.allSatisfy { $0 == "*" } }

  /// Whether `scene` matches. Linear-time wildcard matching (no backtracking blow-up).
  public func matches(_ scene: String) -> Bool {
    let name = Array(scene)
    var p = 0
    var s = 0
    var star = -1
    var resume = 0
    while s < name.count {
      if p < characters.count, characters[p] == "?" || characters[p] == name[s] {
        p += 1
        s += 1
      } else if p < characters.count, characters[p] == "*" {
        star = p
        resume = s
        p += 1
      } else if star >= 0 {
        p = star + 1
        resume += 1
        s = resume
      } else {
        return false
      }
    }
    while p < characters.count, characters[p] == "*" { p += 1 }
    return p == characters.count
  }

  /// The pattern as written in the policy.
  public var description: String { text }

  static func isSceneCharacter(_ character: Character) -> Bool {
    guard character.isASCII else { return false }
    return character.isLetter || character.isNumber || character == "." || character == "_" || character == "-"
  }
}
