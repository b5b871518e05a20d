import NavAccess
import NavConfig
import NavServer

#if canImport(Glibc)
  import Glibc
#endif

// The access policy's wiring: the [Access] sections of the configuration files (or of
// `--policy FILE` alone), loaded at start and again on SIGHUP (Daemon.reload).

/// The policy navd starts with: from `files` (an invalid policy stops navd with file,
/// line and reason); without any Allow= the default (navd's own uid and root).
func makeAccessControl(files: [ConfigFile]) throws(ConfigError) -> AccessControl {
  let control = AccessControl(ownerUID: geteuid())
  try control.reload(from: files)
  return control
}

/// The files the access policy comes from: `--policy FILE` alone when given (it must
/// exist), else the configuration files.
func policyFiles(_ arguments: Arguments, configuration: [ConfigFile]) throws(ConfigError) -> [ConfigFile] {
  guard let path = arguments.policyPath else { return configuration }
  guard let file = try ConfigFile.load(path) else {
    throw ConfigError(path: path, line: 0, message: "no such file")
  }
  return [file]
}

/// The gid `[Server] SocketGroup=` names (a number is taken as a gid), or nil without it.
func socketGroup(_ name: String?) throws(StartupError) -> UInt32? {
  guard let name else { return nil }
  if let gid = UInt32(name) { return gid }
  guard let gid = SystemIdentities().gid(ofGroup: name) else {
    throw StartupError("SocketGroup=/--socket-group: no group named \"\(name)\"")
  }
  return gid
}
