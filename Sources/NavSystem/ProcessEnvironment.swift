#if canImport(Glibc)
  import Glibc
#endif

/// The process's environment variables, read from `environ` (what Foundation's
/// `ProcessInfo.processInfo.environment` gives, without linking Foundation).
public enum ProcessEnvironment {
  /// Every `NAME=value` entry; for a name given twice, the first.
  public static var variables: [String: String] {
    var result: [String: String] = [:]
    var entry = environ
    while let pointer = entry.pointee {
      let text = String(cString: pointer)
      if let equals = text.firstIndex(of: "="), result[String(text[..<equals])] == nil {
        result[String(text[..<equals])] = String(text[text.index(after: equals)...])
      }
      entry += 1
    }
    return result
  }
}
