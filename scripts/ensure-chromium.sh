#!/bin/sh
# Browser tests drive Debian's chromium-headless-shell (the headless build Playwright itself runs
# tests in: about half of chromium's CPU per page), benchmarks Debian's chromium (`ensure-chromium.sh
# chromium`), both through playwright-core (no browser download): install the package named when it
# is missing and we may, otherwise say what to do.
set -eu
PACKAGE=${1:-chromium-headless-shell}
BROWSER=/usr/bin/$PACKAGE
if [ -x "$BROWSER" ]; then
  exit 0
fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "ensure-chromium: $BROWSER is missing; installing Debian's $PACKAGE with apt-get" >&2
  DEBIAN_FRONTEND=noninteractive apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$PACKAGE" >/dev/null
  [ -x "$BROWSER" ] && exit 0
  echo "ensure-chromium: apt-get finished but $BROWSER is still missing" >&2
  exit 1
fi
echo "ensure-chromium: this needs $BROWSER." >&2
echo "  Install it as root (Debian/Ubuntu: apt-get install $PACKAGE), then run again." >&2
exit 1
