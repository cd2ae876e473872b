#!/usr/bin/env bash
# Regenerates src/vision/ocr/fixed-font-glyphs.ts: the bitmaps of X's "fixed" font (6×13, the
# core font of every X server: xterm's default, and what Athena apps such as xcalc get on a bare
# Xvfb), as xterm draws them. Run by hand; the table is committed. Needs Xvfb, xterm, xdotool,
# imagemagick.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
. "$root/scripts/own-xvfb.sh"
# The 95 printable ASCII characters on the first row of a cursor-less xterm (2 px border).
python3 -c "print(''.join(chr(c) for c in range(32, 127)), end='')" >"$work/ascii.txt"
xterm -title fixed-font -geometry 100x2 -e sh -c "cat '$work/ascii.txt'; printf '\033[?25l'; sleep 60" & app=$!
for _ in $(seq 100); do
  win="$(xdotool search --onlyvisible --name '^fixed-font$' 2>/dev/null | head -1 || true)"
  [ -n "$win" ] && break
  sleep 0.1
done
sleep 0.5
import -window "$win" "$work/ascii.png"
cd "$root"
node --import tsx scripts/fixed-font-table.ts "$work/ascii.png" >src/vision/ocr/fixed-font-glyphs.ts
echo "make-fixed-font: wrote src/vision/ocr/fixed-font-glyphs.ts" >&2
