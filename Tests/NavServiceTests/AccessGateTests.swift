import NavAccess
import NavConfig
import NavEngine
import NavModel
import NavServer
import NavService
import Testing
import Varlink

#if canImport(Glibc)
  import Glibc
#endif

@Suite("io.navd access checks at dispatch (PROTOCOL.md §10)")
struct AccessGateTests {
  static let alice = PeerCredentials(pid: 7, uid: 1001, gid: 1001)
  static let stranger = PeerCredentials(pid: 8, uid: 1003, gid: 1003)
  static let pushRoot: JSONValue = ["op": "push", "item": ["id": "root", "title": "R"]]

  let service: NavdService

  init() throws {
    let policy = AccessPolicy(
      ownerUID: getuid(),
      rules: [AccessRule(principal: .user(1001), rights: [.read, .write], scenes: [ScenePattern("mail.*")!])])
    service = NavdService(engine: Engine(), access: AccessControl(policy: policy))
  }

  @Test("a granted write creates the scene; an ungranted one is PermissionDenied naming the right and scene")
  func write() async {
    let (_, allowed) = await call(service, "Mutate", ["scene": "mail.a", "ops": [Self.pushRoot]], peer: Self.alice)
    guard case .reply = allowed else { return #expect(Bool(false), "\(allowed)") }
    let (_, denied) = await call(service, "Mutate", ["scene": "main", "ops": [Self.pushRoot]], peer: Self.alice)
    #expect(
      denied
        == .error(
          "org.varlink.service.PermissionDenied",
          [
            "right": "write", "scene": "main",
            "message":
              "the write right on scene main is not granted to uid 1001 (gid 1001); see navd(8), ACCESS POLICY",
          ]))
  }

  @Test("a denied read looks the same for a missing and an existing scene")
  func deniedReadRevealsNothing() async {
    _ = await call(service, "Mutate", ["scene": "mail.a", "ops": [Self.pushRoot]])
    let (_, existing) = await call(service, "GetState", ["scene": "mail.a"], peer: Self.stranger)
    let (_, missing) = await call(service, "GetState", ["scene": "mail.b"], peer: Self.stranger)
    guard case .error(let name, let parameters) = existing, case .error(let otherName, let other) = missing else {
      return #expect(Bool(false), "\(existing) \(missing)")
    }
    #expect(name == "org.varlink.service.PermissionDenied" && otherName == name)
    let masked = { (value: JSONValue, scene: String) in
      JSONWriter.string(value).replacingOccurrences(of: scene, with: "SCENE")
    }
    #expect(masked(parameters, "mail.a") == masked(other, "mail.b"))
  }

  @Test("§9.21 waiting for a scene needs the read right on it, like any Subscribe")
  func waitingNeedsRead() async throws {
    let (granted, allowed) = await call(
      service, "Subscribe", ["scene": "mail.later", "waitForScene": true], more: true, peer: Self.alice)
    #expect(allowed == .streaming)
    #expect(try granted.pullStream().first?["version"] == 0)
    granted.cancelStream()
    let (_, denied) = await call(
      service, "Subscribe", ["scene": "main.later", "waitForScene": true], more: true, peer: Self.alice)
    guard case .error(let name, let parameters) = denied else { return #expect(Bool(false), "\(denied)") }
    #expect(name == "org.varlink.service.PermissionDenied" && parameters["right"] == "read")
    #expect(service.engine.waitedScenes.isEmpty)
  }

  @Test("ListScenes lists only readable scenes; with no read anywhere it is denied")
  func listScenes() async {
    _ = await call(service, "Mutate", ["scene": "mail.a", "ops": [Self.pushRoot]])
    let (_, list) = await call(service, "ListScenes", peer: Self.alice)
    guard case .reply(let reply) = list else { return #expect(Bool(false), "\(list)") }
    #expect(reply["scenes"]?.arrayValue?.compactMap { $0["name"]?.stringValue } == ["mail.a"])
    let (_, denied) = await call(service, "ListScenes", peer: Self.stranger)
    guard case .error(let name, _) = denied else { return #expect(Bool(false), "\(denied)") }
    #expect(name == "org.varlink.service.PermissionDenied")
  }

  @Test("navd's own uid and root pass on any scene, and a call without a usable scene then fails its parameter check")
  func trustedPeers() async {
    let peers = [PeerCredentials(pid: 9, uid: getuid(), gid: getgid()), PeerCredentials(pid: 10, uid: 0, gid: 0)]
    for (index, peer) in peers.enumerated() {
      let (_, written) = await call(
        service, "Mutate", ["scene": .string("secret.\(index)"), "ops": [Self.pushRoot]], peer: peer)
      guard case .reply = written else { return #expect(Bool(false), "uid \(peer.uid): \(written)") }
      let (_, missing) = await call(service, "GetState", ["scene": 7], peer: peer)
      #expect(missing == .error("org.varlink.service.InvalidParameter", ["parameter": "scene"]), "uid \(peer.uid)")
    }
  }

  @Test("a call without a usable scene needs the right somewhere, then fails its parameter check")
  func missingScene() async {
    let (_, granted) = await call(service, "GetState", [:], peer: Self.alice)
    #expect(granted == .error("org.varlink.service.InvalidParameter", ["parameter": "scene"]))
    let (_, denied) = await call(service, "GetState", [:], peer: Self.stranger)
    guard case .error(let name, _) = denied else { return #expect(Bool(false), "\(denied)") }
    #expect(name == "org.varlink.service.PermissionDenied")
  }
}
