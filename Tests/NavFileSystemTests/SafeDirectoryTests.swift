import NavFileSystem
import NavSystem
import Testing

#if canImport(Glibc)
  import Glibc
#endif

@Suite("Safe directories (PROTOCOL.md § Access, directories)", .serialized)
struct SafeDirectoryTests {
  let base: String = {
    var template = Array("/tmp/navd-safe-XXXXXX".utf8CString)
    return String(cString: mkdtemp(&template)!)
  }()

  func mode(_ path: String) -> UInt32 {
    var info = stat()
    _ = lstat(path, &info)
    return UInt32(info.st_mode) & 0o7777
  }

  @Test("a missing directory is created with the exact mode; an existing safe one is accepted")
  func createsAndAccepts() throws {
    let umaskBefore = umask(0o077)
    defer { umask(umaskBefore) }
    let path = base + "/navd"
    _ = try SafeDirectory.open(path, for: .socket, creating: 0o750)
    #expect(mode(path) == 0o750)
    let again = try SafeDirectory.open(path, for: .socket, creating: 0o700)
    #expect(mode(path) == 0o750, "an existing directory keeps its mode")
    #expect(again.path(of: "navd.sock") == "/proc/self/fd/\(again.fd)/navd.sock")
  }

  @Test("group- or world-writable directories are refused, saying who may write, the mode and the owner")
  func writable() throws {
    for (bits, words) in [(0o777, "its group and others"), (0o702, "others"), (0o770, "its group")] {
      let path = base + "/w\(bits)"
      mkdir(path, 0o700)
      chmod(path, mode_t(bits))
      let expected = SafeDirectoryError.writableByOthers(
        path: path, mode: UInt32(bits), owner: geteuid(), navdUID: geteuid(), use: .socket)
      #expect(throws: expected) { try SafeDirectory.open(path, for: .socket, creating: 0o700) }
      let owner = Accounts.userName(geteuid()) ?? "uid \(geteuid())"
      #expect(expected.description.contains("writable by \(words) (mode \(String(bits, radix: 8)), owner \(owner))"))
    }
  }

  @Test("a refused directory of navd's own user may be chmod go-w'd; a system one is never to be changed")
  func advice() {
    let socketAlternative = "give navd another socket path: --socket PATH (or NAVD_SOCKET"
    let stateAlternative = "give navd another state directory: --state-dir DIR"
    // (path, mode, owner, navd's uid, use, whether chmod is advised, the alternative)
    let cases: [(String, UInt32, UInt32, UInt32, DirectoryUse, Bool, String)] = [
      (
        "/tmp", 0o1777, 0, 0, .socket, false,
        socketAlternative + ", or Socket= in navd.conf's [Server]) in a "
          + "directory only navd's user can write, such as /run/navd"
      ),
      ("/var/tmp", 0o1777, 0, 0, .state, false, stateAlternative),
      ("/dev/shm", 0o1777, 0, 0, .socket, false, socketAlternative),
      ("/home/al/shared", 0o1777, 1000, 1000, .socket, false, socketAlternative),
      ("/var/mail", 0o2775, 0, 1000, .state, false, stateAlternative + " (or StateDirectory= in navd.conf's [Store])"),
      ("/var/local", 0o2775, 0, 0, .state, false, stateAlternative),
      ("/srv/apps/navd", 0o775, 0, 1000, .socket, false, "such as $XDG_RUNTIME_DIR/navd"),
      ("/home/al/navd", 0o770, 1000, 1000, .socket, true, socketAlternative),
      ("/home/al/state", 0o777, 1000, 1000, .state, true, "such as ~/.local/state/navd"),
      ("/var/lib/navd", 0o775, 0, 0, .state, true, "such as /var/lib/navd"),
      ("/tmp/navd-state", 0o777, 0, 0, .state, true, stateAlternative),
    ]
    for (path, mode, owner, navdUID, use, chmod, alternative) in cases {
      let text = SafeDirectoryError.writableByOthers(path: path, mode: mode, owner: owner, navdUID: navdUID, use: use)
        .description
      #expect(text.hasPrefix("\(path) is writable by"), "\(text)")
      #expect(text.contains("(mode \(String(mode, radix: 8)), owner "), "\(text)")
      #expect(text.contains(use == .socket ? "replace navd's socket there" : "replace navd's database"), "\(text)")
      #expect(text.contains("chmod") == chmod, "\(path): \(text)")
      #expect(text.contains("not one to change") == !chmod, "\(path): \(text)")
      #expect(text.contains(alternative), "\(path): \(text)")
    }
  }

  @Test("symbolic links are refused, whoever owns the target")
  func symlinks() throws {
    let own = base + "/own"
    mkdir(own, 0o700)
    let link = base + "/link"
    symlink(own, link)
    #expect(throws: SafeDirectoryError.symbolicLink(path: link, target: own)) {
      try SafeDirectory.open(link, for: .socket, creating: 0o700)
    }
    #expect(SafeDirectoryError.symbolicLink(path: link, target: own).description.contains("is a symbolic link"))
  }

  @Test("a file where the directory should be is refused")
  func notADirectory() throws {
    let path = base + "/file"
    close(creat(path, 0o600))
    #expect(throws: SafeDirectoryError.notADirectory(path: path)) { try SafeDirectory.open(path, for: .state) }
  }

  @Test("a directory owned by another user is refused", .enabled(if: geteuid() == 0))
  func foreignOwner() throws {
    let path = base + "/foreign"
    mkdir(path, 0o700)
    chown(path, 65534, 65534)
    let expected = SafeDirectoryError.foreignOwner(path: path, owner: 65534, expected: 0, use: .state)
    #expect(throws: expected) { try SafeDirectory.open(path, for: .state, creating: 0o700) }
    #expect(expected.description.contains("is owned by uid 65534, not by navd's uid 0 or root: that user"))
    #expect(expected.description.contains("could replace navd's database and redo log there; give navd another"))
    #expect(!expected.description.contains("remove the directory"))
  }

  @Test("a root-owned sticky directory (/tmp) is accepted for a non-root owner, not for root")
  func sticky() throws {
    if geteuid() == 0 {
      #expect(throws: SafeDirectoryError.self) { try SafeDirectory.open("/tmp", for: .socket, ownerUID: 0) }
    }
    _ = try SafeDirectory.open("/tmp", for: .socket, ownerUID: 4242)
  }

  @Test("split names the parent and the last component")
  func split() {
    #expect(SafeDirectory.split("/run/navd/navd.sock") == ("/run/navd", "navd.sock"))
    #expect(SafeDirectory.split("navd.sock") == (".", "navd.sock"))
    #expect(SafeDirectory.split("/navd.sock") == ("/", "navd.sock"))
    #expect(SafeDirectory.split("./.navd/") == (".", ".navd"))
  }
}
