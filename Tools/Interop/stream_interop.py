#!/usr/bin/env python3
"""Interop check run by .ci/run: `jewz` against streaming servers no one here wrote —
sse-starlette's Server-Sent Events under uvicorn (resumed with Last-Event-ID until a 204),
uvicorn on a Unix domain socket, and zstd bodies compressed by Python's `zstandard`.

Usage: stream_interop.py PATH_TO_JEWZ
"""
import asyncio
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time

import uvicorn
import zstandard
from sse_starlette.sse import EventSourceResponse
from starlette.applications import Starlette
from starlette.responses import PlainTextResponse, Response
from starlette.routing import Route

EVENTS = 5          # events in all
PER_STREAM = 2      # events a connection sends before it ends
RESUMES = []        # the Last-Event-ID of each request, "" for none
TEXT = ("zstd from Python, " * 2000).encode()


async def events(request):
    last = request.headers.get("last-event-id", "")
    RESUMES.append(last)
    first = int(last or 0) + 1
    if first > EVENTS:
        return Response(status_code=204)

    async def stream():
        for number in range(first, min(EVENTS, first + PER_STREAM - 1) + 1):
            yield {"id": str(number), "event": "tick", "data": '{"n":%d}' % number, "retry": 20}
            await asyncio.sleep(0.02)

    return EventSourceResponse(stream(), ping=600)


async def hello(request):
    return PlainTextResponse("hello over a socket")


async def packed(request):
    return Response(zstandard.ZstdCompressor(level=3).compress(TEXT),
                    headers={"Content-Encoding": "zstd", "Content-Type": "text/plain; charset=utf-8"})


app = Starlette(routes=[Route("/events", events), Route("/hello", hello), Route("/zstd", packed)])


def serve(**where):
    """Starts uvicorn in a thread on `where` (port= or uds=) and waits until it is up."""
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="off", **where))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            sys.exit("uvicorn did not start")
        time.sleep(0.02)
    return server


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def main():
    jewz = sys.argv[1]
    port = free_port()
    scratch = tempfile.mkdtemp(prefix="jewz-stream-")
    socket_path = os.path.join(scratch, "uvicorn.sock")
    servers = [serve(host="127.0.0.1", port=port), serve(uds=socket_path)]
    base = "http://127.0.0.1:%d" % port
    expected_events = "".join('event: tick\nid: %d\ndata: {"n":%d}\n\n' % (n, n) for n in range(1, EVENTS + 1))
    cases = [
        # (name, arguments, check of the run)
        ("sse resumed until 204", ["-S", base + "/events"],
         lambda r: r.stdout == expected_events and RESUMES == ["", "2", "4", "5"]),
        ("unix socket", ["--unix-socket", socket_path, "http://localhost/hello"],
         lambda r: r.stdout == "hello over a socket"),
        ("zstd body", [base + "/zstd"], lambda r: r.stdout == TEXT.decode()),
    ]
    failures = 0
    for name, arguments, check in cases:
        run = subprocess.run([jewz] + arguments, capture_output=True, text=True, timeout=60)
        try:
            ok = run.returncode == 0 and check(run)
        except Exception as error:
            ok = False
            print("  %s: %r" % (name, error))
        print("%s %s: exit %d" % ("ok  " if ok else "FAIL", name, run.returncode))
        if not ok:
            print(run.stdout[:2000], run.stderr[:2000], RESUMES)
            failures += 1
    for server in servers:
        server.should_exit = True
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
