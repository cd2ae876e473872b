#!/usr/bin/env bash
# Regenerates the test screenshots in this folder. Run by hand, once; never at test time.
# Needs: Xvfb, galculator, xdotool, imagemagick (import), chromium.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
display=":173"

# galculator.png / galculator-84.png: the real calculator (GTK 3, default theme), 331×343.
Xvfb "$display" -screen 0 800x600x24 -nolisten tcp & xvfb=$!
trap 'kill $calc $xvfb 2>/dev/null || true' EXIT
sleep 1
DISPLAY=$display galculator & calc=$!
sleep 2
win=$(DISPLAY=$display xwininfo -root -tree | awk '/"galculator": \("galculator"/ && !/10x10/ {print $1; exit}')
DISPLAY=$display import -window "$win" "$here/galculator.png"
DISPLAY=$display xdotool windowfocus "$win" type --delay 50 "12*7="
sleep 0.5
DISPLAY=$display import -window "$win" "$here/galculator-84.png"

# settings.png (420×260) and keypad.png (248×276): HTML pages rendered by headless chromium.
chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --force-device-scale-factor=1 \
  --window-size=420,260 --screenshot="$here/settings.png" "file://$here/settings.html"
chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --force-device-scale-factor=1 \
  --window-size=248,276 --screenshot="$here/keypad.png" "file://$here/keypad.html"

# fixture-*.png: retrace's own fixture apps (fixtures/apps) as real windows on Xvfb, default sizes.
apps="$(cd "$here/../../../fixtures/apps" && pwd)"
kill $calc 2>/dev/null || true
DISPLAY=$display "$apps/snapshot" settings 'start=display&dark=on' "$here/fixture-settings-dark.png" >/dev/null
DISPLAY=$display "$apps/open" calculator >/dev/null 2>&1 & app=$!
trap 'kill $app $xvfb 2>/dev/null || true' EXIT
sleep 2
win=$(DISPLAY=$display xdotool search --all --pid "$app" --name '^Retrace Calculator$' | head -1)
shot() { eval "$(DISPLAY=$display xdotool getwindowgeometry --shell "$win")"; DISPLAY=$display import -window root -crop "${WIDTH}x${HEIGHT}+${X}+${Y}" +repage "$1"; }
DISPLAY=$display xdotool windowfocus --sync "$win" type --delay 80 '12*7'
DISPLAY=$display xdotool key Return
sleep 0.6
shot "$here/fixture-calculator-84.png"
DISPLAY=$display xdotool key Escape type --delay 80 '7+8'
sleep 0.6
shot "$here/fixture-calculator-7-plus-8.png"

# fixture-calculator-84-dark.png, fixture-calculator-84-larger.png: the same "12*7" Enter on the
# theme=dark and font=larger variants; fixture-calculator-12-times-larger.png: "12*" on font=larger.
kill $app 2>/dev/null || true
for variant in dark:theme=dark larger:font=larger; do
  DISPLAY=$display "$apps/open" calculator "${variant#*:}" >/dev/null 2>&1 & app=$!
  sleep 2
  win=$(DISPLAY=$display xdotool search --all --pid "$app" --name '^Retrace Calculator$' | head -1)
  DISPLAY=$display xdotool windowfocus --sync "$win" type --delay 80 '12*'
  sleep 0.6
  [ "${variant%%:*}" = larger ] && shot "$here/fixture-calculator-12-times-larger.png"
  DISPLAY=$display xdotool type --delay 80 '7'
  DISPLAY=$display xdotool key Return
  sleep 0.6
  shot "$here/fixture-calculator-84-${variant%%:*}.png"
  kill $app
done
