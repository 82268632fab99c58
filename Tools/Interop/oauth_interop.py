#!/usr/bin/env python3
"""Interop check run by .ci/run: `jewz --oauth2` and `jewz auth` against django-oauth-toolkit,
an independent OAuth 2.0 authorization server, served on a free loopback port by this process
(SQLite in a scratch directory).

The user's part is played here as a browser would play it: signed in to Django, the user
approves the device (the toolkit's own forms) while jewz polls, and the authorization redirect
is followed to jewz's loopback listener.

Checked: client credentials with the secret in a Basic header and in the form, a wrong secret
refused with a clear error, the device grant, the authorization code with PKCE through the
loopback redirect, refresh with rotation (the old refresh token revoked by the server), and
revocation on `jewz auth logout`.

Usage: oauth_interop.py PATH_TO_JEWZ
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import urllib.request
from datetime import timedelta
from socketserver import ThreadingMixIn
from wsgiref.simple_server import WSGIRequestHandler, WSGIServer, make_server

SCRATCH = tempfile.mkdtemp(prefix="jewz-oauth-interop-")


class QuietHandler(WSGIRequestHandler):
    def log_message(self, *args):
        pass


class ThreadingServer(ThreadingMixIn, WSGIServer):
    daemon_threads = True


# Bound first, so that the settings can name the server's own URL (the device verification URI).
SERVER = make_server("127.0.0.1", 0, None, server_class=ThreadingServer, handler_class=QuietHandler)
BASE = "http://127.0.0.1:%d" % SERVER.server_port

import django  # noqa: E402
from django.conf import settings  # noqa: E402

settings.configure(
    DEBUG=False,
    DEBUG_PROPAGATE_EXCEPTIONS=True,
    SECRET_KEY="interop-only",
    ALLOWED_HOSTS=["127.0.0.1", "testserver"],
    ROOT_URLCONF=__name__,
    INSTALLED_APPS=[
        "django.contrib.auth", "django.contrib.contenttypes", "django.contrib.sessions", "oauth2_provider",
    ],
    MIDDLEWARE=[
        "django.contrib.sessions.middleware.SessionMiddleware",
        "django.middleware.csrf.CsrfViewMiddleware",
        "django.contrib.auth.middleware.AuthenticationMiddleware",
    ],
    TEMPLATES=[{"BACKEND": "django.template.backends.django.DjangoTemplates", "APP_DIRS": True, "OPTIONS": {}}],
    DATABASES={"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": os.path.join(SCRATCH, "db.sqlite3")}},
    USE_TZ=True,
    LOGIN_URL="/accounts/login/",
    OAUTH2_PROVIDER={
        "SCOPES": {"read": "Read", "profile": "Profile"},
        "PKCE_REQUIRED": True,
        "ROTATE_REFRESH_TOKEN": True,
        "DEVICE_FLOW_INTERVAL": 1,
        "OAUTH_DEVICE_VERIFICATION_URI": BASE + "/o/device/",
    },
)
django.setup()

from django.contrib.auth.models import User  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.core.wsgi import get_wsgi_application  # noqa: E402
from django.http import JsonResponse  # noqa: E402
from django.test import Client  # noqa: E402
from django.urls import include, path  # noqa: E402
from oauth2_provider.oauth2_backends import get_oauthlib_core  # noqa: E402
from oauth2_provider.models import AccessToken, Application, DeviceGrant, RefreshToken  # noqa: E402
from oauth2_provider.urls import metadata_urlpatterns  # noqa: E402


def me(request):
    valid, checked = get_oauthlib_core().verify_request(request, scopes=[])
    if not valid:
        answer = JsonResponse({"error": "invalid_token"}, status=401)
        answer["WWW-Authenticate"] = 'Bearer error="invalid_token"'
        return answer
    user = checked.access_token.user
    return JsonResponse({"user": user.username if user else None, "scope": sorted(checked.access_token.scope.split())})


urlpatterns = [
    path("o/", include("oauth2_provider.urls", namespace="oauth2_provider")),
    path("", include(metadata_urlpatterns)),
    path("api/me", me),
]

SECRET = "interop-s3cret"


def set_up():
    call_command("migrate", verbosity=0)
    ada = User.objects.create_user("ada", password="pw")
    apps = {}
    for name, grant, client_type in (
        ("service", Application.GRANT_CLIENT_CREDENTIALS, Application.CLIENT_CONFIDENTIAL),
        ("device", Application.GRANT_DEVICE_CODE, Application.CLIENT_PUBLIC),
        ("browser", Application.GRANT_AUTHORIZATION_CODE, Application.CLIENT_PUBLIC),
    ):
        app = Application(
            name=name, client_id="jewz-" + name, client_type=client_type, authorization_grant_type=grant,
            redirect_uris="http://127.0.0.1/callback", skip_authorization=True, user=ada)
        if client_type == Application.CLIENT_CONFIDENTIAL:
            app.client_secret = SECRET
        app.save()
        apps[name] = app
    return ada


class Checks:
    def __init__(self, jewz, base):
        self.jewz, self.base, self.failures = jewz, base, 0
        self.env = dict(os.environ, XDG_CONFIG_HOME=os.path.join(SCRATCH, "config"))

    def check(self, ok, name, run=None):
        print("%s %s" % ("ok  " if ok else "FAIL", name))
        if not ok:
            self.failures += 1
            if run is not None:
                print(run.stdout, run.stderr)

    def jewz_run(self, *arguments):
        return subprocess.run([self.jewz, *arguments], capture_output=True, text=True, timeout=60, env=self.env)

    def interactive(self, arguments, act):
        """Runs jewz, handing each line of its standard error to `act` until it ends."""
        process = subprocess.Popen(
            [self.jewz, *arguments], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=self.env)
        errors = []
        for line in process.stderr:
            errors.append(line)
            act(line)
        output = process.stdout.read()
        process.wait(timeout=60)
        return subprocess.CompletedProcess(arguments, process.returncode, output, "".join(errors))


def main():
    jewz = sys.argv[1]
    ada = set_up()
    server, base = SERVER, BASE
    server.set_app(get_wsgi_application())
    threading.Thread(target=server.serve_forever, daemon=True).start()
    checks = Checks(jewz, base)
    me = base + "/api/me"

    # Client credentials, the secret in a Basic header, then in the form.
    for extra in ([], ["--client-auth", "post"]):
        run = checks.jewz_run("--oauth2", "client-credentials", "--issuer", base, "--client", "jewz-service:" + SECRET,
                              "--scope", "read", *extra, me)
        checks.check(run.returncode == 0 and json.loads(run.stdout or "{}").get("scope") == ["read"],
                     "client credentials %s" % (extra or "basic"), run)
    run = checks.jewz_run("--oauth2", "client-credentials", "--issuer", base, "--client", "jewz-service:wrong", me)
    checks.check(run.returncode == 4 and "invalid_client" in run.stderr and "wrong" not in run.stderr, "a wrong secret refused", run)

    # The device grant: the user, signed in to Django, enters the code and approves.
    user = Client()
    user.force_login(ada)

    def approve_device(line):
        match = re.search(r"enter the code (\S+)", line)
        if match:
            code = match.group(1)
            grant = DeviceGrant.objects.get(user_code=code)
            user.post("/o/device/", {"user_code": code})
            user.post("/o/device-confirm/%s/%s" % (grant.client_id, code), {"action": "accept"})

    device = ["--client", "jewz-device", "--scope", "read profile"]
    run = checks.interactive(["auth", "login", base, "--device-url", base + "/o/device-authorization/", *device], approve_device)
    checks.check(run.returncode == 0 and "Signed in as jewz-device" in run.stdout, "device grant", run)
    stored = ["--oauth2", "stored", "--issuer", base, "--client", "jewz-device", me]
    run = checks.jewz_run(*stored)
    checks.check(run.returncode == 0 and json.loads(run.stdout or "{}").get("user") == "ada", "the stored token", run)

    # Refresh with rotation: the access token expires; the next run refreshes, and the old
    # refresh token is revoked by the server.
    old_refresh = RefreshToken.objects.get(application__client_id="jewz-device", revoked__isnull=True).token
    AccessToken.objects.filter(application__client_id="jewz-device").update(expires=django.utils.timezone.now() - timedelta(minutes=1))
    run = checks.jewz_run(*stored)
    rotated = RefreshToken.objects.get(token=old_refresh).revoked is not None
    current = RefreshToken.objects.filter(application__client_id="jewz-device", revoked__isnull=True).count() == 1
    checks.check(run.returncode == 0 and rotated and current, "refresh with rotation", run)

    # Revocation on sign-out.
    run = checks.jewz_run("auth", "logout", base, *device)
    live = AccessToken.objects.filter(application__client_id="jewz-device").count()
    checks.check(run.returncode == 0 and live == 0, "revocation on logout", run)
    run = checks.jewz_run(*stored)
    checks.check(run.returncode == 4 and "jewz auth login" in run.stderr, "signed out: a clear error", run)

    # The authorization code with PKCE: the browser follows the sign-in URL (the user is signed
    # in; the application skips the consent page) and the redirect to jewz's listener.
    def follow_sign_in(line):
        url = line.strip()
        if "/o/authorize/?" in url:
            answer = user.get(url[len(base):])
            location = answer.headers.get("Location", "")
            if location.startswith("http://127.0.0.1:"):
                urllib.request.urlopen(location, timeout=30).read()

    run = checks.interactive(["auth", "login", base, "--client", "jewz-browser", "--scope", "profile", "--browser"], follow_sign_in)
    checks.check(run.returncode == 0 and "Signed in as jewz-browser" in run.stdout, "authorization code with PKCE, loopback redirect", run)
    run = checks.jewz_run("--oauth2", "stored", "--issuer", base, "--client", "jewz-browser", me)
    checks.check(run.returncode == 0 and json.loads(run.stdout or "{}").get("scope") == ["profile"], "the browser's token", run)

    server.shutdown()
    shutil.rmtree(SCRATCH, ignore_errors=True)
    sys.exit(1 if checks.failures else 0)


if __name__ == "__main__":
    main()
