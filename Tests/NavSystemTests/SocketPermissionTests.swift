import Testing

@testable import NavSystem

/// A machine of files and accounts for `SocketPermission.diagnose`: `/run/navd/navd.sock` of
/// the system service (root:navd 0660 in root:root 0755 directories), changed per case.
struct FakeMachine {
  var files: [String: SocketPermission.FileStatus] = [
    "/": .init(uid: 0, gid: 0, mode: 0o755),
    "/run": .init(uid: 0, gid: 0, mode: 0o755),
    "/run/navd": .init(uid: 0, gid: 0, mode: 0o755),
    "/run/navd/navd.sock": .init(uid: 0, gid: 990, mode: 0o660),
  ]
  /// The caller: alice (uid 1000, group 1000), no other groups.
  var uid: UInt32 = 1000
  var groups: [UInt32] = [1000]
  /// (uid, gid) pairs the group database lists.
  var databaseMembers: Set<[UInt32]> = []

  var system: SocketPermission.System {
    let files = files
    let members = databaseMembers
    return SocketPermission.System(
      status: { files[$0] }, uid: uid, groups: groups,
      userName: { [0: "root", 990: "navd", 1000: "alice", 1001: "bob"][$0] },
      groupName: { [0: "root", 990: "navd", 1000: "alice", 1001: "bob"][$0] },
      isMember: { members.contains([$0, $1]) })
  }

  func diagnose(_ path: String = "/run/navd/navd.sock") -> SocketPermission.Diagnosis {
    SocketPermission.diagnose(path, system: system)
  }
}

@Suite("Why a connect was refused with EACCES: the socket's owner, group and mode, and the group to join")
struct SocketPermissionTests {
  let start = "permission denied connecting to /run/navd/navd.sock"

  @Test("the system socket, a user outside its group: join group navd and log in again")
  func notInGroup() {
    let diagnosis = FakeMachine().diagnose()
    #expect(diagnosis.problem == "\(start) (owner root, group navd, mode 0660): you are not in its group navd")
    #expect(diagnosis.remedy == "add yourself to group navd (`sudo adduser $USER navd`) and log in again")
    #expect(diagnosis.description == diagnosis.problem + ": " + diagnosis.remedy)
  }

  @Test("in group navd by the database but not in this login's groups: log in again")
  func addedAfterLogin() {
    var machine = FakeMachine()
    machine.databaseMembers = [[1000, 990]]
    #expect(
      machine.diagnose().remedy
        == "you are in group navd in the group database, but this login began before you were added: "
        + "log in again (or run `newgrp navd`)")
  }

  @Test("mode 0600: only its owner can connect, said for an outsider and for a member of its group")
  func ownerOnly() {
    var machine = FakeMachine()
    machine.files["/run/navd/navd.sock"] = .init(uid: 1001, gid: 990, mode: 0o600)
    let outsider = machine.diagnose()
    #expect(
      outsider.problem
        == "\(start) (owner bob, group navd, mode 0600): only its owner bob can connect "
        + "(neither its group nor others may write it)")
    #expect(outsider.remedy.hasPrefix("connect as bob, or ask navd's administrator to share the socket with a group"))
    #expect(outsider.remedy.contains("navd --socket-group GROUP") && outsider.remedy.contains("SocketMode=0660"))
    #expect(!outsider.remedy.contains("adduser"), "joining the group would not help")
    machine.groups = [1000, 990]
    #expect(
      machine.diagnose().problem.hasSuffix("only its owner bob can connect (its group navd has no write permission)"))
  }

  @Test("a directory on the way that may not be searched is named, with its owner, group and mode")
  func directoryNotSearchable() {
    var machine = FakeMachine()
    machine.files["/run/navd"] = .init(uid: 990, gid: 990, mode: 0o750)
    let diagnosis = machine.diagnose()
    #expect(
      diagnosis.problem
        == "\(start): the directory /run/navd (owner navd, group navd, mode 0750) does not let you search it")
    #expect(diagnosis.remedy == "add yourself to group navd (`sudo adduser $USER navd`) and log in again")
    machine.files["/run/navd"] = .init(uid: 990, gid: 990, mode: 0o700)
    #expect(machine.diagnose().remedy.hasPrefix("only its owner navd (or root) can reach the socket in it"))
    machine.files["/run"] = .init(uid: 0, gid: 0, mode: 0o700)
    #expect(machine.diagnose().problem.contains("the directory /run (owner root, group root, mode 0700)"), "the first")
  }

  @Test("its own owner without write permission; a mode that admits the caller (an ACL or a security module)")
  func otherCauses() {
    var machine = FakeMachine()
    machine.files["/run/navd/navd.sock"] = .init(uid: 1000, gid: 1000, mode: 0o400)
    #expect(
      machine.diagnose().problem.hasSuffix("its mode gives its owner no write permission, which connecting needs"))
    machine.files["/run/navd/navd.sock"] = .init(uid: 0, gid: 990, mode: 0o666)
    let admitted = machine.diagnose()
    #expect(admitted.problem.contains("its mode lets you connect, so an access control list or a security module"))
    #expect(admitted.remedy == "see getfacl /run/navd/navd.sock and the system's security log")
  }

  @Test("names missing from the databases are shown as numbers; a socket that cannot be read is said plainly")
  func fallbacks() {
    var machine = FakeMachine()
    machine.files["/run/navd/navd.sock"] = .init(uid: 4242, gid: 4343, mode: 0o660)
    #expect(
      machine.diagnose().problem.contains(
        "(owner uid 4242, group gid 4343, mode 0660): you are not in its group gid 4343"))
    machine.files["/run/navd/navd.sock"] = nil
    #expect(
      machine.diagnose()
        == SocketPermission.Diagnosis(problem: start, remedy: "the socket's mode or group does not admit this user"))
  }

  @Test("the directories connect searches: / and every prefix of the path's directory")
  func directories() {
    #expect(SocketPermission.directoriesAbove("/run/navd/navd.sock") == ["/", "/run", "/run/navd"])
    #expect(SocketPermission.directoriesAbove("/navd.sock") == ["/"])
  }
}
