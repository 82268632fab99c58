"""Python's httpbin served on a free loopback port by werkzeug, in a thread of this process:
the server the interop checks run `jewz` against."""
import logging
import threading

from httpbin import app
from werkzeug.serving import make_server


def start_httpbin():
    """Starts httpbin and returns (server, base URL); call server.shutdown() when done."""
    logging.getLogger("werkzeug").setLevel(logging.ERROR)
    server = make_server("127.0.0.1", 0, app, threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, "http://127.0.0.1:%d" % server.server_port
