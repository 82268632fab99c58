#!/usr/bin/env python3
"""Interop check run by .ci/run: nothing is lost when an HTTP/2 server rotates its connections.

nginx (Debian's) on loopback with TLS and HTTP/2 ends each connection after a few hundred
requests (`keepalive_requests`: a GOAWAY, then the close), as large deployments do by count or
age. Requests on streams the server had not taken up when it said GOAWAY were never processed
(RFC 9113 §6.8): jewz sends an idempotent one again on a new connection. The checks:

- 20,000 GETs at concurrency 64 (`jewz bench`): none fails, and nginx used many connections.
- 2,000 POSTs at concurrency 64: nginx's own log holds each at most once (none processed twice),
  and every POST is accounted for: processed, or failed with the typed error jewz reports. A POST
  on a stream dropped by GOAWAY is not sent again: NIOHTTP2 reports it as a stream cancelled,
  which a server may send for a request it did process (Tools/Upstream/swift-nio-http2).
- 2,000 POSTs each with an Idempotency-Key of its own (`jewz bench --idempotency-keys`): none
  fails, since a keyed POST is sent again as an idempotent one, and nginx logged each key once.

Usage: http2_rotation_interop.py PATH_TO_JEWZ
"""
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time

REQUESTS_PER_CONNECTION = 200
failures = 0


def check(ok, name, detail=""):
    global failures
    print("%s %s%s" % ("ok  " if ok else "FAIL", name, (": " + detail) if detail else ""))
    if not ok:
        failures += 1


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def start_nginx(root):
    binary = shutil.which("nginx") or "/usr/sbin/nginx"
    if not os.path.exists(binary):
        sys.exit("nginx is not installed (apt-get install nginx-light)")
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-days", "1",
         "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
         "-keyout", f"{root}/key.pem", "-out", f"{root}/cert.pem"],
        check=True, capture_output=True)
    port = free_port()
    with open(f"{root}/nginx.conf", "w") as out:
        out.write(f"""worker_processes 1; daemon off; pid {root}/nginx.pid; error_log {root}/error.log;
events {{ worker_connections 4096; }}
http {{ client_body_temp_path {root}; keepalive_requests {REQUESTS_PER_CONNECTION};
  log_format exchanges '$request_method $connection $status $http_idempotency_key';
  server {{ listen 127.0.0.1:{port} ssl http2; ssl_certificate {root}/cert.pem; ssl_certificate_key {root}/key.pem;
    access_log {root}/access.log exchanges;
    location = /hello {{ default_type text/plain; return 200 "Hello World"; }}
    location = /order {{ default_type text/plain; return 200 "taken"; }} }} }}
""")
    process = subprocess.Popen([binary, "-c", f"{root}/nginx.conf", "-p", root])
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return process, port
        except OSError:
            time.sleep(0.05)
    process.kill()
    sys.exit("nginx did not start: " + open(f"{root}/error.log").read())


def logged(root, method):
    """(requests, distinct connections) nginx logged for `method`."""
    lines = [line.split() for line in open(f"{root}/access.log") if line.startswith(method + " ")]
    return len(lines), len({line[1] for line in lines})


def bench(jewz, root, url, count, *extra):
    run = subprocess.run(
        [jewz, "bench", url, "-n", str(count), "-c", "64", "--verify", f"{root}/cert.pem", "--json", *extra],
        capture_output=True, text=True, timeout=600)
    try:
        report = json.loads(run.stdout)
    except ValueError:
        report = {"errors": count}
    return report, run.stderr.strip()


def main():
    jewz = sys.argv[1]
    root = tempfile.mkdtemp(prefix="jewz-h2-rotation-")
    nginx, port = start_nginx(root)
    try:
        base = f"https://127.0.0.1:{port}"
        report, stderr = bench(jewz, root, f"{base}/hello", 20_000)
        gets, connections = logged(root, "GET")
        check(report["errors"] == 0, "20,000 GETs at c=64 through connections rotated every %d requests: %d failed"
              % (REQUESTS_PER_CONNECTION, report["errors"]), stderr)
        check(gets == 20_000, "nginx answered each GET once", "%d logged" % gets)
        check(connections >= 20_000 // REQUESTS_PER_CONNECTION, "nginx rotated its connections", "%d connections" % connections)

        report, stderr = bench(jewz, root, f"{base}/order", 2_000, "-X", "POST", "--data", "order")
        posts, _ = logged(root, "POST")
        check(posts + report["errors"] == 2_000 and posts <= 2_000,
              "2,000 POSTs at c=64: %d processed once each, %d failed with a typed error, none processed twice"
              % (posts, report["errors"]), stderr)
        print("POSTs lost to GOAWAY (not sent again: NIOHTTP2 cannot say they were unprocessed): %d" % report["errors"])

        report, stderr = bench(jewz, root, f"{base}/order", 2_000, "-X", "POST", "--data", "order", "--idempotency-keys")
        keys = [line.split()[3] for line in open(f"{root}/access.log") if line.startswith("POST ") and len(line.split()) > 3 and line.split()[3] != "-"]
        check(report["errors"] == 0 and len(keys) == 2_000 and len(set(keys)) == 2_000,
              "2,000 keyed POSTs at c=64: %d failed, %d keys logged, %d distinct" % (report["errors"], len(keys), len(set(keys))), stderr)
    finally:
        nginx.terminate()
        nginx.wait(timeout=10)
        shutil.rmtree(root, ignore_errors=True)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
