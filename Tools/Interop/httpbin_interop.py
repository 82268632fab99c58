#!/usr/bin/env python3
"""Interop check run by .ci/run: `jewz` as a user runs it against Python's `httpbin`, served on
a free loopback port by werkzeug in this process — query, headers, JSON, form, multipart, gzip,
deflate, brotli, XML, redirects, status codes, text encodings and a PNG download.

Usage: httpbin_interop.py PATH_TO_JEWZ
"""
import json
import os
import subprocess
import sys
import tempfile

from httpbin_server import start_httpbin


def body_json(run):
    return json.loads(run.stdout)


def main():
    jewz = sys.argv[1]
    server, base = start_httpbin()
    scratch = tempfile.mkdtemp(prefix="jewz-httpbin-")
    upload = os.path.join(scratch, "note.txt")
    with open(upload, "w") as handle:
        handle.write("hello from a file")

    cases = [
        # (name, arguments, expected exit status, check of the run)
        ("query", ["GET", base + "/get", "q==swift nio", "page==2"], 0,
         lambda r: body_json(r)["args"] == {"q": "swift nio", "page": "2"}),
        ("headers", [base + "/headers", "X-Api-Key:secret"], 0,
         lambda r: body_json(r)["headers"]["X-Api-Key"] == "secret"),
        ("json", ["POST", base + "/post", "name=Ada", "age:=36", "tags:=[\"a\",\"b\"]"], 0,
         lambda r: body_json(r)["json"] == {"name": "Ada", "age": 36, "tags": ["a", "b"]}),
        ("form", ["--form", "POST", base + "/post", "name=Ada Lovelace", "lang=en"], 0,
         lambda r: body_json(r)["form"] == {"name": "Ada Lovelace", "lang": "en"}),
        ("multipart", ["POST", base + "/post", "author=Ada", "file@" + upload], 0,
         lambda r: body_json(r)["files"] == {"file": "hello from a file"} and body_json(r)["form"] == {"author": "Ada"}),
        ("gzip", [base + "/gzip"], 0, lambda r: body_json(r)["gzipped"] is True),
        ("deflate", [base + "/deflate"], 0, lambda r: body_json(r)["deflated"] is True),
        ("brotli", [base + "/brotli"], 0, lambda r: body_json(r)["brotli"] is True),
        ("xml", [base + "/xml"], 0, lambda r: "<slideshow" in r.stdout),
        ("redirects", ["--follow", base + "/redirect/3"], 0, lambda r: body_json(r)["url"].endswith("/get")),
        ("redirect shown", ["--print", "h", base + "/redirect/1"], 0, lambda r: r.stdout.startswith("HTTP/1.1 302")),
        ("status 404", [base + "/status/404"], 4, lambda r: "404" in r.stderr),
        ("status 503", ["--retries", "0", base + "/status/503"], 5, lambda r: "503" in r.stderr),
        ("utf-8 text", [base + "/encoding/utf8"], 0, lambda r: "∮ E⋅da = Q" in r.stdout),
        ("png download", ["--download", base + "/image/png"], 0,
         lambda r: open(os.path.join(scratch, "png"), "rb").read(8) == b"\x89PNG\r\n\x1a\n"),
    ]
    failures = 0
    for name, arguments, want, check in cases:
        run = subprocess.run([jewz] + arguments, capture_output=True, text=True, timeout=60, cwd=scratch)
        try:
            ok = run.returncode == want and check(run)
        except Exception as error:  # a body that is not what the check reads is a failure too
            ok = False
            print("  %s: %r" % (name, error))
        print("%s %s: exit %d" % ("ok  " if ok else "FAIL", name, run.returncode))
        if not ok:
            print(run.stdout[:2000], run.stderr[:2000])
            failures += 1
    server.shutdown()
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
