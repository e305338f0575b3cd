#!/usr/bin/env bash
# The HTML report's set-up (docs/report.md): the pinned charting library from npm (package-lock.json),
# and with --browser Debian's pinned chromium, which the browser test (test_html_report.py) drives.
# serbench runs this itself when the library or the browser is missing; running it by hand is fine too.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# The major version is pinned, not the build: Debian's security pocket keeps only the newest build
# of a release line, so an exact build pin stops installing at its next security update (it did:
# 156.0.8078.79 was replaced by .108, and the browser tests skipped). apt takes the glob.
CHROMIUM_PIN="chromium=156.0.8078.*"
if [[ "${1:-}" == "--browser" ]]; then
  command -v chromium >/dev/null && exit 0
  # sudo -n: fail at once instead of waiting for a password nobody types (tests run this unattended)
  sudo=""; [[ $(id -u) -eq 0 ]] || sudo="sudo -n"
  export DEBIAN_FRONTEND=noninteractive
  # the security pocket carries the pinned version; update once when apt does not know it yet
  apt-cache madison chromium 2>/dev/null | grep -q ' 156\.0\.8078\.' || $sudo apt-get update -qq
  $sudo apt-get install -y -qq --no-install-recommends "$CHROMIUM_PIN" fonts-dejavu-core
  exit 0
fi
command -v npm >/dev/null || { echo "npm not found: apt-get install -y npm, then run $0" >&2; exit 3; }
cd "$here"
npm ci --no-audit --no-fund --loglevel=error
