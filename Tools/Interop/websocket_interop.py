#!/usr/bin/env python3
"""Interop check run by .ci/run: `jewz ws` against Python's `websockets` servers — echo of text
and binary up to 16 MiB, fragmented messages, the server's ping, the close handshake started by
either side, permessage-deflate on and off, through `jewz proxy` (CONNECT) and over TLS.

Usage: websocket_interop.py PATH_TO_JEWZ
"""
import asyncio
import datetime
import ipaddress
import os
import ssl
import subprocess
import sys
import tempfile
import threading
import time

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID
from websockets.asyncio.server import serve
from websockets.exceptions import ConnectionClosed

EXTENSIONS = []     # the extensions each connection agreed to, by name
CLOSE_CODES = []    # the close code each connection ended with, as the server saw it
BIG = "x" * (16 << 20)


async def handler(connection):
    path = connection.request.path
    EXTENSIONS.append([extension.name for extension in connection.protocol.extensions])
    try:
        if path == "/close":
            await connection.recv()
            await connection.close(4001, "bye")
        elif path == "/fragments":
            await connection.recv()
            await connection.send(["frag", "men", "ted"])
        elif path == "/ping":
            await asyncio.wait_for(await connection.ping(b"py"), timeout=10)
            await connection.send("pong received")
        async for message in connection:
            await connection.send(message)
    except ConnectionClosed:
        pass  # the client closed while an echo was due: the close code below says how
    finally:
        CLOSE_CODES.append(connection.close_code)


def certificate(directory):
    """A self-signed certificate for localhost and 127.0.0.1: its PEM files' paths."""
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "localhost")])
    now = datetime.datetime.now(datetime.timezone.utc)
    cert = (x509.CertificateBuilder().subject_name(name).issuer_name(name).public_key(key.public_key())
            .serial_number(x509.random_serial_number()).not_valid_before(now - datetime.timedelta(days=1))
            .not_valid_after(now + datetime.timedelta(days=1))
            .add_extension(x509.SubjectAlternativeName([x509.DNSName("localhost"), x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]), False)
            .add_extension(x509.BasicConstraints(ca=True, path_length=None), True)
            .sign(key, hashes.SHA256()))
    cert_path, key_path = os.path.join(directory, "cert.pem"), os.path.join(directory, "key.pem")
    with open(cert_path, "wb") as file:
        file.write(cert.public_bytes(serialization.Encoding.PEM))
    with open(key_path, "wb") as file:
        file.write(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()))
    return cert_path, key_path


def start_servers(cert_path, key_path):
    """Three servers on an event loop of their own: deflate, no compression, TLS. Their ports."""
    ports = {}
    ready = threading.Event()
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert_path, key_path)

    async def run():
        servers = {
            "deflate": await serve(handler, "127.0.0.1", 0, max_size=None),
            "plain": await serve(handler, "127.0.0.1", 0, max_size=None, compression=None),
            "tls": await serve(handler, "127.0.0.1", 0, max_size=None, ssl=context),
        }
        for name, server in servers.items():
            ports[name] = next(iter(server.sockets)).getsockname()[1]
        ready.set()
        await asyncio.Future()

    threading.Thread(target=lambda: asyncio.run(run()), daemon=True).start()
    if not ready.wait(30):
        sys.exit("the websockets servers did not start")
    return ports


def start_proxy(jewz):
    process = subprocess.Popen([jewz, "proxy", "--port", "0"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = process.stdout.readline()
    url = next((word.rstrip(",") for word in line.split() if word.startswith("http://")), None)
    if url is None:
        process.kill()
        sys.exit("jewz proxy announced no URL: %r" % line)
    return process, url


def main():
    jewz = sys.argv[1]
    scratch = tempfile.mkdtemp(prefix="jewz-ws-interop-")
    cert_path, key_path = certificate(scratch)
    ports = start_servers(cert_path, key_path)
    proxy, proxy_url = start_proxy(jewz)
    deflate, plain = "ws://127.0.0.1:%d" % ports["deflate"], "ws://127.0.0.1:%d" % ports["plain"]
    secure = "wss://localhost:%d" % ports["tls"]
    cases = [
        # (name, arguments, standard input, check of the run)
        ("text, deflate agreed", [deflate + "/echo"], "hello\nwörld\n",
         lambda r: r.stdout == "hello\nwörld\n" and EXTENSIONS[-1] == ["permessage-deflate"] and CLOSE_CODES[-1] == 1000),
        ("text, no compression on the server", [plain + "/echo"], "plain\n",
         lambda r: r.stdout == "plain\n" and EXTENSIONS[-1] == []),
        ("text, compression not offered", ["--no-compression", deflate + "/echo"], "asked\n",
         lambda r: r.stdout == "asked\n" and EXTENSIONS[-1] == []),
        ("binary as JSON", ["--binary", "--json", deflate + "/echo"], "abc\n",
         lambda r: r.stdout == '{"binary":"YWJj"}\n'),
        ("16 MiB each way, deflate", ["--max-message", "17", "--linger", "5", deflate + "/echo"], BIG + "\n",
         lambda r: r.stdout == BIG + "\n"),
        ("16 MiB each way, plain", ["--max-message", "17", "--linger", "5", plain + "/echo"], BIG + "\n",
         lambda r: r.stdout == BIG + "\n"),
        ("16 MiB binary each way", ["--binary", "--max-message", "17", "--linger", "5", deflate + "/echo"], BIG + "\n",
         lambda r: r.stdout == BIG + "\n"),
        ("a fragmented message", [deflate + "/fragments"], "go\n",
         lambda r: r.stdout == "fragmented\n"),
        ("the server's ping answered", [deflate + "/ping"], "",
         lambda r: r.stdout == "pong received\n"),
        ("the server closes with 4001", [deflate + "/close"], "x\n",
         lambda r: "4001: bye" in r.stderr),
        ("through jewz proxy (CONNECT)", ["--proxy", proxy_url, deflate + "/echo"], "tunnelled\n",
         lambda r: r.stdout == "tunnelled\n"),
        ("over TLS", ["--verify", cert_path, secure + "/echo"], "secret\n",
         lambda r: r.stdout == "secret\n" and EXTENSIONS[-1] == ["permessage-deflate"]),
        ("over TLS through jewz proxy", ["--verify", cert_path, "--proxy", proxy_url, secure + "/echo"], "both\n",
         lambda r: r.stdout == "both\n"),
        ("an untrusted certificate is refused", [secure + "/echo"], "x\n",
         lambda r: r.returncode == 2),
    ]
    failures = 0
    for name, arguments, given, check in cases:
        linger = [] if "--linger" in arguments else ["--linger", "0.3"]
        run = subprocess.run([jewz, "ws"] + linger + arguments, input=given, capture_output=True, text=True, timeout=120)
        time.sleep(0.05)  # the server's handler records the close code as the connection ends
        try:
            expected_status = 2 if name.startswith("an untrusted") else 0
            ok = run.returncode == expected_status and check(run)
        except Exception as error:
            ok = False
            print("  %s: %r" % (name, error))
        print("%s %s: exit %d" % ("ok  " if ok else "FAIL", name, run.returncode))
        if not ok:
            print(run.stdout[:500], run.stderr[:2000], EXTENSIONS[-3:], CLOSE_CODES[-3:])
            failures += 1
    proxy.kill()
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
