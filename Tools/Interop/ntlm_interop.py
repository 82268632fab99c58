#!/usr/bin/env python3
"""Interop check run by .ci/run: `jewz --auth-type ntlm` (and `auto`) against an HTTP server
whose NTLM acceptor is pyspnego's, an implementation no one here wrote. The server keeps one
NTLM context per connection, as IIS does: the negotiate, the authenticate and the request they
unlock must come over one kept-alive connection, so a handshake split over two fails there
(checked below with pyspnego's own client, to show the check can fail).

Usage: ntlm_interop.py PATH_TO_JEWZ
"""
import base64
import http.client
import http.server
import json
import os
import subprocess
import sys
import tempfile
import threading

import spnego

USER, DOMAIN, PASSWORD = "ada", "CORP", "s3cret"


class NTLMHandler(http.server.BaseHTTPRequestHandler):
    """One instance per connection: its context is the connection's handshake."""
    protocol_version = "HTTP/1.1"

    def setup(self):
        super().setup()
        self.context = None

    def log_message(self, *args):
        pass

    def do_GET(self):
        self.answer()

    def do_POST(self):
        self.answer()

    def answer(self):
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        proxy = self.path.startswith("/proxy")
        field = "Proxy-Authorization" if proxy else "Authorization"
        sent = self.headers.get(field, "")
        if not sent.startswith("NTLM "):
            return self.challenge(proxy, None)
        token = base64.b64decode(sent[5:])
        if token[8:12] == b"\x01\x00\x00\x00":
            self.context = spnego.server(protocol="ntlm")
        if self.context is None:
            return self.challenge(proxy, None)  # an authenticate on a connection that did not negotiate
        try:
            reply = self.context.step(token)
        except spnego.exceptions.SpnegoError as error:
            self.context = None
            self.log_error("refused: %s", error)
            return self.challenge(proxy, None)
        if not self.context.complete:
            return self.challenge(proxy, reply)
        payload = json.dumps({"authenticated": True, "user": self.context.client_principal,
                              "method": self.command, "body": len(body)}).encode()
        self.context = None
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    def challenge(self, proxy, token):
        self.send_response(407 if proxy else 401)
        value = "NTLM" + (" " + base64.b64encode(token).decode() if token else "")
        self.send_header("Proxy-Authenticate" if proxy else "WWW-Authenticate", value)
        if not token:
            self.send_header("Proxy-Authenticate" if proxy else "WWW-Authenticate", 'Basic realm="interop"')
        self.send_header("Content-Length", "0")
        self.end_headers()


def split_handshake_fails(port):
    """pyspnego's client, negotiate on one connection and authenticate on another: refused."""
    client = spnego.client(DOMAIN + "\\" + USER, PASSWORD, protocol="ntlm")
    first, second = http.client.HTTPConnection("127.0.0.1", port), http.client.HTTPConnection("127.0.0.1", port)
    first.request("GET", "/split", headers={"Authorization": "NTLM " + base64.b64encode(client.step()).decode()})
    answer = first.getresponse()
    answer.read()
    challenge = base64.b64decode(answer.getheader("WWW-Authenticate").split(" ", 1)[1])
    authenticate = client.step(challenge)
    second.request("GET", "/split", headers={"Authorization": "NTLM " + base64.b64encode(authenticate).decode()})
    refused = second.getresponse().status == 401
    # And on one connection the same client gets in: the server is not refusing everything.
    client = spnego.client(DOMAIN + "\\" + USER, PASSWORD, protocol="ntlm")
    first.request("GET", "/one", headers={"Authorization": "NTLM " + base64.b64encode(client.step()).decode()})
    answer = first.getresponse()
    answer.read()
    challenge = base64.b64decode(answer.getheader("WWW-Authenticate").split(" ", 1)[1])
    first.request("GET", "/one", headers={"Authorization": "NTLM " + base64.b64encode(client.step(challenge)).decode()})
    accepted = first.getresponse().status == 200
    return refused and accepted


def main():
    jewz = sys.argv[1]
    with tempfile.NamedTemporaryFile("w", suffix=".ntlm", delete=False) as users:
        users.write("%s:%s:%s\n" % (DOMAIN, USER, PASSWORD))
    os.environ["NTLM_USER_FILE"] = users.name
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), NTLMHandler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = "http://127.0.0.1:%d" % server.server_port

    failures = 0
    ok = split_handshake_fails(server.server_port)
    print("%s a handshake split over two connections is refused, one on one accepted" % ("ok  " if ok else "FAIL"))
    failures += 0 if ok else 1

    cases = [
        # (auth type, user, password, method, items, expected exit)
        ("ntlm", DOMAIN + "\\" + USER, PASSWORD, "GET", [], 0),
        ("auto", DOMAIN + "\\" + USER, PASSWORD, "GET", [], 0),
        ("ntlm", DOMAIN + "\\" + USER, PASSWORD, "POST", ["note=hello"], 0),
        ("ntlm", DOMAIN + "\\" + USER, "wrong", "GET", [], 4),
        ("ntlm", "OTHER\\" + USER, PASSWORD, "GET", [], 4),
    ]
    for auth_type, user, password, method, items, want in cases:
        run = subprocess.run(
            [jewz, "--auth", user + ":" + password, "--auth-type", auth_type, "--print", "b", method, base + "/private", *items],
            capture_output=True, text=True, timeout=60)
        ok = run.returncode == want
        if ok and want == 0:
            answer = json.loads(run.stdout)
            ok = answer.get("authenticated") is True and answer.get("user", "").lower() == (DOMAIN + "\\" + USER).lower()
            ok = ok and answer.get("method") == method and (answer.get("body") > 0) == (method == "POST")
        print("%s %s %s %s %s: exit %d" % ("ok  " if ok else "FAIL", auth_type, user, method, password, run.returncode))
        if not ok:
            print(run.stdout, run.stderr)
            failures += 1
    server.shutdown()
    os.unlink(users.name)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
