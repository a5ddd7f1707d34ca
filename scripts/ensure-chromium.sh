#!/bin/sh
# Browser tests drive Debian's chromium-headless-shell (the headless build Playwright itself runs
# tests in: about half of chromium's CPU per page), benchmarks Debian's chromium, both through
# playwright-core (no browser download): install them when missing and we may, otherwise say what
# to do.
set -eu
BROWSERS="/usr/bin/chromium /usr/bin/chromium-headless-shell"
missing() {
  for b in $BROWSERS; do [ -x "$b" ] || return 0; done
  return 1
}
missing || exit 0
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "ensure-chromium: installing Debian's chromium and chromium-headless-shell with apt-get" >&2
  DEBIAN_FRONTEND=noninteractive apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-headless-shell >/dev/null
  missing || exit 0
  echo "ensure-chromium: apt-get finished but one of $BROWSERS is still missing" >&2
  exit 1
fi
echo "ensure-chromium: the browser tests need $BROWSERS." >&2
echo "  Install them as root (Debian/Ubuntu: apt-get install chromium chromium-headless-shell), then run the tests again." >&2
exit 1
