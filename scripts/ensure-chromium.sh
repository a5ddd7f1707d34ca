#!/bin/sh
# Browser tests drive Debian's chromium through playwright-core (no browser download): install it
# when it is missing and we may, otherwise say what to do.
set -eu
CHROMIUM=/usr/bin/chromium
if [ -x "$CHROMIUM" ]; then
  exit 0
fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "ensure-chromium: $CHROMIUM is missing; installing Debian's chromium with apt-get" >&2
  DEBIAN_FRONTEND=noninteractive apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  [ -x "$CHROMIUM" ] && exit 0
  echo "ensure-chromium: apt-get finished but $CHROMIUM is still missing" >&2
  exit 1
fi
echo "ensure-chromium: the browser tests need Chromium at $CHROMIUM." >&2
echo "  Install it as root (Debian/Ubuntu: apt-get install chromium), then run the tests again." >&2
exit 1
