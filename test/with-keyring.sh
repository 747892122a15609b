#!/usr/bin/env bash
# Runs a command where a real Secret Service answers, so the keychain test
# talks to gnome-keyring as the app does on a Linux desktop. When a session bus
# already exists (a developer's desktop) the command runs as it is.
set -euo pipefail
if [ -n "${DBUS_SESSION_BUS_ADDRESS:-}" ] || ! command -v dbus-run-session >/dev/null \
   || ! command -v gnome-keyring-daemon >/dev/null; then
  exec "$@"
fi
# A fresh data folder: an old keyring there would be locked with another password.
XDG_DATA_HOME=$(mktemp -d)
export XDG_DATA_HOME
exec dbus-run-session -- bash -c '
  printf pw | gnome-keyring-daemon --daemonize --unlock --components=secrets >/dev/null 2>&1
  exec "$@"' bash "$@"
