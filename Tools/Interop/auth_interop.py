#!/usr/bin/env python3
"""Interop check run by .ci/run: `jewz --auth` against Python's `httpbin` (an independent
implementation of Basic and of Digest MD5 / SHA-256 with qop auth and auth-int), served on a
free loopback port by werkzeug in this process.

Usage: auth_interop.py PATH_TO_JEWZ
"""
import json
import subprocess
import sys

from httpbin_server import start_httpbin

CASES = [
    # (auth type, path, expected status)
    ("basic", "/basic-auth/ada/s3cret", 0),
    ("digest", "/digest-auth/auth/ada/s3cret/MD5", 0),
    ("digest", "/digest-auth/auth/ada/s3cret/SHA-256", 0),
    ("digest", "/digest-auth/auth-int/ada/s3cret/MD5", 0),
    ("digest", "/digest-auth/auth-int/ada/s3cret/SHA-256", 0),
]


def main():
    jewz = sys.argv[1]
    server, base = start_httpbin()
    failures = 0
    for auth_type, path, expected in CASES:
        for password, want in (("s3cret", expected), ("wrong", 4)):
            run = subprocess.run(
                [jewz, "--auth", "ada:" + password, "--auth-type", auth_type, "--print", "b", base + path],
                capture_output=True, text=True, timeout=60)
            ok = run.returncode == want
            if ok and want == 0:
                ok = json.loads(run.stdout).get("authenticated") is True
            print("%s %s %s (%s): exit %d" % ("ok  " if ok else "FAIL", auth_type, path, password, run.returncode))
            if not ok:
                print(run.stdout, run.stderr)
                failures += 1
    server.shutdown()
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
