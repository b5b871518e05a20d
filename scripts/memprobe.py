#!/usr/bin/env python3
"""Measures navd's memory under a full op log: SCENES scenes, each with 200 bar
button items and 1,024 versions of title changes (the op log's default depth).
Usage: scripts/memprobe.py PATH_TO_NAVD SCENES   (see BENCHMARKS.md)."""
import socket, json, subprocess, tempfile, sys, time
binary=sys.argv[1]
d=tempfile.mkdtemp(); path=d+'/s'
p=subprocess.Popen([binary,'--socket',path],stdout=subprocess.PIPE,stderr=subprocess.DEVNULL); p.stdout.readline()
s=socket.socket(socket.AF_UNIX); s.connect(path)
buf=b''
def call(m,params):
    global buf
    s.sendall(json.dumps({"method":"io.navd."+m,"parameters":params}).encode()+b'\0')
    while b'\0' not in buf: buf+=s.recv(65536)
    f,buf=buf.split(b'\0',1); r=json.loads(f)
    assert 'error' not in r, r
    return r
def rss(): return int([l for l in open(f'/proc/{p.pid}/status') if l.startswith('VmRSS')][0].split()[1])
base=rss()
scenes=int(sys.argv[2])
for sc in range(scenes):
    ops=[{"op":"defineBarButtonItem","barButtonItem":{"id":f"b{i}","title":f"Button number {i}","action":f"action.{i}"}} for i in range(200)]
    call("Mutate",{"scene":f"s{sc}","ops":ops})
    for v in range(1024):
        call("Mutate",{"scene":f"s{sc}","ops":[{"op":"updateBarButtonItem","barButtonItem":f"b{v%200}","set":{"title":f"T{v}"}}]})
print(f"{scenes} scenes x 200 items x 1024 versions: RSS {base} -> {rss()} kB")
p.terminate()
