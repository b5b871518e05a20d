import NavAccess
import NavConfig
import Testing

/// A fixed user/group table so the tests do not depend on /etc/passwd.
struct TableIdentities: IdentityResolver {
  var users: [String: UInt32] = ["alice": 1001, "bob": 1002]
  var groups: [String: UInt32] = ["navd": 900, "mail": 901]
  func uid(ofUser name: String) -> UInt32? { users[name] }
  func gid(ofGroup name: String) -> UInt32? { groups[name] }
}

func policy(_ text: String, owner: UInt32 = 500) throws -> AccessPolicy {
  let file = try ConfigFile.parse(text, path: "navd.conf")
  return try AccessPolicy.load(from: [file], ownerUID: owner, identities: TableIdentities())
}

let alice = AccessPeer(uid: 1001, gid: 1001)
let bob = AccessPeer(uid: 1002, gid: 1002)
let carol = AccessPeer(uid: 1003, gid: 1003, groups: [900])

@Suite("Access policy (PROTOCOL.md § Access)")
struct AccessPolicyTests {
  @Test("default: navd's own uid and root get every right, anyone else none")
  func defaults() throws {
    let empty = try policy("")
    for right in AccessRight.allCases {
      #expect(empty.decide(right: right, scene: "main", peer: AccessPeer(uid: 0, gid: 0)))
      #expect(empty.decide(right: right, scene: "main", peer: AccessPeer(uid: 500, gid: 500)))
      #expect(!empty.decide(right: right, scene: "main", peer: alice))
      #expect(!empty.mayUseSomewhere(right, peer: alice))
    }
  }

  @Test("the worked example: users and groups, names and ids, scene patterns")
  func workedExample() throws {
    let p = try policy(
      """
      [Access]
      Allow=user:alice read,write scene:mail.* scene:main
      Allow=group:navd read
      Allow=user:1002 admin
      """)
    #expect(p.decide(right: .write, scene: "mail.inbox", peer: alice))
    #expect(p.decide(right: .read, scene: "main", peer: alice))
    #expect(!p.decide(right: .read, scene: "mainx", peer: alice))
    #expect(!p.decide(right: .write, scene: "calendar", peer: alice))
    #expect(!p.decide(right: .admin, scene: nil, peer: alice))
    #expect(!p.decide(right: .read, scene: nil, peer: alice), "scene-scoped grants do not cover every scene")
    #expect(p.mayUseSomewhere(.read, peer: alice))
    #expect(p.decide(right: .admin, scene: nil, peer: bob))
    #expect(!p.decide(right: .read, scene: "main", peer: bob), "rights are independent")
    #expect(p.decide(right: .read, scene: "anything", peer: carol), "supplementary group")
    #expect(p.decide(right: .read, scene: nil, peer: AccessPeer(uid: 7, gid: 900)), "primary group")
    #expect(!p.decide(right: .write, scene: "main", peer: carol))
  }

  @Test("scene patterns: * any run, ? one character, everything else literal")
  func patterns() throws {
    let cases: [(String, String, Bool)] = [
      ("mail.*", "mail.inbox", true), ("mail.*", "mail.", true), ("mail.*", "mail", false),
      ("mail.*", "xmail.a", false), ("*", "main", true), ("m?in", "main", true), ("m?in", "mn", false),
      ("*.log", "a.b.log", true), ("*a*b*", "xxaxxbxx", true), ("*a*b*", "xxbxxa", false), ("main", "Main", false),
    ]
    for (pattern, scene, expected) in cases {
      #expect(ScenePattern(pattern)!.matches(scene) == expected, "\(pattern) ~ \(scene)")
    }
    #expect(ScenePattern("") == nil)
    #expect(ScenePattern("a/b") == nil)
  }

  @Test("an empty Allow= drops the entries before it; later files add to earlier ones")
  func dropIns() throws {
    let main = try ConfigFile.parse("[Access]\nAllow=user:alice read\n", path: "navd.conf")
    let dropIn = try ConfigFile.parse("[Access]\nAllow=\nAllow=user:bob write\n", path: "10-x.conf")
    let p = try AccessPolicy.load(from: [main, dropIn], ownerUID: 500, identities: TableIdentities())
    #expect(!p.decide(right: .read, scene: "main", peer: alice))
    #expect(p.decide(right: .write, scene: "main", peer: bob))
  }

  @Test(
    "an invalid entry names the file, line, key and reason",
    arguments: [
      ("Allow=user:alice", "expected \"PRINCIPAL RIGHTS [scene:PATTERN …]\", e.g. \"user:alice read,write\""),
      ("Allow=user:alice read,delete", "unknown right \"delete\"; rights are read, write and admin (comma-separated)"),
      ("Allow=user:nobody-here read", "no user named \"nobody-here\""),
      ("Allow=group:nogroup read", "no group named \"nogroup\""),
      ("Allow=alice read", "expected user:NAME, user:UID, group:NAME or group:GID, got \"alice\""),
      ("Allow=user:alice read mail.*", "unexpected \"mail.*\"; after the rights only scene:PATTERN may follow"),
      (
        "Allow=user:alice read scene:a/b",
        "bad scene pattern in \"scene:a/b\"; use scene name characters [A-Za-z0-9._-] with * and ?"
      ),
      ("Allow=user:alice admin scene:x", "admin is server-wide and takes no scene:; grant it in an entry of its own"),
      ("Deny=user:alice read", "unknown key in [Access]; the only key is Allow="),
    ])
  func invalid(line: String, message: String) throws {
    let key = String(line.prefix(while: { $0 != "=" }))
    #expect(throws: ConfigError(path: "navd.conf", line: 3, key: key, message: message)) {
      try policy("[Access]\nAllow=user:alice read\n\(line)\n")
    }
  }

  @Test("reload swaps the policy; an invalid one is refused and the old one stays")
  func reload() throws {
    let control = AccessControl(ownerUID: 500)
    #expect(!control.policy.decide(right: .read, scene: "main", peer: alice))
    try control.reload(
      from: [try ConfigFile.parse("[Access]\nAllow=user:alice read\n", path: "a.conf")], identities: TableIdentities())
    #expect(control.policy.decide(right: .read, scene: "main", peer: alice))
    #expect(throws: ConfigError.self) {
      try control.reload(
        from: [try ConfigFile.parse("[Access]\nAllow=user:alice fly\n", path: "a.conf")],
        identities: TableIdentities())
    }
    #expect(control.policy.decide(right: .read, scene: "main", peer: alice))
    #expect(control.policy.ownerUID == 500)
  }
}
