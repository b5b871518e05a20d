#if canImport(Glibc)
  import Glibc
#endif

/// Paths are made absolute once, where they are read (`--state-dir`, `--socket`,
/// `$NAVD_SOCKET`), so every message and every later call names the same file whatever
/// the working directory is by then, and a message can be pasted anywhere.
public enum AbsolutePath {
  /// `path` when it starts with `/`, else `directory/path`; `.` components and repeated or
  /// trailing slashes dropped. `..` is kept: past a symbolic link it is not lexical.
  public static func make(_ path: String, in directory: String) -> String {
    let joined = path.hasPrefix("/") ? path : directory + "/" + path
    let components = joined.split(separator: "/", omittingEmptySubsequences: true).filter { $0 != "." }
    return "/" + components.joined(separator: "/")
  }

  /// `path` made absolute against the working directory; unchanged when the working
  /// directory cannot be read (removed under the process), so the caller's error names it.
  public static func make(_ path: String) -> String {
    guard !path.hasPrefix("/"), let directory = workingDirectory else { return path }
    return make(path, in: directory)
  }

  /// The working directory (`getcwd`); nil when it cannot be read.
  public static var workingDirectory: String? {
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    guard getcwd(&buffer, buffer.count) != nil else { return nil }
    return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }
}
