import NavConfig
import Testing

@Suite("Configuration files (systemd-style INI)")
struct ConfigFileTests {
  @Test("sections, keys and values with their line numbers; comments and blanks skipped")
  func parsesSections() throws {
    let text = """
      # navd
      [Server]
      MaxConnections = 10
      ; comment
      SocketMode=0660

      [Access]
      Allow=user:alice read scene:*
      """
    let file = try ConfigFile.parse(text, path: "/etc/navd/navd.conf")
    #expect(file.sections.map(\.name) == ["Server", "Access"])
    #expect(
      file.entries(in: "Server") == [
        ConfigEntry(key: "MaxConnections", value: "10", line: 3),
        ConfigEntry(key: "SocketMode", value: "0660", line: 5),
      ])
    #expect(file.entries(in: "Access").first?.value == "user:alice read scene:*")
  }

  @Test(
    "malformed lines name the file and line",
    arguments: [
      ("[Server\n", 1, "a section header must look like [Name]"),
      ("Key=1\n", 1, "a key must come after a [Section] header"),
      ("[Server]\n\nnonsense\n", 3, "expected Key=Value, a [Section] or a # comment"),
      ("[Server]\n=3\n", 2, "the key before = is empty"),
      ("[Ser ver]\n", 1, "section name \"Ser ver\" is not a plain word"),
    ])
  func rejectsMalformedLines(text: String, line: Int, message: String) {
    #expect(throws: ConfigError(path: "f.conf", line: line, key: text.hasPrefix("Key") ? "Key" : nil, message: message))
    {
      try ConfigFile.parse(text, path: "f.conf")
    }
  }

  @Test("an error prints as path:line: key: message")
  func errorDescription() {
    let error = ConfigError(path: "/etc/navd/navd.conf", line: 4, key: "MaxConnections", message: "not a number")
    #expect(error.description == "/etc/navd/navd.conf:4: MaxConnections: not a number")
  }

  @Test("a missing file is nil; drop-ins load after the main file in lexical order")
  func layering() throws {
    let dir = "/tmp/navd-config-test-\(UInt32.random(in: 0...UInt32.max))"
    #expect(try ConfigFile.load(dir + "/absent.conf") == nil)
    #expect(mkdirAll(dir + "/navd.conf.d"))
    try write(dir + "/navd.conf", "[Server]\nA=1\n")
    try write(dir + "/navd.conf.d/20-b.conf", "[Server]\nA=3\n")
    try write(dir + "/navd.conf.d/10-a.conf", "[Server]\nA=2\n")
    try write(dir + "/navd.conf.d/ignored.txt", "nonsense")
    let files = try ConfigFile.loadLayered(main: dir + "/navd.conf", dropInDirectory: dir + "/navd.conf.d")
    #expect(files.map { $0.entries(in: "Server")[0].value } == ["1", "2", "3"])
    _ = system("rm -rf '\(dir)'")
  }
}

#if canImport(Glibc)
  import Glibc
#endif

private func mkdirAll(_ path: String) -> Bool { system("mkdir -p '\(path)'") == 0 }

private func write(_ path: String, _ text: String) throws {
  guard let f = fopen(path, "w") else { throw ConfigError(path: path, line: 0, message: "cannot write") }
  fputs(text, f)
  fclose(f)
}
