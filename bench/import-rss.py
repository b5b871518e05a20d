#!/usr/bin/env python3
"""Peak RSS of navd while navctl imports a ~50 MB export over the socket (Import), and of the same
scenes after a restart: what the import costs navd beyond holding the scenes. Run from the repository
with NAVD_BIN set: NAVD_BIN=$PWD/.build/debug/navd python3 bench/import-rss.py"""
import json, subprocess, sys, time, os, socket
sys.path.insert(0, "Tests/e2e")
from navd_fixture import Navd
import tempfile, shutil
state = tempfile.mkdtemp(prefix="imp28-")
navctl = os.environ.get("NAVCTL_BIN", ".build/debug/navctl")
with Navd(args=["--state-dir", state, "--max-scenes", "2048"], name="bench") as navd:
    with navd.connect() as c:
        for part in range(2):
            c.call("io.navd.Mutate", {"scene": "tpl", "ops": [
                {"op": "defineBarButtonItem", "barButtonItem": {"id": f"b{part}-{n}", "title": "t" * 250, "action": "a" * 200}}
                for n in range(250)]})
        tpl = c.call("io.navd.GetState", {"scene": "tpl"})["state"]
    size = len(json.dumps(tpl, separators=(",", ":")))
    count = 50_000_000 // size + 1
    doc = {"format": "navd-export", "formatVersion": 1, "scenes": [
        {"name": f"s{i:04d}", "epoch": "0123456789abcdef", "version": 5, "state": tpl} for i in range(count)]}
    path = os.path.join(state, "export.json")
    with open(path, "w") as f:
        json.dump(doc, f, separators=(",", ":"))
    print("scene bytes", size, "scenes", count, "file bytes", os.path.getsize(path))
    pid = navd.pid
    def hwm():
        for line in open(f"/proc/{pid}/status"):
            if line.startswith("VmHWM") or line.startswith("VmRSS"):
                print(line.strip())
    hwm()
    t = time.time()
    r = subprocess.run([navctl, "--socket", navd.socket_path, "import", path], capture_output=True, text=True)
    print("rc", r.returncode, r.stdout[-200:], r.stderr[-500:], "seconds", round(time.time() - t, 1))
    hwm()
with Navd(args=["--state-dir", state, "--max-scenes", "2048"], name="bench-restart") as navd:
    pid = navd.pid
    with navd.connect() as c:
        print("restarted with", len(c.call("io.navd.ListScenes", {})["scenes"]), "scenes")
    hwm()
shutil.rmtree(state, ignore_errors=True)
