#!/usr/bin/env python3
"""Interop check run by .ci/run: `jewz --aws-sigv4` against two implementations that are not
ours.

- botocore as a second signer: requests jewz prints with `--offline` (S3 and a form-posting
  service, queries and paths that need encoding, a session token) are signed again by
  botocore at the same instant; the signatures must be equal.
- botocore's presigner: a URL `jewz --presign` makes, for S3 and for STS, carries the signature
  botocore gives the same URL at the same instant. (moto's authentication reads only the Authorization header: a
  presigned request to it fails inside moto, so it cannot be the judge of one.)
- moto's S3 server on loopback, with its request authentication on (an IAM user and its key,
  every signature checked, a wrong one refused): jewz creates a bucket, puts, gets, lists and
  deletes objects, and uploads a 24 MiB file in signed chunks that comes back byte for byte.

Usage: s3_interop.py PATH_TO_JEWZ
"""
import datetime
import hashlib
import json
import logging
import os
import subprocess
import sys
import tempfile
from unittest import mock

# Every request after the IAM set-up (a user, its policy, its key) is authenticated.
os.environ["INITIAL_NO_AUTH_ACTION_COUNT"] = "3"
os.environ.setdefault("AWS_DEFAULT_REGION", "us-east-1")

import boto3  # noqa: E402
import botocore.auth  # noqa: E402
from botocore.awsrequest import AWSRequest  # noqa: E402
from botocore.credentials import Credentials  # noqa: E402
from moto.server import ThreadedMotoServer  # noqa: E402

REGION = "us-east-1"
logging.getLogger("werkzeug").setLevel(logging.ERROR)
failures = 0


def check(ok, name, run=None):
    global failures
    print("%s %s" % ("ok  " if ok else "FAIL", name))
    if not ok:
        failures += 1
        if run is not None:
            print(run.stdout if isinstance(run.stdout, str) else run.stdout[:2000], run.stderr)


def jewz(binary, *arguments, credentials=None):
    """Runs jewz with `credentials` (access key, secret, token) in the standard variables, if given."""
    key, secret, token = credentials or ("", "", "")
    env = dict(os.environ, AWS_ACCESS_KEY_ID=key, AWS_SECRET_ACCESS_KEY=secret, AWS_SESSION_TOKEN=token,
               AWS_SHARED_CREDENTIALS_FILE="/nonexistent")
    return subprocess.run([binary, *arguments], capture_output=True, timeout=120, env=env)


def botocore_agrees(binary):
    """jewz's offline requests, signed again by botocore at their own X-Amz-Date."""
    key = Credentials("AKIDEXAMPLE", "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY", "session/t0ken+=")
    # URLs as botocore writes them (every byte but A-Z a-z 0-9 - _ . ~ encoded in a query, and
    # but those and / in an S3 path): botocore signs the URL it is given as it stands.
    cases = [
        ("s3", ["GET", "https://examplebucket.s3.us-east-1.amazonaws.com/?list-type=2&prefix=photos%2Fa%20b&max-keys=5"]),
        ("s3", ["PUT", "https://s3.us-east-1.amazonaws.com/examplebucket/dir/a%20b%2Bc~d%C3%A9.txt", "--raw", "hello, world"]),
        ("s3", ["DELETE", "https://s3.us-east-1.amazonaws.com/examplebucket/key?versionId=3"]),
        ("sqs", ["--form", "POST", "https://sqs.us-east-1.amazonaws.com/", "Action=ListQueues", "Version=2012-11-05"]),
        ("execute-api", ["GET", "https://api.example.com/stage/a/./b/../c?b=2&a=1&a=0"]),
    ]
    for service, words in cases:
        run = jewz(binary, "--offline", "--aws-sigv4", "aws:amz:%s:%s" % (REGION, service), *words,
                   credentials=(key.access_key, key.secret_key, key.token))
        text = run.stdout.decode("utf-8", "replace")
        head, _, body = text.partition("\n\n")
        lines = head.split("\n")
        method, target, _ = lines[0].split(" ", 2)
        headers = dict(line.split(": ", 1) for line in lines[1:] if ": " in line)
        sent = headers.pop("Authorization", "")
        # Sent, but not among the fields jewz signs (the printer shows the length it will send).
        headers.pop("Content-Length", None)
        host = headers.get("Host", "")
        request = AWSRequest(method=method, url="https://" + host + target, data=body.rstrip("\n").encode(), headers=headers)
        at = datetime.datetime.strptime(headers.get("X-Amz-Date", "19700101T000000Z"), "%Y%m%dT%H%M%SZ")
        signer = (botocore.auth.S3SigV4Auth if service == "s3" else botocore.auth.SigV4Auth)(key, service, REGION)
        with mock.patch("botocore.auth.get_current_datetime", return_value=at):
            signer.add_auth(request)
        theirs = request.headers["Authorization"].split("Signature=")[-1]
        ours = sent.split("Signature=")[-1]
        check(run.returncode == 0 and theirs == ours, "botocore signs %s %s alike" % (method, target), run)

    credentials = (key.access_key, key.secret_key, key.token)
    presign_agrees(binary, credentials, "s3", "https://examplebucket.s3.us-east-1.amazonaws.com/photos/a%20b.jpg?versionId=7", 600,
                   botocore.auth.S3SigV4QueryAuth(key, "s3", REGION, expires=600), "botocore presigns the same URL alike")
    # Any service but S3 signs the payload's hash (an empty GET's), not UNSIGNED-PAYLOAD: an STS
    # GetCallerIdentity URL, as EKS tokens are made.
    presign_agrees(binary, credentials, "sts", "https://sts.us-east-1.amazonaws.com/?Action=GetCallerIdentity&Version=2011-06-15", 60,
                   botocore.auth.SigV4QueryAuth(key, "sts", REGION, expires=60), "botocore presigns an STS URL alike")


def presign_agrees(binary, credentials, service, url, expires, presigner, name):
    """`jewz --presign` of `url` carries the signature `presigner` gives it at the same instant."""
    run = jewz(binary, "--aws-sigv4", "aws:amz:%s:%s" % (REGION, service), "--presign", str(expires), url, credentials=credentials)
    link = run.stdout.decode().strip()
    query = dict(pair.split("=", 1) for pair in link.split("?", 1)[-1].split("&"))
    at = datetime.datetime.strptime(query.get("X-Amz-Date", "19700101T000000Z"), "%Y%m%dT%H%M%SZ")
    request = AWSRequest(method="GET", url=url)
    with mock.patch("botocore.auth.get_current_datetime", return_value=at):
        presigner.add_auth(request)
    theirs = dict(pair.split("=", 1) for pair in request.url.split("?", 1)[-1].split("&")).get("X-Amz-Signature")
    check(run.returncode == 0 and theirs == query.get("X-Amz-Signature"), name, run)


def moto_s3(binary, scratch):
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
    server.start()
    host, port = server.get_host_and_port()
    base = "http://%s:%d" % (host, port)
    iam = boto3.client("iam", endpoint_url=base, region_name=REGION, aws_access_key_id="setup", aws_secret_access_key="setup")
    iam.create_user(UserName="jewz")
    iam.put_user_policy(UserName="jewz", PolicyName="s3", PolicyDocument=json.dumps(
        {"Version": "2012-10-17", "Statement": [{"Effect": "Allow", "Action": "s3:*", "Resource": "*"}]}))
    created = iam.create_access_key(UserName="jewz")["AccessKey"]
    key = "%s:%s" % (created["AccessKeyId"], created["SecretAccessKey"])
    signed = ["-u", key, "--aws-sigv4", "aws:amz:%s:s3" % REGION]

    run = jewz(binary, *signed, "PUT", base + "/interop-bucket")
    check(run.returncode == 0, "create a bucket", run)
    run = jewz(binary, *signed, "PUT", base + "/interop-bucket/notes/hello world.txt", "--raw", "hello from jewz")
    check(run.returncode == 0, "put an object", run)
    run = jewz(binary, *signed, "--print", "b", base + "/interop-bucket/notes/hello%20world.txt")
    check(run.returncode == 0 and run.stdout.decode().strip() == "hello from jewz", "get it back", run)

    big = os.path.join(scratch, "big.bin")
    with open(big, "wb") as file:
        file.write(os.urandom(24 << 20))
    run = jewz(binary, *signed, "PUT", base + "/interop-bucket/big.bin", "--upload", big)
    check(run.returncode == 0, "upload 24 MiB in signed chunks", run)
    fetched = os.path.join(scratch, "fetched.bin")
    run = jewz(binary, *signed, "--output", fetched, base + "/interop-bucket/big.bin")
    with open(big, "rb") as a, open(fetched, "rb") as b:
        same = hashlib.sha256(a.read()).digest() == hashlib.sha256(b.read()).digest()
    check(run.returncode == 0 and same, "the upload comes back byte for byte", run)

    run = jewz(binary, *signed, "--print", "b", base + "/interop-bucket?list-type=2")
    listing = run.stdout.decode()
    check(run.returncode == 0 and "<Key>big.bin</Key>" in listing and "<Key>notes/hello world.txt</Key>" in listing, "list the bucket", run)

    wrong = ["-u", created["AccessKeyId"] + ":wrong", "--aws-sigv4", "aws:amz:%s:s3" % REGION]
    run = jewz(binary, *wrong, base + "/interop-bucket/big.bin")
    check(run.returncode == 4 and b"403" in run.stderr, "a wrong secret is refused", run)

    for name in ("big.bin", "notes/hello%20world.txt"):
        run = jewz(binary, *signed, "DELETE", base + "/interop-bucket/" + name)
        check(run.returncode == 0, "delete %s" % name, run)
    run = jewz(binary, *signed, "--print", "b", base + "/interop-bucket?list-type=2")
    check(run.returncode == 0 and b"<KeyCount>0</KeyCount>" in run.stdout, "the bucket is empty", run)
    server.stop()


def main():
    binary = sys.argv[1]
    botocore_agrees(binary)
    with tempfile.TemporaryDirectory(prefix="jewz-s3-interop-") as scratch:
        moto_s3(binary, scratch)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
