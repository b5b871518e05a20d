import NavWire

extension CommandTable {
  /// The right the Export call needs (its descriptor's).
  private static let exportRight = NavMethod.export.descriptor.right.rawValue

  static let stateDirectoryOption = OptionSpec.value(
    "--state-dir", "DIR",
    "navd's state directory (default: $STATE_DIRECTORY, else $XDG_STATE_HOME/navd, else "
      + "~/.local/state/navd; only this option makes navctl create one)", hint: .file)

  /// export, import: navd's database, read and written directly (not through the socket).
  static let stateCommands: [CommandSpec] = [
    CommandSpec(
      "export", "Print navd's saved scenes as JSON: state, version and epoch of each", group: .state,
      options: [stateDirectoryOption],
      example: "export --state-dir /var/lib/navd",
      synopsis: "[--state-dir DIR] [--scene NAME]",
      notes: [
        "Every scene, or only the one named with --scene. Asks the running navd (the Export call: a consistent "
          + "snapshot of each scene while navd serves; needs the " + exportRight
          + " right on each scene, and exports only the "
          + "readable ones without --scene). With --state-dir, or when navd cannot be reached, reads the database "
          + "instead, whether navd runs or not, and changes no file in the state directory (not even after a "
          + "crash); from a damaged file it prints every scene it can read, names the others on stderr and exits 1. "
          + "Reading the database, navctl shows which scene it reads on a progress line when stderr is a "
          + "terminal (and erases it when done); a pipe or file gets no such line. "
          + "Save it with 'navctl export > navd-backup.json'. The format is Protocol/STORAGE.md, \"Export format\". "
          + "The system service's state is /var/lib/navd (run as root, or as its owner)."
      ],
      build: { args in .exportState(stateDirectory: args.value("--state-dir")) }),
    CommandSpec(
      "import", "Load scenes from an export into the running navd, or into its database", group: .state,
      positionals: [PositionalSpec("FILE", .required, "a file written by navctl export; - for stdin", hint: .file)],
      options: [stateDirectoryOption],
      example: "import --state-dir /var/lib/navd navd-backup.json",
      notes: [
        "Without --state-dir, navctl sends each scene to the running navd (Import, PROTOCOL.md §3; needs the "
          + "admin right): navd checks it, replaces the scene at the file's version in a new epoch, stores it "
          + "and sends its subscribers a snapshot, scene by scene, while it serves. The whole file is checked "
          + "first, and then sent, each time read in 64 KiB pieces one scene at a time: navctl never holds the "
          + "file (stdin that is not a file is first copied to an unlinked temporary file); a scene longer than "
          + "16 MiB of JSON is refused. A scene navd refuses changes nothing (the scenes before it stay imported). When navd "
          + "cannot be reached it writes the default state directory instead, as with --state-dir.",
        "With --state-dir (navd stopped): each scene in FILE replaces the saved scene of the same name (its "
          + "state at its version, in a new epoch; no history before it); other saved scenes stay. All or "
          + "nothing, and read the same way: checked whole first, then written scene by scene in one transaction. Refused while navd runs on the "
          + "state directory: it holds navd.lock. Without --state-dir the default directory must exist "
          + "(navctl never creates a state directory it was not given). Files it creates are mode 0600; "
          + "run as root on a directory owned by another user (the system service's /var/lib/navd, owned by "
          + "navd), it acts as that user, so what it writes belongs to the directory's owner and group.",
      ],
      build: { args in
        let file = args.positional("FILE") ?? "-"
        return .importState(stateDirectory: args.value("--state-dir"), file == "-" ? .standardInput : .file(file))
      }),
  ]
}
