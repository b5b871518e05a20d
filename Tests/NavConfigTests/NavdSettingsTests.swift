import Foundation
import NavConfig
import Testing

@Suite("navd's configuration keys (issue 10, Configuration)")
struct NavdSettingsTests {
  @Test("Configuration: defaults, then files in order (later files win)")
  func layering() throws {
    let main = try ConfigFile.parse("[Server]\nMaxConnections=10\n[Log]\nLevel=debug\n", path: "/etc/navd/navd.conf")
    let dropIn = try ConfigFile.parse("[Server]\nMaxConnections=20\n", path: "/etc/navd/navd.conf.d/10-a.conf")
    var settings = NavdSettings()
    #expect(settings.maxConnections == 4096)
    try settings.apply([main, dropIn])
    #expect(settings.maxConnections == 20)
    #expect(settings.logLevel == "debug")
    #expect(settings.maxScenes == 1024)
  }

  @Test(
    "Configuration: a bad value, an unknown key or section names the file, line and key; nothing is applied",
    arguments: [
      (
        "[Server]\nMaxConnections=10\nMaxFrameBytes=12\n",
        "/x.conf:3: MaxFrameBytes: needs an integer of at least 256, got \"12\""
      ),
      (
        "[Server]\nMaxConections=5\n",
        "/x.conf:2: MaxConections: unknown key in [Server]; known keys: Socket, SocketGroup, MaxConnections, MaxConnectionsPerUID, MaxOutputBytesPerUID, MaxFrameBytes, PartialFrameTimeoutSec, StallTimeoutSec, IdleTimeoutSec, StopTimeoutSec"
      ),
      (
        "[Sever]\nMaxConnections=5\n",
        "/x.conf:1: unknown section [Sever]; navd reads [Access], [Engine], [Log], [Server]"
      ),
      ("[Log]\nLevel=loud\n", "/x.conf:2: Level: needs one of debug, info, notice, warning, error, got \"loud\""),
      (
        "[Server]\nMaxOutputBytesPerUID=1\n",
        "/x.conf:2: MaxOutputBytesPerUID: needs an integer of at least 65536, got \"1\""
      ),
      (
        "[Engine]\nMaxSubscribersPerScene=0\n",
        "/x.conf:2: MaxSubscribersPerScene: needs an integer of at least 1, got \"0\""
      ),
      (
        "[Store]\nDiskBudgetBytes=1048575\n",
        "/x.conf:2: DiskBudgetBytes: needs auto or a number of bytes of at least 1048576 (1 MiB), got \"1048575\""
      ),
      (
        "[Store]\nDiskBudgetBytes=32M\n",
        "/x.conf:2: DiskBudgetBytes: needs auto or a number of bytes of at least 1048576 (1 MiB), got \"32M\""
      ),
    ])
  func errors(text: String, message: String) throws {
    let file = try ConfigFile.parse(text, path: "/x.conf")
    var settings = NavdSettings()
    #expect(throws: (any Error).self) { try settings.apply([file]) }
    do {
      try settings.apply([file])
    } catch {
      #expect(error.description.hasPrefix(message))
    }
    #expect(settings == NavdSettings(), "nothing is applied")
  }

  @Test("Configuration: DiskBudgetBytes takes bytes from 1 MiB up, and auto (the default) back; STORAGE §4")
  func diskBudget() throws {
    var settings = NavdSettings()
    #expect(settings.diskBudgetBytes == nil, "auto by default: sized to the file system")
    try settings.apply([try ConfigFile.parse("[Store]\nDiskBudgetBytes=1048576\n", path: "/a.conf")])
    #expect(settings.diskBudgetBytes == 1 << 20)
    let key = try #require(NavdSettings.key(option: "--disk-budget"))
    #expect(key.qualifiedName == "Store.DiskBudgetBytes")
    #expect(key.current(settings) == "1048576")
    try settings.apply([try ConfigFile.parse("[Store]\nDiskBudgetBytes=auto\n", path: "/b.conf")])
    #expect(settings.diskBudgetBytes == nil, "a later file sets it back to auto")
    #expect(key.current(settings) == "auto")
  }

  @Test("Configuration: [Access] belongs to the access policy and is not judged here")
  func foreignSection() throws {
    let file = try ConfigFile.parse("[Access]\nAnything=goes\n", path: "/x.conf")
    var settings = NavdSettings()
    try settings.apply([file])
    #expect(settings == NavdSettings())
  }

  @Test("Configuration: every key has a unique option and file key, and appears in --help with its default")
  func helpCoversEveryKey() {
    let keys = NavdSettings.keys
    #expect(Set(keys.map(\.option)).count == keys.count)
    #expect(Set(keys.map(\.qualifiedName)).count == keys.count)
    let help = NavdSettings.optionsHelp
    for key in keys {
      #expect(help.contains(key.option), "\(key.option)")
      #expect(help.contains("[\(key.section)] \(key.name)="), "\(key.qualifiedName)")
    }
  }

  @Test("Configuration: navd(8) documents every key with its default")
  func manPage() throws {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
    let man = try String(contentsOf: root.appendingPathComponent("man/navd.8"), encoding: .utf8)
      .replacingOccurrences(of: "\\-", with: "-")
    for key in NavdSettings.keys {
      #expect(man.contains("\\fB\(key.name)=\\fR"), "navd.8 lacks \(key.qualifiedName)")
      #expect(man.contains(key.option), "navd.8 lacks \(key.option)")
    }
  }

  @Test("Configuration: changed keys are listed, reloadable or not")
  func changedKeys() {
    var a = NavdSettings()
    a.logLevel = "debug"
    a.maxScenes = 3
    #expect(a.changedKeys(comparedTo: NavdSettings()).map(\.qualifiedName) == ["Engine.MaxScenes", "Log.Level"])
  }
}

@Suite("The shipped configuration file (issue 10, Units)")
struct DefaultConfigurationFileTests {
  @Test("Configuration: systemd/navd.conf shows every key, commented out, with its default, and parses")
  func defaultFile() throws {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
    let path = root.appendingPathComponent("systemd/navd.conf").path
    let text = try String(contentsOfFile: path, encoding: .utf8)
    for key in NavdSettings.keys {
      let line = "#\(key.name)=\(key.current(NavdSettings()))"
      #expect(text.contains("[\(key.section)]") && text.contains(line), "navd.conf lacks \(line)")
    }
    var settings = NavdSettings()
    try settings.apply([try #require(try ConfigFile.load(path))])
    #expect(settings == NavdSettings())
  }
}
