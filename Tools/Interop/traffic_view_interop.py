#!/usr/bin/env python3
"""Interop check run by .ci/run: `jewz proxy --web`'s traffic view in headless Chromium (driven
through the DevTools protocol) while Python's urllib sends traffic through the proxy: the rows
appear as the exchanges happen, a status is coloured by its class, the filter filters, a JSON
body renders as a tree, credentials show redacted until revealed, "send again" reaches the origin
(edited), and the exported HAR is valid HAR 1.2 that mitmproxy reads (when MITMDUMP names it).

Usage: traffic_view_interop.py PATH_TO_JEWZ [SCREENSHOT_DIR]   (SCREENSHOT_DIR: .build/traffic-view)
    Needs Chromium (Debian's `chromium`) and the `websockets` package.
"""
import base64
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

from websockets.sync.client import connect

DEADLINE = 30  # seconds any one thing may take to show


def start(jewz, *arguments, lines=1):
    """Starts `jewz ARGUMENTS`; returns it with the URL each of its first `lines` lines announced."""
    process = subprocess.Popen([jewz, *arguments], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    urls = []
    for _ in range(lines):
        line = process.stdout.readline()
        url = next((word.rstrip(",/") for word in line.split() if "://" in word), None)
        if url is None:
            process.kill()
            sys.exit("no URL announced: %r" % line)
        urls.append(url)
    return process, urls


def fetch(url, data=None, headers=None, method=None):
    request = urllib.request.Request(url, data=data, headers=headers or {}, method=method)
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return response.status, response.read(), dict(response.headers)
    except urllib.error.HTTPError as error:
        return error.code, error.read(), dict(error.headers)


class Browser:
    """Headless Chromium on a page, through the DevTools protocol."""

    def __init__(self, profile):
        chromium = next((shutil.which(n) for n in ("chromium", "chromium-browser", "google-chrome") if shutil.which(n)), None)
        if chromium is None:
            sys.exit("no Chromium: apt-get install chromium")
        self.process = subprocess.Popen(
            [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", f"--user-data-dir={profile}",
             "--remote-debugging-port=0", "--window-size=1600,900", "about:blank"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        active = os.path.join(profile, "DevToolsActivePort")
        until = time.monotonic() + DEADLINE
        while not (os.path.exists(active) and len(open(active).read().split()) >= 2):
            if time.monotonic() > until:
                sys.exit("Chromium did not open its DevTools port")
            time.sleep(0.1)
        port = open(active).read().split()[0]
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list", timeout=30) as answer:
            page = next(t for t in json.load(answer) if t["type"] == "page")
        self.socket = connect(page["webSocketDebuggerUrl"], max_size=64 << 20)
        self.next_id = 0

    def call(self, method, **params):
        self.next_id += 1
        self.socket.send(json.dumps({"id": self.next_id, "method": method, "params": params}))
        while True:
            message = json.loads(self.socket.recv(timeout=DEADLINE))
            if message.get("id") == self.next_id:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                return message["result"]

    def evaluate(self, expression):
        result = self.call("Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=True)
        if "exceptionDetails" in result:
            raise RuntimeError(f"{expression}: {result['exceptionDetails']}")
        return result["result"].get("value")

    def wait_for(self, expression, what):
        until = time.monotonic() + DEADLINE
        while time.monotonic() < until:
            # An element found is a truth, not an object to copy.
            value = self.evaluate("(() => { const v = (%s); return v instanceof Node ? true : v; })()" % expression)
            if value:
                return value
            time.sleep(0.1)
        shown = self.evaluate("document.getElementById('detail')?.innerText.slice(0, 1500)")
        raise RuntimeError(f"not within {DEADLINE} s: {what}; the page shows: {shown}")

    def close(self):
        self.socket.close()
        self.process.terminate()
        self.process.wait(timeout=30)


def set_filter(browser, text):
    browser.evaluate("(() => { const f = document.getElementById('filter'); f.value = %s; f.dispatchEvent(new Event('input')); })()" % json.dumps(text))


def shown_rows(browser):
    return browser.evaluate("[...document.querySelectorAll('#rows tr')].filter(r => !r.hidden).map(r => r.dataset.method)")


def main():
    jewz = sys.argv[1]
    shots = sys.argv[2] if len(sys.argv) > 2 else os.path.join(".build", "traffic-view")
    os.makedirs(shots, exist_ok=True)
    scratch = tempfile.mkdtemp(prefix="jewz-traffic-view-")
    origin, (origin_url,) = start(jewz, "serve", "--port", "0")
    proxy, (proxy_url, page_url) = start(jewz, "proxy", "--port", "0", "--upstream", origin_url, "--web", "--web-port", "0", lines=2)
    browser = Browser(os.path.join(scratch, "profile"))
    checks = []
    try:
        browser.call("Page.navigate", url=page_url + "/")
        browser.wait_for("document.getElementById('connection')?.textContent === 'live'", "the page's event stream")
        # Traffic while the page watches: each row must come as it happens.
        fetch(proxy_url + "/json", headers={"Authorization": "Bearer traffic-view-secret"})
        browser.wait_for("document.querySelectorAll('#rows tr').length === 1", "the first row")
        fetch(proxy_url + "/dumpupload/", data=b"name=Ada&password=pw", headers={"Content-Type": "application/x-www-form-urlencoded"})
        fetch(proxy_url + "/encoded?coding=gzip&content=%7B%22zipped%22%3Atrue%7D")
        fetch(proxy_url + "/xml")
        fetch(proxy_url + "/status/404")
        fetch(proxy_url + "/dumpupload/", data=b"<a>1</a>", headers={"Content-Type": "application/xml"})
        fetch(proxy_url + "/cached/traffic-view?image=plain.png")
        boundary = "jewz-traffic-view"
        parts = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"note\"\r\n\r\nhello\r\n"
                 f"--{boundary}\r\nContent-Disposition: form-data; name=\"data\"; filename=\"d.json\"\r\n"
                 f"Content-Type: application/json\r\n\r\n{{\"part\":2}}\r\n--{boundary}--\r\n")
        fetch(proxy_url + "/dumpupload/", data=parts.encode(), headers={"Content-Type": f"multipart/form-data; boundary={boundary}"})
        fetch(proxy_url + "/bytes/64")
        browser.wait_for("document.querySelectorAll('#rows tr').length === 9", "nine rows")
        checks.append(("rows as they happen", browser.evaluate("document.getElementById('count').textContent") == "9 of 9"))
        checks.append(("a waterfall bar each", browser.evaluate(
            "[...document.querySelectorAll('#rows .bar')].every(b => parseFloat(b.style.width) > 0)")))
        checks.append(("a 404 coloured as a client error", browser.evaluate(
            "[...document.querySelectorAll('#rows tr')].some(r => r.querySelector('.status').classList.contains('status-4') && r.textContent.includes('/status/404'))")))

        # The filter.
        set_filter(browser, "method:POST")
        checks.append(("filter by method", shown_rows(browser) == ["POST"] * 3))
        set_filter(browser, "status:4xx")
        checks.append(("filter by status class", len(shown_rows(browser)) == 1))
        set_filter(browser, "")

        # One exchange opened: the JSON body as a tree, the credential redacted until revealed.
        browser.evaluate("document.querySelector('#rows tr[data-id=\"1\"]').click(); true")
        browser.wait_for("document.querySelector('#detail .json-tree')", "the JSON tree")
        checks.append(("JSON as a tree", browser.evaluate(
            "[...document.querySelectorAll('#detail .json-tree .json-key')].some(k => k.textContent === '\"name\"')")))
        checks.append(("credential redacted", browser.evaluate(
            "document.getElementById('detail').textContent.includes('[redacted]') && !document.getElementById('detail').textContent.includes('traffic-view-secret')")))
        browser.evaluate("document.getElementById('reveal').click(); true")
        checks.append(("credential revealed on a click", bool(browser.wait_for(
            "document.getElementById('detail').textContent.includes('Bearer traffic-view-secret')", "the revealed credential"))))
        browser.evaluate("document.querySelector('#rows tr[data-id=\"3\"]').click(); true")
        checks.append(("gzip decoded for the view", bool(browser.wait_for(
            "document.querySelector('#detail pre.text')?.textContent === '{\"zipped\":true}'", "the decoded body"))))
        browser.evaluate("document.querySelector('#rows tr[data-id=\"2\"]').click(); true")
        checks.append(("form fields", bool(browser.wait_for(
            "document.querySelector('#detail .form-fields')?.textContent.includes('Ada')", "the form's fields"))))

        # Bodies by their type; each waits for what it should show.
        for row, shown, what in [
            (4, "document.querySelector('#detail pre.xml')?.textContent.includes('\\n  <')", "XML, indented"),
            (7, "document.querySelector('#detail .image img')?.naturalWidth > 0", "an image inline"),
            (8, "document.querySelectorAll('#detail .multipart .part').length === 4 && document.querySelector('#detail .multipart .json-tree')",
             "multipart parts, each by its type"),
            (9, "document.querySelector('#detail pre.hex')?.textContent.startsWith('00000000  00 01 02 03')", "other bytes in hex"),
        ]:
            browser.evaluate("document.querySelector('#rows tr[data-id=\"%d\"]').click(); true" % row)
            checks.append((what, bool(browser.wait_for(shown, what))))
        browser.evaluate("document.querySelector('#rows tr[data-id=\"1\"]').click(); true")
        browser.wait_for("document.querySelector('#detail .json-tree') && opened.summary.id === 1", "the first exchange again")
        browser.evaluate("document.getElementById('reveal').click(); true")
        browser.wait_for("opened.revealed === false", "the credentials hidden again")
        curl = browser.evaluate("curlCommand(opened)")
        checks.append(("copy as curl", curl.startswith("curl -X GET '" + origin_url + "/json'") and "'Authorization: [redacted]'" in curl))
        checks.append(("copy as jewz", browser.evaluate("jewzCommand(opened)").startswith("jewz GET '" + origin_url + "/json'")))
        browser.evaluate("document.querySelector('#rows tr[data-id=\"2\"]').click(); true")
        browser.wait_for("opened.summary.id === 2", "the form again")

        # Send again, edited: the origin echoes the new body.
        browser.evaluate("document.getElementById('send-again').click(); true")
        browser.wait_for("document.querySelector('#editor textarea[name=body]')", "the editor")
        browser.evaluate("document.querySelector('#editor textarea[name=body]').value = 'name=Grace'; "
                         "document.querySelector('#editor form').requestSubmit(); true")
        outcome = browser.wait_for("document.getElementById('send-outcome')?.textContent", "send again's outcome")
        browser.wait_for("document.querySelectorAll('#rows tr').length === 10", "the sent-again row")
        status, body, _ = fetch(page_url + "/api/exchanges/10")
        sent = json.loads(body)
        checks.append(("send again reaches the origin", outcome == "sent again: 200" and sent["summary"]["method"] == "POST"
                       and "Grace" in json.dumps(sent["responseBody"])))
        browser.evaluate("document.querySelector('#rows tr[data-id=\"1\"]').click(); true")
        browser.wait_for("document.querySelector('#detail .json-tree')", "the JSON tree again")
        shot = browser.call("Page.captureScreenshot", format="png")
        with open(os.path.join(shots, "traffic-view.png"), "wb") as file:
            file.write(base64.b64decode(shot["data"]))

        # The HAR export of what is shown.
        status, body, headers = fetch(page_url + "/api/har?ids=" + ",".join(map(str, range(1, 11))))
        har = json.loads(body)
        entries = har["log"]["entries"]
        checks.append(("HAR 1.2 export", status == 200 and har["log"]["version"] == "1.2" and len(entries) == 10
                       and "attachment" in headers.get("Content-Disposition", "")))
        checks.append(("HAR redacted", "traffic-view-secret" not in body.decode()
                       and "password=[redacted]" in body.decode()))
        archive = os.path.join(scratch, "traffic.har")
        with open(archive, "wb") as file:
            file.write(body)
        mitmdump = os.environ.get("MITMDUMP")
        if not mitmdump:
            print("skip mitmproxy reads the HAR (MITMDUMP names no mitmdump; .ci/run sets it)")
        else:
            read = subprocess.run([mitmdump, "-n", "-r", archive, "--flow-detail", "1"], capture_output=True, text=True, timeout=120)
            lines = [line for line in read.stdout.splitlines() if "127.0.0.1" in line]
            checks.append(("mitmproxy reads the HAR", read.returncode == 0 and len(lines) == 10))
            if read.returncode or len(lines) != 10:
                print(read.stdout[-2000:], read.stderr[-2000:])
        # A page of another origin cannot use it (a name rebound to 127.0.0.1).
        status, _, _ = fetch(page_url + "/api/exchanges", headers={"Host": "attacker.example"})
        checks.append(("another Host refused", status == 403))
    finally:
        browser.close()
        for process in (proxy, origin):
            process.terminate()
            process.wait(timeout=30)
    failures = 0
    for name, ok in checks:
        print("%s %s" % ("ok  " if ok else "FAIL", name))
        failures += 0 if ok else 1
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
