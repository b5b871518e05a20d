import CNavSys
import Foundation
import NavCtlKit

/// A progress line on standard error (`ProgressText`), only when standard error is a terminal:
/// a pipe or a file gets nothing of it.
final class ProgressLine {
  private let command: String
  private let enabled = isatty(STDERR_FILENO) == 1
  private var shown = false

  /// A line for `command` (`export`).
  init(command: String) { self.command = command }

  /// Replaces the line with `text`.
  func show(_ text: String) {
    guard enabled else { return }
    let columns = Int(cnav_terminal_columns(STDERR_FILENO))
    Terminal.writeError(ProgressText.line(text, command: command, columns: columns > 0 ? columns : 80))
    shown = true
  }

  /// Erases the line, if one is shown.
  func clear() {
    guard shown else { return }
    Terminal.writeError(ProgressText.erase)
    shown = false
  }
}
