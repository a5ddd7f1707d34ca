#!/bin/sh
# The alert rules are checked with Prometheus's own promtool (Debian's prometheus package ships
# it): install it when it is missing and we may, otherwise say what to do.
set -eu
if command -v promtool >/dev/null 2>&1; then
  exit 0
fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "ensure-promtool: promtool is missing; installing Debian's prometheus package with apt-get" >&2
  DEBIAN_FRONTEND=noninteractive apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends prometheus >/dev/null
  command -v promtool >/dev/null 2>&1 && exit 0
  echo "ensure-promtool: apt-get finished but promtool is still missing" >&2
  exit 1
fi
echo "ensure-promtool: the alert rule checks need promtool on PATH." >&2
echo "  Install it as root (Debian/Ubuntu: apt-get install prometheus), then run the tests again." >&2
exit 1
