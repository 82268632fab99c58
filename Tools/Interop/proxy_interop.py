#!/usr/bin/env python3
"""Interop check run by .ci/run: Python's urllib (a client no one here wrote) through `jewz
proxy` — reverse with a HAR recording, the same answers replayed with the origin stopped, and
forward (urllib's ProxyHandler, as HTTP_PROXY users do).

Usage: proxy_interop.py PATH_TO_JEWZ
"""
import json
import os
import subprocess
import sys
import tempfile
import urllib.error
import urllib.request


def start(jewz, *arguments):
    """Starts `jewz ARGUMENTS` and returns it with the first URL its first line announced."""
    process = subprocess.Popen([jewz, *arguments], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = process.stdout.readline()
    url = next((word.rstrip(",") for word in line.split() if "://" in word), None)
    if url is None:
        process.kill()
        sys.exit("no URL announced: %r %s" % (line, process.stderr.read()))
    return process, url


def fetch(url, data=None, proxy=None):
    handlers = [urllib.request.ProxyHandler({"http": proxy} if proxy else {})]
    opener = urllib.request.build_opener(*handlers)
    try:
        with opener.open(urllib.request.Request(url, data=data), timeout=60) as response:
            return response.status, response.read().decode(), dict(response.headers)
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode(), dict(error.headers)


def main():
    jewz = sys.argv[1]
    scratch = tempfile.mkdtemp(prefix="jewz-proxy-interop-")
    archive = os.path.join(scratch, "urllib.har")
    origin, origin_url = start(jewz, "serve", "--port", "0")
    reverse, reverse_url = start(jewz, "proxy", "--port", "0", "--upstream", origin_url, "--record", archive)
    forward, forward_url = start(jewz, "proxy", "--port", "0")
    results = {
        "reverse GET": fetch(reverse_url + "/json?from=urllib"),
        "reverse POST": fetch(reverse_url + "/dumpupload/", data=b"from urllib"),
        "forward GET": fetch(origin_url + "/hello/", proxy=forward_url),
    }
    for process in (reverse, forward):
        process.terminate()
        process.wait(timeout=30)
    origin.terminate()
    origin.wait(timeout=30)
    replay, replay_url = start(jewz, "proxy", "--port", "0", "--upstream", origin_url, "--replay", archive)
    replayed = {
        "replayed GET": fetch(replay_url + "/json?from=urllib"),
        "replayed POST": fetch(replay_url + "/dumpupload/", data=b"from urllib"),
    }
    replay.terminate()
    replay.wait(timeout=30)
    har = json.load(open(archive))
    entries = har["log"]["entries"]
    checks = [
        ("reverse GET", results["reverse GET"][0] == 200 and '"name":"Jewzruxin"' in results["reverse GET"][1]),
        ("Via added", results["reverse GET"][2].get("Via") == "1.1 jewz"),
        ("reverse POST", results["reverse POST"][:2] == (200, "from urllib")),
        ("forward GET", results["forward GET"][:2] == (200, "Hello World")),
        ("HAR recorded", har["log"]["version"] == "1.2" and [e["request"]["method"] for e in entries] == ["GET", "POST"]),
        ("HAR body", entries[1]["request"]["postData"]["text"] == "from urllib"),
        ("replayed GET", replayed["replayed GET"][:2] == results["reverse GET"][:2]),
        ("replayed POST", replayed["replayed POST"][:2] == (200, "from urllib")),
    ]
    failures = 0
    for name, ok in checks:
        print("%s %s" % ("ok  " if ok else "FAIL", name))
        failures += 0 if ok else 1
    if failures:
        print(results, replayed)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
