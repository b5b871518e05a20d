import Dispatch
import NavAccess
import NavConfig
import NavServer

#if canImport(Glibc)
  import Glibc
#endif

// The access policy's wiring: load it at start, re-read it on SIGHUP. systemd's
// configuration loader calls `AccessControl.reload(from:)` with navd.conf and its
// drop-ins the same way; `--policy FILE` reads one file with the same [Access] section.

/// The policy navd starts with: `--policy FILE` when given (a missing or invalid file
/// stops navd with file, line and reason), else the default (navd's own uid and root).
func makeAccessControl(_ arguments: Arguments) throws(ConfigError) -> AccessControl {
  let control = AccessControl(ownerUID: geteuid())
  if let path = arguments.policyPath { try control.reload(from: try policyFiles(path)) }
  return control
}

/// Re-reads `--policy FILE` on SIGHUP; an invalid file is refused (logged with file,
/// line and reason) and the policy in force stays. Nil without `--policy`.
func watchPolicyReloads(_ control: AccessControl, _ arguments: Arguments, log: Log) -> SignalWatcher? {
  guard let path = arguments.policyPath else { return nil }
  return SignalWatcher(signals: [SIGHUP]) { _ in
    do {
      let policy = try control.reload(from: try policyFiles(path))
      log.notice("access policy reloaded", [("file", path), ("rules", String(policy.rules.count))])
    } catch {
      log.error("access policy refused; the previous policy stays in force: \(error)")
    }
  }
}

private func policyFiles(_ path: String) throws(ConfigError) -> [ConfigFile] {
  guard let file = try ConfigFile.load(path) else {
    throw ConfigError(path: path, line: 0, message: "no such file")
  }
  return [file]
}

/// The gid `--socket-group` names (a number is taken as a gid), or nil without it.
func socketGroup(_ arguments: Arguments) throws(Arguments.UsageError) -> UInt32? {
  guard let name = arguments.socketGroup else { return nil }
  if let gid = UInt32(name) { return gid }
  guard let gid = SystemIdentities().gid(ofGroup: name) else {
    throw Arguments.UsageError(message: "--socket-group: no group named \"\(name)\"")
  }
  return gid
}
