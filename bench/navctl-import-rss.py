#!/usr/bin/env python3
"""Peak RSS of navctl itself (/usr/bin/time -v, "Maximum resident set size") while it imports a
large export into a running navd over the socket (Import). Run from the repository with NAVD_BIN
set; NAVCTL_BIN picks the navctl to measure, EXPORT_MB the file's size (default 180), STDIN=1 a pipe,
OFFLINE=1 the import into a new state directory instead of the running navd:
NAVD_BIN=$PWD/.build/debug/navd python3 bench/navctl-import-rss.py"""
import json, os, re, shutil, subprocess, sys, tempfile, time
sys.path.insert(0, "Tests/e2e")
from navd_fixture import Navd

navctl = os.environ.get("NAVCTL_BIN", ".build/debug/navctl")
# STDIN=1: `cat FILE | navctl import -`, the export arriving on a pipe.
piped = os.environ.get("STDIN") == "1"
# OFFLINE=1: `navctl import --state-dir DIR FILE` into a new state directory (navd stopped there).
offline = os.environ.get("OFFLINE") == "1"
megabytes = int(os.environ.get("EXPORT_MB", "180"))
state = tempfile.mkdtemp(prefix="navctl-import-rss-")
try:
    with Navd(args=["--state-dir", state, "--max-scenes", "4096"], name="navctl-import-rss") as navd:
        with navd.connect() as c:
            for part in range(2):
                c.call("io.navd.Mutate", {"scene": "tpl", "ops": [
                    {"op": "defineBarButtonItem",
                     "barButtonItem": {"id": f"b{part}-{n}", "title": "t" * 250, "action": "a" * 200}}
                    for n in range(250)]})
            template = c.call("io.navd.GetState", {"scene": "tpl"})["state"]
        size = len(json.dumps(template, separators=(",", ":")))
        count = megabytes * 1_000_000 // size + 1
        path = os.path.join(state, "export.json")
        with open(path, "w") as f:
            f.write('{"format":"navd-export","formatVersion":1,"scenes":[')
            text = json.dumps(template, separators=(",", ":"))
            for i in range(count):
                f.write(("," if i else "") + f'{{"epoch":"0123456789abcdef","name":"s{i:05d}","state":{text},"version":5}}')
            f.write("]}\n")
        print("scene bytes", size, "scenes", count, "file bytes", os.path.getsize(path))
        started = time.time()
        command = ["/usr/bin/time", "-v", navctl, "--socket", navd.socket_path, "import", "-" if piped else path]
        if offline:
            command[6:6] = ["--state-dir", os.path.join(state, "offline")]
        with subprocess.Popen(["cat", path], stdout=subprocess.PIPE) if piped else open(path) as source:
            stdin = source.stdout if piped else subprocess.DEVNULL
            run = subprocess.run(command, stdin=stdin, capture_output=True, text=True)
        seconds = time.time() - started
        peak = re.search(r"Maximum resident set size \(kbytes\): (\d+)", run.stderr)
        print("rc", run.returncode, run.stdout.strip().splitlines()[-1:] , "seconds", round(seconds, 1))
        print("navctl peak RSS", int(peak.group(1)) / 1000 if peak else "?", "MB")
finally:
    shutil.rmtree(state, ignore_errors=True)
