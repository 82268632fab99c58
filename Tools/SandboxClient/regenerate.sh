#!/usr/bin/env bash
# Regenerates the Sandbox's OpenAPI client (Sources/Generated) from the document the Sandbox
# serves at /openapi.yaml, read as if it were at 127.0.0.1:8080, and records the document's
# SHA-256, which SandboxClientTests compares with the Sandbox's document of the day: a test fails
# when the document changed and this was not run.
#
#   Tools/SandboxClient/regenerate.sh
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
cd "$root"
swift build --product jewz
jewz="$(swift build --show-bin-path)/jewz"
log="$(mktemp)"
"$jewz" serve --port 0 >"$log" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null; rm -f "$log"' EXIT
for _ in $(seq 100); do grep -q "127.0.0.1:" "$log" && break; sleep 0.1; done
address="$(grep -o '127\.0\.0\.1:[0-9]*' "$log" | head -1)"
document="$here/openapi.yaml"
curl --fail --silent --show-error -H "Host: 127.0.0.1:8080" "http://$address/openapi.yaml" >"$document"
swift run --package-path "$here/Generator" swift-openapi-generator generate \
    --config "$here/openapi-generator-config.yaml" --output-directory "$here/Sources/Generated" "$document"
python3 "$here/demote-imports.py" "$here/Sources/Generated"
digest="$(sha256sum "$document" | cut -d' ' -f1)"
cat >"$here/Sources/GeneratedFrom.swift" <<SWIFT
// Written by regenerate.sh; do not edit.

/// What the code in Generated/ was generated from.
public enum GeneratedFrom {
    /// The SHA-256 of the Sandbox's OpenAPI document (served for 127.0.0.1:8080).
    public static let documentSHA256 = "$digest"
}
SWIFT
echo "regenerated from $document ($digest)"
