#!/usr/bin/env python3
"""Instructions on navd's event loop and parse thread per refused 1 MiB title (issue 27).

A release navd under callgrind (--separate-threads=yes, counting only around the frames):
a set-up Mutate defines item `large`, then FRAMES Mutates of scene `large` whose title is
a plain string of close to 1 MiB (refused: LimitExceeded, SEMANTICS R66), sent one at a
time. Prints each thread's instructions per frame. Counts repeat for the same binary
whatever else the machine does.

Usage: bench/refused-title-cost.py NAVD [FRAMES]   (FRAMES: default 5)
"""
import glob
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time

LIMIT = 1 << 20


def main() -> None:
    navd = sys.argv[1]
    frames = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    work = tempfile.mkdtemp(prefix="refused-title.")
    path = os.path.join(work, "navd.sock")
    out = os.path.join(work, "callgrind.out")
    server = subprocess.Popen(
        ["valgrind", "--tool=callgrind", "--instr-atstart=no", "--separate-threads=yes",
         f"--callgrind-out-file={out}", navd, "--socket", path, "--state-dir", os.path.join(work, "state")],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(600):
            if os.path.exists(path):
                break
            time.sleep(0.1)
        connection = socket.socket(socket.AF_UNIX)
        connection.connect(path)
        connection.settimeout(600)
        pending = bytearray()

        def call(frame: bytes) -> dict:
            connection.sendall(frame)
            while b"\0" not in pending:
                pending.extend(connection.recv(LIMIT))
            end = pending.index(b"\0")
            reply = json.loads(bytes(pending[:end]))
            del pending[: end + 1]
            return reply

        setup = {"method": "io.navd.Mutate", "parameters": {"scene": "large", "ops": [
            {"op": "defineBarButtonItem", "barButtonItem": {"id": "large", "title": "t"}}]}}
        assert "error" not in call(json.dumps(setup).encode() + b"\0")
        head = (b'{"method":"io.navd.Mutate","parameters":{"scene":"large","ops":[{"op":"updateBarButtonItem",'
                b'"barButtonItem":"large","set":{"title":"')
        tail = b'"}}]}}'
        frame = head + b"y" * (LIMIT - len(head) - len(tail) - 1) + tail + b"\0"
        for command in ("-i", "on"), ("-z",):
            subprocess.run(["callgrind_control", *command, str(server.pid)], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for _ in range(frames):
            reply = call(frame)
            assert reply.get("error") == "io.navd.LimitExceeded", reply
        subprocess.run(["callgrind_control", "-d", str(server.pid)], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        # One file per thread: callgrind.out.<dump>-<thread>; the newest dump's.
        newest = max(glob.glob(out + ".*"), key=os.path.getmtime).rsplit("-", 1)[0]
        for name in sorted(glob.glob(newest + "-*")):
            with open(name, errors="replace") as file:
                text = file.read()
            total = next((int(line.split()[1]) for line in text.splitlines() if line.startswith("summary:")), 0)
            # The parse thread runs FrameParser.run (mangled ...FrameParserC3run...), the loop
            # ServerLoop.run (...NavServer0B4LoopC3run..., as bench/profile.sh finds it).
            role = "parse thread" if re.search(r"FrameParser\w*3run", text) else "event loop" if "NavServer0B4LoopC3run" in text else None
            if role and total:
                print(f"{role}: {total / frames / 1e6:.1f} M instructions per frame")
    finally:
        server.terminate()
        server.wait(timeout=60)
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
