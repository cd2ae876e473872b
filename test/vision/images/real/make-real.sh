#!/usr/bin/env bash
# Regenerates the ground-truth crops of real applications in this folder (see README.md). Run by
# hand, once; never at test time. The true text of each crop is in manifest.json, written by
# reading the images: after regenerating, look at every crop and check it still says that.
# Needs: Xvfb, xdotool, x11-utils (xwininfo), imagemagick, xterm, galculator, x11-apps (xcalc),
# python3-tk, zenity, mousepad, chromium.
#
# Every app runs as retrace runs it: on its own Xvfb (1280×800×24), no window manager, the locale
# and time zone retrace pins (C.UTF-8, UTC), and a throw-away HOME, so no settings of yours
# (galculator's mode, mousepad's font) leak in or get changed.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
apps="$(cd "$here/../../../../fixtures/apps" && pwd)"
export LANG=C.UTF-8 LC_ALL=C.UTF-8 TZ=UTC
. "$here/../../../../scripts/own-xvfb.sh"
export HOME="$work"

# start CMD…: runs an app in the background (its pid in $app).
start() { "$@" >/dev/null 2>&1 & app=$!; }
stop() { kill "$app" 2>/dev/null || true; wait "$app" 2>/dev/null || true; app=""; }
# window NAME: the id of the first mapped window whose title is NAME (waits up to 10 s).
window() {
  local id=""
  for _ in $(seq 100); do
    id="$(xdotool search --onlyvisible --name "^$1\$" 2>/dev/null | head -1 || true)"
    [ -n "$id" ] && { echo "$id"; return; }
    sleep 0.1
  done
  echo "make-real: no window '$1'" >&2
  exit 1
}
# shot ID FILE: the window's pixels (nothing overlaps it: one app at a time, pointer parked).
shot() { xdotool mousemove 1279 799; sleep 0.4; import -window "$1" "$work/$2.png"; }
# cut FILE NAME [WxH+X+Y]: a crop of a shot (the whole shot without a geometry) into this folder.
cut() {
  if [ $# -eq 3 ]; then convert "$work/$1.png" -crop "$3" +repage -strip "$here/$2.png"
  else convert "$work/$1.png" -strip "$here/$2.png"; fi
}
# The shell echoes type-ahead before its prompt: each line waits for the previous output.
type_line() { xdotool type --delay 15 "$1"; xdotool key Return; sleep 0.4; }

# xterm, default font (6×13 "fixed"), a shell with a fixed prompt.
printf "PS1='user@retrace:~\$ '\ncd \"\$HOME\"\n" >"$work/rc"
printf 'Meeting at 10:30 (room B-12); bring the Q3 report.\nEmail: alice@example.com, phone +1 555-0142.\nPath: /usr/local/bin/retrace --version => v0.1.0\n' >"$work/notes.txt"
start xterm -title xterm-a -geometry 60x10 -e bash --rcfile "$work/rc" -i
w="$(window xterm-a)"; sleep 0.5; xdotool windowfocus --sync "$w"
type_line 'echo hello from retrace'
shot "$w" xterm-a; stop
cut xterm-a xterm-1
start xterm -title xterm-b -geometry 64x12 -e bash --rcfile "$work/rc" -i
w="$(window xterm-b)"; sleep 0.5; xdotool windowfocus --sync "$w"
type_line "printf 'Total: %d items, %s%% done\\n' 42 97.5"
type_line 'expr 12 \* 7'
type_line 'cat notes.txt'
type_line 'echo hello from retrace'
shot "$w" xterm-b; stop
cut xterm-b xterm-2
cut xterm-b xterm-3 388x14+0+67   # one line, as a text region: "Meeting at 10:30 …"

# galculator (GTK 3): basic mode after 12*7=, the View menu, scientific mode.
start galculator
w="$(window galculator)"; sleep 1; xdotool windowfocus --sync "$w"
xdotool type --delay 80 '12*7='
shot "$w" galc-basic
cut galc-basic galculator-1
xdotool mousemove 103 12 click 1; sleep 0.8
import -window root -crop 210x130+80+24 +repage "$work/galc-menu.png"
cut galc-menu galculator-2
xdotool mousemove 145 62 click 1; sleep 1
shot "$w" galc-sci; stop
cut galc-sci galculator-3 590x75+6+30     # the display: 84, DEC HEX OCT BIN, DEG RAD GRAD, ALG RPN FORM
cut galc-sci galculator-4 340x195+5+115   # the left keys: con fun EE A B … sin cos tan CMP F

# xcalc (Xaw, bitmap fonts): the display, and two blocks of keys. Left out: the first row (its √
# and x² come out of the symbol font as "ö`" and "x²") and the "mod" row (its last key is a
# two-pixel mark).
start xcalc
w="$(window Calculator)"; sleep 0.5; xdotool windowfocus "$w"; xdotool mousemove 300 300
xdotool type --delay 80 '12*7='
shot "$w" xcalc
cut xcalc xcalc-1 222x50+2+2
cut xcalc xcalc-2 226x150+0+92   # INV … base
cut xcalc xcalc-3 226x122+0+270  # STO … =

# Tk (python3-tk), default fonts: labels, entries, a check button, buttons.
cat >"$work/form.py" <<'EOF'
import tkinter as tk
root = tk.Tk()
root.title("Order form")
tk.Label(root, text="Customer name:").grid(row=0, column=0, sticky="w", padx=8, pady=4)
name = tk.Entry(root, width=24); name.insert(0, "Alice Smith"); name.grid(row=0, column=1, padx=8, pady=4)
tk.Label(root, text="Quantity (1-99):").grid(row=1, column=0, sticky="w", padx=8, pady=4)
qty = tk.Entry(root, width=24); qty.insert(0, "12"); qty.grid(row=1, column=1, padx=8, pady=4)
tk.Checkbutton(root, text="Express delivery").grid(row=2, column=0, columnspan=2, sticky="w", padx=8)
tk.Label(root, text="Total: 3 items, $42.50").grid(row=3, column=0, columnspan=2, sticky="w", padx=8, pady=4)
f = tk.Frame(root); f.grid(row=4, column=0, columnspan=2, pady=6)
tk.Button(f, text="OK", width=8).pack(side="left", padx=4)
tk.Button(f, text="Cancel", width=8).pack(side="left", padx=4)
tk.Button(f, text="Help").pack(side="left", padx=4)
root.mainloop()
EOF
start python3 "$work/form.py"
w="$(window 'Order form')"
shot "$w" tk; stop
cut tk tk-1

# zenity (GTK 3) dialogs, one at a time.
start zenity --question --title Question --text 'Save changes to document.txt before closing?'
shot "$(window Question)" zenity-question; stop
cut zenity-question zenity-1
start zenity --entry --title Rename --text 'New name for the file:' --entry-text report-2024.pdf
shot "$(window Rename)" zenity-entry; stop
cut zenity-entry zenity-2
start zenity --list --title 'Pick a fruit' --text 'Select one item:' --column Fruit --column Price --column Stock \
  Apple 1.20 35 Banana 0.55 120 Cherry 4.99 8
shot "$(window 'Pick a fruit')" zenity-list; stop
cut zenity-list zenity-3
start zenity --forms --title 'Sign up' --text 'Create an account' --add-entry 'First name' --add-entry Email --add-password Password
shot "$(window 'Sign up')" zenity-forms; stop
cut zenity-forms zenity-4
start zenity --info --title Done --text 'All 3 files were copied.'
shot "$(window Done)" zenity-info; stop
cut zenity-info zenity-5

# mousepad (GTK 3): menu bar, the root-account warning bar, a few lines of text.
printf 'Shopping list for Saturday:\n- 2 kg apples (red)\n- milk, eggs & bread\nCall Bob at 14:45 re: invoice #3071.\n' >"$work/list.txt"
start mousepad "$work/list.txt"
w="$(window '.*list.txt - Mousepad')"; sleep 1
shot "$w" mousepad; stop
cut mousepad mousepad-1 640x130+0+0

# chromium: the notes fixture app (fixtures/apps/notes).
"$apps/snapshot" notes "$work/notes.png" >/dev/null
cut notes chromium-1
# …in theme=dark after saving a note: the status "Saved" in dark green, far fainter than the
# light grey text around it.
start "$apps/open" notes theme=dark
w="$(window 'Retrace Notes')"; sleep 1.5
xdotool mousemove 150 100 click 1; sleep 0.3
xdotool type --delay 40 'Buy milk'; sleep 0.2
xdotool key ctrl+s; sleep 0.8
shot "$w" notes-dark; stop
cut notes-dark chromium-2

echo "make-real: crops written to $here; check them against manifest.json" >&2
