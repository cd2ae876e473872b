#!/usr/bin/env bash
# Installs what retrace needs on a fresh Debian/Ubuntu machine, and nothing that is already there:
# the X tools and apps from apt, then the npm dependencies. Safe to run again.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

# The X server and tools; the fonts retrace gives the apps it launches (DejaVu) and fontconfig's
# tools (fc-list, for the tests); the session services of a desktop (D-Bus, the accessibility bus, an
# XSETTINGS manager that turns animations off); a VNC bridge for watching a display; and the
# third-party apps of the real-app corpus (specs/real); GTK 3 (Python GI) and Qt 5 (PyQt5) for the
# order forms of the toolkit corpus (fixtures/apps/order).
packages=(xvfb x11-xserver-utils x11-utils x11-xkb-utils xdotool fonts-dejavu-core fonts-dejavu-extra fontconfig
  dbus dbus-x11 at-spi2-core xsettingsd x11vnc
  chromium galculator mousepad xterm zenity x11-apps python3-tk featherpad
  gnome-calculator default-jdk libatk-wrapper-java libatk-wrapper-java-jni
  gtk-3-examples speedcrunch l3afpad yad
  python3-gi gir1.2-gtk-3.0 python3-pyqt5)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "retrace setup: installing ${missing[*]}" >&2
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# npm ci only when node_modules was not installed from this very lock file.
stamp=node_modules/.retrace-lock.sha256
want="$(sha256sum package-lock.json | cut -d' ' -f1)"
if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
  echo "retrace setup: npm ci" >&2
  npm ci --no-audit --no-fund --loglevel=error
  echo "$want" > "$stamp"
fi
