import Foundation
import NavCtlKit
import Testing

/// Completion scripts and man/navctl.1 are generated from the command table; these tests keep them true.
@Suite("Completion scripts and man pages")
struct GeneratedDocsTests {
  /// Runs `script` in bash; returns stdout (stderr folded in when the status is not 0).
  static func bash(_ script: String) throws -> (status: Int32, output: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/bash")
    process.arguments = ["-c", script]
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
  }

  static var hasBash: Bool { FileManager.default.isExecutableFile(atPath: "/bin/bash") }

  @Test("every script names every visible command and option", arguments: Shell.allCases)
  func scriptsAreComplete(_ shell: Shell) {
    let script = CompletionScript.script(for: shell)
    for spec in CommandTable.visible {
      for word in spec.name.split(separator: " ") { #expect(script.contains(String(word)), "\(shell) lacks \(word)") }
      for option in spec.options {
        #expect(script.contains(String(option.name.dropFirst(2))), "\(shell) lacks \(option.name) of \(spec.name)")
      }
    }
  }

  @Test(
    "the bash script is valid bash and completes commands, subcommands, options, choices and live ids",
    .enabled(if: hasBash))
  func bashCompletes() throws {
    let script = CompletionScript.script(for: .bash)
    let file = FileManager.default.temporaryDirectory.appendingPathComponent(
      "navctl-completion-\(UUID().uuidString).bash")
    try script.write(to: file, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(at: file) }
    let syntax = try Self.bash("bash -n '\(file.path)'")
    #expect(syntax.status == 0, "\(syntax.output)")
    func complete(_ words: [String]) throws -> String {
      let array = words.map { "'\($0)'" }.joined(separator: " ")
      let result = try Self.bash(
        """
        source '\(file.path)'
        navctl() { if [ "$*" = "--scene side __ids bar" ]; then echo compose; echo edit; else echo inbox; fi; }
        COMP_WORDS=(\(array)); COMP_CWORD=\(words.count - 1); _navctl
        echo "${COMPREPLY[*]}"
        """)
      #expect(result.status == 0, "\(result.output)")
      return result.output.trimmingCharacters(in: .whitespacesAndNewlines)
    }
    #expect(try complete(["navctl", "pu"]) == "push")
    #expect(try complete(["navctl", "--json", "tool"]) == "toolbar")
    #expect(try complete(["navctl", "left", "s"]) == "set")
    #expect(try complete(["navctl", "push", "Inbox", "--ani"]) == "--animated")
    #expect(try complete(["navctl", "item", "x", "--style", ""]) == "plain bordered done")
    #expect(try complete(["navctl", "appearance", "toolbar", "--style", "b"]) == "black")
    #expect(try complete(["navctl", "--scene", "side", "left", "set", ""]) == "compose edit")
    #expect(try complete(["navctl", "--scene", "side", "left", "set", "edit", "e"]) == "edit")
    #expect(try complete(["navctl", "pop-to", ""]) == "inbox")
    #expect(try complete(["navctl", "completion", "z"]) == "zsh")
    #expect(try complete(["navctl", "supplement-back", ""]) == "on off")
  }

  /// Writes the script for `shell` to a temporary file and returns its path.
  static func scriptFile(_ shell: Shell) throws -> URL {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent(
      "navctl-\(UUID().uuidString).\(shell.rawValue)")
    try CompletionScript.script(for: shell).write(to: file, atomically: true, encoding: .utf8)
    return file
  }

  static func installed(_ program: String) -> Bool {
    FileManager.default.isExecutableFile(atPath: "/usr/bin/\(program)")
  }

  @Test("the zsh and fish scripts parse", arguments: [Shell.zsh, .fish])
  func otherShellsParse(_ shell: Shell) throws {
    guard Self.installed(shell.rawValue) else { return }
    let file = try Self.scriptFile(shell)
    defer { try? FileManager.default.removeItem(at: file) }
    let result = try Self.bash("\(shell.rawValue) -n '\(file.path)' 2>&1")
    #expect(result.status == 0 && result.output.isEmpty, "\(result.output)")
  }

  @Test("the fish script completes commands, subcommands, choices and live ids", .enabled(if: installed("fish")))
  func fishCompletes() throws {
    let file = try Self.scriptFile(.fish)
    defer { try? FileManager.default.removeItem(at: file) }
    func complete(_ line: String) throws -> String {
      let result = try Self.bash(
        """
        fish -c 'function navctl; echo compose; echo edit; end; source \(file.path); complete -C "\(line)"' | cut -f1 | sort | tr '\\n' ' '
        """)
      return result.output.trimmingCharacters(in: .whitespacesAndNewlines)
    }
    #expect(try complete("navctl pu") == "push")
    #expect(try complete("navctl left s") == "set")
    #expect(try complete("navctl item x --style ") == "bordered done plain")
    #expect(try complete("navctl left set ") == "compose edit")
  }

  @Test("man/navctl.1 is the page generated from the command table")
  func manPageIsCurrent() throws {
    let page = ManPage.navctl(version: "0.1.0")
    try Golden.check(page, file: Golden.repository.appendingPathComponent("man/navctl.1"))
    for spec in CommandTable.visible { #expect(page.contains(ManPage.escape(spec.name))) }
    for code in ExitCode.allCases { #expect(page.contains(".B \(code.rawValue)\n")) }
    #expect(page.contains("NAVD\\_SOCKET") || page.contains("NAVD_SOCKET"))
    #expect(page.contains("NO_COLOR"))
  }

  @Test(
    "both man pages format without warnings",
    .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/groff")))
  func manPagesFormat() throws {
    for page in ["man/navctl.1", "man/navd.8"] {
      let path = Golden.repository.appendingPathComponent(page).path
      #expect(FileManager.default.fileExists(atPath: path), "\(page) is missing")
      let result = try Self.bash("groff -man -Tutf8 -ww -z '\(path)' 2>&1")
      #expect(result.status == 0 && result.output.isEmpty, "\(page): \(result.output)")
    }
  }
}
