import Foundation

/// navctl(1) in roff, generated from `CommandTable` (the repo's `man/navctl.1` is this output;
/// a test keeps them equal).
public enum ManPage {
  /// The whole page; `version` goes in the footer.
  public static func navctl(version: String) -> String {
    var out = ".\\\" Generated from navctl's command table (Sources/NavCtlKit); do not edit.\n"
    out += ".\\\" Regenerate: NAVD_UPDATE_GOLDEN=1 swift test --filter NavCtlKitTests\n"
    out += ".TH NAVCTL 1 \"\" \"navd \(version)\" \"User Commands\"\n"
    out += ".SH NAME\nnavctl \\- drive and watch navd, the navigation bar and toolbar service\n"
    out += ".SH SYNOPSIS\n.B navctl\n[\\fIOPTIONS\\fR] \\fICOMMAND\\fR [\\fIARGS\\fR]...\n"
    out += ".SH DESCRIPTION\n"
    out += paragraph(
      "navctl is the command line of navd, the service that owns the navigation bar and toolbar of one or more scenes: a stack of navigation items (screens), each with a title, prompt, title view, back button and left and right bar button items, plus a toolbar. Several programs share one scene: some change it, some draw it. navctl does both: every change the protocol offers has a command, and show and watch draw the bars in the terminal."
    )
    out += ".PP\n"
    out += paragraph(
      "Items are named by id: letters, digits, '.', '_' and '-', starting with a letter or digit, at most 64 characters. Navigation items and bar button items are separate namespaces. A command that makes up an id (push without --id, item without ID) prints it on standard output."
    )
    out += ".PP\n"
    out += paragraph(
      "Commands that change a navigation item act on the top item unless given --item ID. Every change is one atomic mutation; navd answers once it is stored and sent to every subscriber."
    )
    out += ".SH GLOBAL OPTIONS\nThese may come before or after the command.\n"
    for option in GlobalOptions.specs { out += optionEntry(option) }
    out += ".SH COMMANDS\n"
    for group in CommandGroup.allCases {
      let specs = CommandTable.visible.filter { $0.group == group }
      guard !specs.isEmpty else { continue }
      out += ".SS \"\(escape(group.rawValue))\"\n"
      for spec in specs { out += commandEntry(spec) }
    }
    out += ".SH EXIT STATUS\n"
    for status in HelpFormatter.exitStatuses {
      out += ".TP\n.B \(status.code.rawValue)\n\(escape(status.meaning))\n"
    }
    out += ".SH ENVIRONMENT\n"
    for variable in HelpFormatter.environment {
      out += ".TP\n.B \(variable.name)\n\(escape(variable.meaning))\n"
    }
    out += ".TP\n.B XDG_RUNTIME_DIR\n"
    out +=
      escape(
        "navd's default socket is $XDG_RUNTIME_DIR/navd/navd.sock; without it, the system service's "
          + "/run/navd/navd.sock.") + "\n"
    out += ".TP\n.BR STATE_DIRECTORY \", \" XDG_STATE_HOME \", \" HOME\n"
    out +=
      escape(
        "export and import without --state-dir: $STATE_DIRECTORY, else $XDG_STATE_HOME/navd, else "
          + "$HOME/.local/state/navd, as navd resolves it (Protocol/STORAGE.md §1).") + "\n"
    out += ".SH EXAMPLES\n"
    out += paragraph(
      "Build the bar of a mail app: an Inbox with Edit on the left and Compose on the right, a toolbar with Refresh, a flexible space and Trash; push a message screen, whose back button says \"Inbox\"; watch it change live from a second terminal."
    )
    out += ".PP\n.nf\n.RS\n"
    for step in HelpFormatter.walkthrough {
      out += escape("navctl \(step.command)" + (step.comment.map { "    # \($0)" } ?? "")) + "\n"
    }
    out += ".RE\n.fi\n.PP\nScripts can capture generated ids and guard against concurrent changes:\n.PP\n.nf\n.RS\n"
    out += escape("id=$(navctl push 'Drafts')            # prints drafts (or drafts-2 when taken)") + "\n"
    out += escape("navctl pop --expect \"$id\"             # exit 4 if someone else pushed meanwhile") + "\n"
    out += escape("navctl --json watch | jq -c .kind        # one line per update, as it happens") + "\n"
    out += ".RE\n.fi\n"
    // Debian 12 has no varlinkctl (systemd 254+): name the Varlink client it does have.
    out += ".SH SEE ALSO\n.BR navd (8);\n"
    out += "the protocol, \\fI/usr/share/doc/navd/PROTOCOL.md\\fR (Protocol/ in the source);\n"
    out += "any Varlink client, e.g. \\fBpython3 \\-m varlink.cli\\fR (python3\\-varlink).\n"
    return out
  }

  static func commandEntry(_ spec: CommandSpec) -> String {
    var out = ".TP\n.B \(escape(spec.synopsis))\n\(escape(spec.summary)).\n"
    guard !spec.positionals.isEmpty || !spec.options.isEmpty || !spec.notes.isEmpty else {
      return out + ".RS\n.PP\nExample:\n.B navctl \(escape(spec.example))\n.RE\n"
    }
    out += ".RS\n"
    for positional in spec.positionals {
      out += ".TP\n.I \(escape(positional.name))\n\(escape(positional.help))\n"
    }
    for option in spec.options { out += optionEntry(option) }
    for note in spec.notes { out += ".PP\n" + paragraph(note) }
    out += ".PP\nExample:\n.B navctl \(escape(spec.example))\n.RE\n"
    return out
  }

  static func optionEntry(_ option: OptionSpec) -> String {
    var label = "\\fB\(escape(option.name))\\fR"
    if let short = option.shortName { label = "\\fB\(escape(short))\\fR, " + label }
    if option.kind != .flag { label += " \\fI\(escape(option.valueName))\\fR" }
    if option.kind == .repeated { label += " (repeatable)" }
    return ".TP\n\(label)\n\(escape(option.help))\n"
  }

  static func paragraph(_ text: String) -> String { escape(text) + "\n" }

  /// Text made literal for roff: backslashes and hyphens escaped, no line starting with a control character.
  public static func escape(_ text: String) -> String {
    var out = text.replacingOccurrences(of: "\\", with: "\\e").replacingOccurrences(of: "-", with: "\\-")
    if out.hasPrefix(".") || out.hasPrefix("'") { out = "\\&" + out }
    return out
  }
}
