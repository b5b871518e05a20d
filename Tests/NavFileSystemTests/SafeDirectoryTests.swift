import NavFileSystem
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
    _ = try SafeDirectory.open(path, creating: 0o750)
    #expect(mode(path) == 0o750)
    let again = try SafeDirectory.open(path, creating: 0o700)
    #expect(mode(path) == 0o750, "an existing directory keeps its mode")
    #expect(again.path(of: "navd.sock") == "/proc/self/fd/\(again.fd)/navd.sock")
  }

  @Test("group- or world-writable directories are refused, saying who may write")
  func writable() throws {
    for (bits, words) in [(0o777, "its group and others"), (0o702, "others"), (0o770, "its group")] {
      let path = base + "/w\(bits)"
      mkdir(path, 0o700)
      chmod(path, mode_t(bits))
      let expected = SafeDirectoryError.writableByOthers(
        path: path, mode: UInt32(bits), byGroup: bits & 0o020 != 0, byOthers: bits & 0o002 != 0)
      #expect(throws: expected) { try SafeDirectory.open(path, creating: 0o700) }
      #expect(expected.description.contains("writable by \(words) (mode \(String(bits, radix: 8)))"))
    }
  }

  @Test("symbolic links are refused, whoever owns the target")
  func symlinks() throws {
    let own = base + "/own"
    mkdir(own, 0o700)
    let link = base + "/link"
    symlink(own, link)
    #expect(throws: SafeDirectoryError.symbolicLink(path: link, target: own)) {
      try SafeDirectory.open(link, creating: 0o700)
    }
    #expect(SafeDirectoryError.symbolicLink(path: link, target: own).description.contains("is a symbolic link"))
  }

  @Test("a file where the directory should be is refused")
  func notADirectory() throws {
    let path = base + "/file"
    close(creat(path, 0o600))
    #expect(throws: SafeDirectoryError.notADirectory(path: path)) { try SafeDirectory.open(path) }
  }

  @Test("a directory owned by another user is refused", .enabled(if: geteuid() == 0))
  func foreignOwner() throws {
    let path = base + "/foreign"
    mkdir(path, 0o700)
    chown(path, 65534, 65534)
    #expect(throws: SafeDirectoryError.foreignOwner(path: path, owner: 65534, expected: 0)) {
      try SafeDirectory.open(path, creating: 0o700)
    }
  }

  @Test("a root-owned sticky directory (/tmp) is accepted for a non-root owner, not for root")
  func sticky() throws {
    if geteuid() == 0 {
      #expect(throws: SafeDirectoryError.self) { try SafeDirectory.open("/tmp", ownerUID: 0) }
    }
    _ = try SafeDirectory.open("/tmp", ownerUID: 4242)
  }

  @Test("split names the parent and the last component")
  func split() {
    #expect(SafeDirectory.split("/run/navd/navd.sock") == ("/run/navd", "navd.sock"))
    #expect(SafeDirectory.split("navd.sock") == (".", "navd.sock"))
    #expect(SafeDirectory.split("/navd.sock") == ("/", "navd.sock"))
    #expect(SafeDirectory.split("./.navd/") == (".", ".navd"))
  }
}
