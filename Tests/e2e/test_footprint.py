"""What the navd daemon links, and what that costs it at idle (issue 12: idle RSS ≤ 16 MiB).

navd builds on the Swift standard library, Dispatch, Synchronization and Glibc only:
Foundation (with ICU) alone cost it 12 MiB of resident memory at idle and most of its
start-up time. The client tools (navctl, navbench) may link Foundation; the daemon may not.
"""

from __future__ import annotations

from pathlib import Path

from navd_fixture import Navd

FOUNDATION_LIBRARIES = ("libFoundation.so", "libFoundationEssentials.so", "libFoundationInternationalization.so",
                        "lib_FoundationICU.so")


def mapped_files(pid: int) -> set[str]:
    names = set()
    for line in Path(f"/proc/{pid}/maps").read_text().splitlines():
        fields = line.split(maxsplit=5)
        if len(fields) == 6 and fields[5].startswith("/"):
            names.add(Path(fields[5]).name)
    return names


def test_the_daemon_maps_no_foundation_library():
    """README ("The daemon links no Foundation"): a running navd has none of Foundation's libraries mapped."""
    with Navd(name="footprint") as navd:
        mapped = mapped_files(navd.pid)
        assert Path(f"/proc/{navd.pid}/exe").resolve() == navd.binary.resolve(), "the check reads the wrong process"
        assert not [name for name in mapped if name in FOUNDATION_LIBRARIES], sorted(mapped)
