import CNavSys
import Foundation
import Glibc

/// What navctl knows of the terminal it writes to.
enum Terminal {
  static var stdoutIsTerminal: Bool { isatty(STDOUT_FILENO) == 1 }

  /// The terminal's width in columns: the tty's, else `$COLUMNS`, else 80.
  static var columns: Int {
    let fromTTY = Int(cnav_terminal_columns(STDOUT_FILENO))
    if fromTTY > 0 { return fromTTY }
    if let fromEnvironment = ProcessInfo.processInfo.environment["COLUMNS"].flatMap(Int.init), fromEnvironment > 0 {
      return fromEnvironment
    }
    return 80
  }

  static func write(_ text: String) {
    guard !text.isEmpty else { return }
    FileHandle.standardOutput.write(Data(text.utf8))
  }

  static func writeError(_ text: String) {
    guard !text.isEmpty else { return }
    FileHandle.standardError.write(Data(text.utf8))
  }
}
