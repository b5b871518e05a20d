"""Debian 12's systemd as PID 1 of a systemd-nspawn container, exactly as
/work/shared/SYSTEMD-NOTES.md ("A real systemd as PID 1") measured it on these machines:

- the root filesystem: `mmdebstrap --variant=minbase` of bookworm with systemd, dbus,
  libnss-systemd, libpam-systemd (a lingering user's manager needs its session's
  XDG_RUNTIME_DIR), procps and python3 (the test client), cached as a zstd tarball in
  NAVD_TEST_CACHE (default /var/cache/navd-test, outside the repository) and rebuilt
  when missing; each run unpacks a fresh copy (under a second);
- the launching shell in cgroups of its own (else nspawn leaves payload/ and
  supervisor/ in the host's root cgroups), in a private mount namespace with a tmpfs
  on /run (the host's /run is no tmpfs);
- `systemd-nspawn --boot --register=no --keep-unit --private-network
  --console=read-only --system-call-filter=bpf` (each flag is needed: see the notes);
- driven with `nsenter --target PID1 --all`; stopped with one SIGTERM to nspawn and a
  wait (a second TERM or a KILL would orphan the container), then the cgroups go.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

PACKAGES = ["systemd", "systemd-sysv", "dbus", "libnss-systemd", "libpam-systemd", "procps", "python3", "libsqlite3-0"]
MMDEBSTRAP = ["mmdebstrap", "--variant=minbase", "--include=" + ",".join(PACKAGES), "bookworm"]
CACHE = Path(os.environ.get("NAVD_TEST_CACHE", "/var/cache/navd-test"))
CGROUP_ROOTS = [Path("/sys/fs/cgroup/systemd"), Path("/sys/fs/cgroup/unified")]


def log(message: str) -> None:
    print(f"[system] {message}", flush=True)


def rootfs_tarball() -> Path:
    """The cached root filesystem, built first when missing (its name hashes the recipe,
    so a changed package list builds a new one)."""
    recipe = hashlib.sha256(" ".join(MMDEBSTRAP).encode()).hexdigest()[:12]
    tarball = CACHE / f"bookworm-{recipe}.tar.zst"
    if tarball.exists():
        return tarball
    CACHE.mkdir(parents=True, exist_ok=True)
    build = Path(tempfile.mkdtemp(prefix="rootfs-", dir=CACHE))
    try:
        started = time.monotonic()
        root = build / "root"
        subprocess.run([*MMDEBSTRAP, str(root)], check=True, stdout=subprocess.DEVNULL, timeout=900)
        # The host's hostname is copied in; the console getty would wait on a console
        # that is read-only.
        (root / "etc" / "hostname").unlink(missing_ok=True)
        getty = root / "etc" / "systemd" / "system" / "console-getty.service"
        getty.unlink(missing_ok=True)
        getty.symlink_to("/dev/null")
        partial = build / "rootfs.tar.zst"
        subprocess.run(["tar", "--zstd", "-C", str(root), "-cf", str(partial), "."], check=True, timeout=300)
        partial.rename(tarball)
        for stale in CACHE.glob("bookworm-*.tar.zst"):
            if stale != tarball:
                stale.unlink()
        log(f"built {tarball} in {time.monotonic() - started:.0f} s")
    finally:
        shutil.rmtree(build, ignore_errors=True)
    return tarball


class Container:
    """One booted container; `run` executes a command inside, as root or as a user."""

    def __init__(self, name: str = "navd-system-test") -> None:
        self.name = f"{name}-{os.getpid()}"
        self.directory = Path(tempfile.mkdtemp(prefix="navd-system-", dir="/var/tmp"))
        self.root = self.directory / "root"
        self.nspawn: subprocess.Popen | None = None
        self.pid1 = 0
        self.console = self.directory / "console.log"

    def boot(self, timeout: float = 60) -> None:
        started = time.monotonic()
        self.root.mkdir()
        subprocess.run(["tar", "--zstd", "-C", str(self.root), "-xf", str(rootfs_tarball())], check=True, timeout=120)
        for cgroup_root in CGROUP_ROOTS:
            (cgroup_root / self.name).mkdir()
        # The shell moves itself into its cgroups, then becomes unshare and then nspawn:
        # one pid throughout, the one to TERM.
        procs = " ".join(str(r / self.name / "cgroup.procs") for r in CGROUP_ROOTS)
        script = (
            f'for f in {procs}; do echo $$ > "$f"; done; '
            'exec unshare --mount --propagation private sh -c \'mount -t tmpfs tmpfs /run && exec "$@"\' sh '
            f"systemd-nspawn -q -D {self.root} --boot --register=no --keep-unit --private-network "
            "--console=read-only --system-call-filter=bpf")
        with open(self.console, "wb") as console:
            self.nspawn = subprocess.Popen(["bash", "-c", script], stdout=console, stderr=subprocess.STDOUT,
                                           stdin=subprocess.DEVNULL)
        deadline = time.monotonic() + timeout
        while not self.pid1:
            assert self.nspawn.poll() is None, self.console.read_text(errors="replace")
            assert time.monotonic() < deadline, "no systemd in the container"
            children = Path(f"/proc/{self.nspawn.pid}/task/{self.nspawn.pid}/children").read_text().split()
            for child in children:
                if Path(f"/proc/{child}/comm").read_text().strip() == "systemd":
                    self.pid1 = int(child)
            time.sleep(0.05)
        while True:
            state = self.run(["systemctl", "is-system-running", "--wait"], check=False, timeout=timeout).stdout.strip()
            if state in ("running", "degraded"):
                break
            assert time.monotonic() < deadline, f"the container's systemd is {state}"
            time.sleep(0.1)
        assert state == "running", self.run(["systemctl", "--failed", "--no-legend"], check=False).stdout
        log(f"booted systemd as PID 1 (host pid {self.pid1}) in {time.monotonic() - started:.1f} s")

    def run(self, command: list[str], user: str | None = None, check: bool = True, timeout: float = 60,
            input: str | None = None, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
        """`command` inside the container (as `user`, with its groups, when given)."""
        result = subprocess.run(self.command(command, user, env), capture_output=True, text=True,
                                timeout=timeout, input=input)
        if check:
            assert result.returncode == 0, f"{command}: exit {result.returncode}\n{result.stdout}{result.stderr}"
        return result

    def command(self, command: list[str], user: str | None = None, env: dict[str, str] | None = None) -> list[str]:
        prefix = ["nsenter", "--target", str(self.pid1), "--all", "--", "env", "-i",
                  "PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin", "LANG=C.UTF-8"]
        if user is not None:
            uid = self.run(["id", "-u", user]).stdout.strip()
            prefix += [f"HOME=/home/{user}", f"XDG_RUNTIME_DIR=/run/user/{uid}", f"USER={user}"]
        prefix += [f"{k}={v}" for k, v in (env or {}).items()]
        if user is not None:
            prefix += ["setpriv", f"--reuid={user}", f"--regid={user}", "--init-groups", "--"]
        return prefix + command

    def shell(self, script: str, user: str | None = None, check: bool = True, timeout: float = 60) -> str:
        return self.run(["sh", "-ec", script], user=user, check=check, timeout=timeout).stdout

    def put(self, source: Path, target: str, mode: int = 0o644) -> None:
        """Copies a host file into the container's file system."""
        destination = self.root / target.lstrip("/")
        destination.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source, destination)
        os.chmod(destination, mode)

    def stop(self) -> None:
        if self.nspawn is not None and self.nspawn.poll() is None:
            self.nspawn.terminate()
            try:
                self.nspawn.wait(60)
            except subprocess.TimeoutExpired:
                self.nspawn.terminate()
                self.nspawn.wait(30)
        for cgroup_root in CGROUP_ROOTS:
            remove_cgroup(cgroup_root / self.name)
        shutil.rmtree(self.directory, ignore_errors=True)


def remove_cgroup(path: Path) -> None:
    """rmdir depth-first (a cgroup directory holds only its children and control files)."""
    if not path.is_dir():
        return
    for child in path.iterdir():
        if child.is_dir():
            remove_cgroup(child)
    try:
        path.rmdir()
    except OSError as error:
        log(f"could not remove {path}: {error}")
