"""A Varlink client that runs inside the container (plain python3, no packages), driven
by the test over stdin/stdout, one JSON object a line each way, so that a connection
can outlive single commands (a subscriber across a restart, a client across an upgrade).

Requests: {"op": "connect", "conn": NAME, "path": PATH}
          {"op": "send", "conn": NAME, "method": M, "parameters": {...}, "more": bool}
          {"op": "recv", "conn": NAME, "timeout": SECONDS}
          {"op": "close", "conn": NAME}
Answers:  {"ok": true} | {"reply": {...}} | {"eof": true} | {"timeout": true}
          | {"oserror": ERRNO, "message": TEXT}
"""

import json
import socket
import sys

connections = {}
buffers = {}


def answer(value):
    sys.stdout.write(json.dumps(value) + "\n")
    sys.stdout.flush()


def recv(name, timeout):
    sock = connections[name]
    sock.settimeout(timeout)
    while b"\0" not in buffers[name]:
        try:
            data = sock.recv(65536)
        except socket.timeout:
            return {"timeout": True}
        except ConnectionResetError:
            return {"eof": True}
        if not data:
            return {"eof": True}
        buffers[name] += data
    message, _, rest = buffers[name].partition(b"\0")
    buffers[name] = rest
    return {"reply": json.loads(message)}


for line in sys.stdin:
    request = json.loads(line)
    name = request.get("conn")
    try:
        if request["op"] == "connect":
            sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            sock.connect(request["path"])
            connections[name] = sock
            buffers[name] = b""
            answer({"ok": True})
        elif request["op"] == "send":
            call = {"method": request["method"], "parameters": request.get("parameters", {})}
            if request.get("more"):
                call["more"] = True
            connections[name].sendall(json.dumps(call).encode() + b"\0")
            answer({"ok": True})
        elif request["op"] == "recv":
            answer(recv(name, request.get("timeout", 10)))
        elif request["op"] == "close":
            connections.pop(name).close()
            answer({"ok": True})
        else:
            answer({"oserror": 0, "message": "unknown op " + request["op"]})
    except OSError as error:
        answer({"oserror": error.errno or 0, "message": str(error)})
