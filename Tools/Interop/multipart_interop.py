#!/usr/bin/env python3
"""Interop check run by .ci/run: multipart bodies built by `jewz` must be read correctly by an
independent parser, Python's `multipart` package (strict mode), behind a loopback server that
also refuses bodies without Content-Length.

Usage: multipart_interop.py PATH_TO_JEWZ
"""
import hashlib
import io
import json
import os
import subprocess
import sys
import tempfile
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import multipart


class Handler(BaseHTTPRequestHandler):
    def do_POST(self):
        if "Content-Length" not in self.headers:
            self.send_error(411, "Content-Length required")
            return
        length = int(self.headers["Content-Length"])
        body = self.rfile.read(length)
        content_type, options = multipart.parse_options_header(self.headers["Content-Type"])
        if content_type != "multipart/form-data" or "boundary" not in options:
            self.send_error(415, "expected multipart/form-data with a boundary")
            return
        parser = multipart.MultipartParser(io.BytesIO(body), options["boundary"], length, strict=True)
        parts = []
        for part in parser:
            data = part.raw
            parts.append({
                "name": part.name,
                "filename": part.filename,
                "content_type": part.content_type,
                "size": len(data),
                "sha256": hashlib.sha256(data).hexdigest(),
            })
        answer = json.dumps({"parts": parts, "length": length}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(answer)))
        self.end_headers()
        self.wfile.write(answer)

    def log_message(self, *args):
        pass


def describe(name, filename, content_type, data):
    return {"name": name, "filename": filename, "content_type": content_type, "size": len(data),
            "sha256": hashlib.sha256(data).hexdigest()}


def main():
    jewz = sys.argv[1]
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/upload"
    with tempfile.TemporaryDirectory() as directory:
        binary = os.urandom(5 * 1024 * 1024 + 3) + b"\r\n--not-the-boundary\r\n"
        files = {
            "data.bin": binary,
            'größe "quoted".txt': "Grüße\r\naus Zürich".encode(),
            "empty.json": b"",
        }
        for filename, data in files.items():
            with open(os.path.join(directory, filename), "wb") as handle:
                handle.write(data)
        arguments = [jewz, "--print", "b", "POST", url, "title=Hello", "note=ünïcödé, \"quoted\"\r\nline 2"]
        arguments += [f"file{index}@{os.path.join(directory, name)}" for index, name in enumerate(files)]
        result = subprocess.run(arguments, capture_output=True, timeout=120)
        if result.returncode != 0:
            print("jewz failed:", result.returncode, result.stderr.decode(), file=sys.stderr)
            return 1
        answer = json.loads(result.stdout)
        guesses = {"data.bin": "application/octet-stream", 'größe "quoted".txt': "text/plain", "empty.json": "application/json"}
        expected = [
            describe("title", None, "text/plain", b"Hello"),
            describe("note", None, "text/plain", "ünïcödé, \"quoted\"\r\nline 2".encode()),
        ] + [describe(f"file{index}", name, guesses[name], data) for index, (name, data) in enumerate(files.items())]
        # The package reports a part without Content-Type as text/plain (RFC 7578 §4.4).
        if answer["parts"] != expected:
            print("parts differ:\n got", json.dumps(answer["parts"], indent=1, ensure_ascii=False),
                  "\n expected", json.dumps(expected, indent=1, ensure_ascii=False), file=sys.stderr)
            return 1
        print(f"multipart interop: {len(expected)} parts, {answer['length']} bytes, read by Python multipart "
              f"{multipart.__version__} (strict) exactly as sent")
    server.shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(main())
