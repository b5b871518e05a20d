#if canImport(Glibc)
  import Glibc
#endif

/// One configuration file in systemd's INI style, as written: sections of
/// `Key=Value` lines, each remembered with its line number so every later
/// complaint (an unknown key, a bad value) can name the file, line and key.
///
/// Syntax: `[Section]` headers; `Key=Value` (spaces around `=` and at both
/// ends are ignored); blank lines and lines starting with `#` or `;` are
/// comments. No line continuation, no quoting: a value is the rest of the line.
/// A key before any section, a header that does not close, or a line with no
/// `=` is an error.
public struct ConfigFile: Sendable, Equatable {
  /// The file the sections were read from, for messages.
  public var path: String
  /// The sections in file order.
  public var sections: [ConfigSection]

  /// A file with these sections.
  public init(path: String, sections: [ConfigSection]) {
    self.path = path
    self.sections = sections
  }

  /// Parses `text`; `path` is only used in error messages.
  public static func parse(_ text: String, path: String) throws(ConfigError) -> ConfigFile {
    var sections: [ConfigSection] = []
    var lineNumber = 0
    for rawLine in text.split(separator: "\n", omittingEmptySubsequences: false) {
      lineNumber += 1
      let line = rawLine.trimmingSpaces
      if line.isEmpty || line.hasPrefix("#") || line.hasPrefix(";") { continue }
      if line.hasPrefix("[") {
        guard line.hasSuffix("]"), line.count > 2 else {
          throw ConfigError(path: path, line: lineNumber, message: "a section header must look like [Name]")
        }
        let name = String(line.dropFirst().dropLast()).trimmingSpaces
        guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }) else {
          throw ConfigError(path: path, line: lineNumber, message: "section name \"\(name)\" is not a plain word")
        }
        sections.append(ConfigSection(name: name, line: lineNumber, entries: []))
        continue
      }
      guard let equals = line.firstIndex(of: "=") else {
        throw ConfigError(path: path, line: lineNumber, message: "expected Key=Value, a [Section] or a # comment")
      }
      let key = String(line[..<equals]).trimmingSpaces
      let value = String(line[line.index(after: equals)...]).trimmingSpaces
      guard !key.isEmpty else { throw ConfigError(path: path, line: lineNumber, message: "the key before = is empty") }
      guard !sections.isEmpty else {
        throw ConfigError(
          path: path, line: lineNumber, key: key, message: "a key must come after a [Section] header")
      }
      sections[sections.count - 1].entries.append(ConfigEntry(key: key, value: value, line: lineNumber))
    }
    return ConfigFile(path: path, sections: sections)
  }

  /// Reads and parses the file at `path`; nil when it does not exist.
  public static func load(_ path: String) throws(ConfigError) -> ConfigFile? {
    guard let text = try readText(path) else { return nil }
    return try parse(text, path: path)
  }

  /// The main file (if it exists) and then every `*.conf` in `dropInDirectory`
  /// in lexical order: later files win, as with systemd's drop-ins.
  public static func loadLayered(main: String, dropInDirectory: String) throws(ConfigError) -> [ConfigFile] {
    var files: [ConfigFile] = []
    if let file = try load(main) { files.append(file) }
    for name in directoryEntries(dropInDirectory).filter({ $0.hasSuffix(".conf") }).sorted() {
      if let file = try load(dropInDirectory + "/" + name) { files.append(file) }
    }
    return files
  }

  /// Every entry of every section called `name`, in file order.
  public func entries(in name: String) -> [ConfigEntry] {
    sections.filter { $0.name == name }.flatMap(\.entries)
  }

  private static func readText(_ path: String) throws(ConfigError) -> String? {
    guard let file = fopen(path, "re") else {
      if errno == ENOENT { return nil }
      throw ConfigError(path: path, line: 0, message: "cannot read: \(String(cString: strerror(errno)))")
    }
    defer { fclose(file) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
      let n = fread(&buffer, 1, buffer.count, file)
      if n > 0 { bytes.append(contentsOf: buffer[0..<n]) }
      if n < buffer.count { break }
      guard bytes.count <= 1 << 20 else {
        throw ConfigError(path: path, line: 0, message: "is larger than 1 MiB; not a configuration file")
      }
    }
    if ferror(file) != 0 { throw ConfigError(path: path, line: 0, message: "read failed") }
    guard let text = String(validating: bytes, as: UTF8.self) else {
      throw ConfigError(path: path, line: 0, message: "is not valid UTF-8")
    }
    return text
  }

  private static func directoryEntries(_ path: String) -> [String] {
    guard let dir = opendir(path) else { return [] }
    defer { closedir(dir) }
    var names: [String] = []
    while let entry = readdir(dir) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
        String(cString: raw.baseAddress!.assumingMemoryBound(to: CChar.self))
      }
      if name != "." && name != ".." { names.append(name) }
    }
    return names
  }
}

/// A `[Name]` section and its entries in file order (a name may repeat).
public struct ConfigSection: Sendable, Equatable {
  /// The name between the brackets.
  public var name: String
  /// The header's line number (1-based).
  public var line: Int
  /// The section's `Key=Value` lines in file order.
  public var entries: [ConfigEntry]

  /// A section.
  public init(name: String, line: Int, entries: [ConfigEntry]) {
    self.name = name
    self.line = line
    self.entries = entries
  }
}

/// One `Key=Value` line.
public struct ConfigEntry: Sendable, Equatable {
  /// The text before `=`, trimmed.
  public var key: String
  /// The rest of the line after `=`, trimmed.
  public var value: String
  /// The line number (1-based).
  public var line: Int

  /// An entry.
  public init(key: String, value: String, line: Int) {
    self.key = key
    self.value = value
    self.line = line
  }
}

/// What is wrong with a configuration file: `path:line: key: message`.
public struct ConfigError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The file the problem is in.
  public var path: String
  /// 0 when the problem is the whole file (unreadable, too large).
  public var line: Int
  /// The key the problem is about, if any.
  public var key: String?
  /// What is wrong, and what to do.
  public var message: String

  /// An error at `path:line` (and `key`).
  public init(path: String, line: Int, key: String? = nil, message: String) {
    self.path = path
    self.line = line
    self.key = key
    self.message = message
  }

  /// An error about `entry` of the file at `path`.
  public init(path: String, entry: ConfigEntry, message: String) {
    self.init(path: path, line: entry.line, key: entry.key, message: message)
  }

  /// `path:line: key: message`.
  public var description: String {
    let place = line > 0 ? "\(path):\(line)" : path
    return key.map { "\(place): \($0): \(message)" } ?? "\(place): \(message)"
  }
}

extension StringProtocol {
  fileprivate var trimmingSpaces: String {
    let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" }
    guard let start = firstIndex(where: { !isSpace($0) }), let end = lastIndex(where: { !isSpace($0) }) else {
      return ""
    }
    return String(self[start...end])
  }
}
