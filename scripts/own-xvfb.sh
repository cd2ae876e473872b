# Sourced by the capture scripts (make-fixed-font.sh, test/vision/images/real/make-real.sh):
# makes a scratch folder ($work), starts an Xvfb of their own (1280×800×24, no window manager)
# and exports DISPLAY. On exit it stops the process in $app (when set), the Xvfb, and removes
# $work.
work="$(mktemp -d "${TMPDIR:-/tmp}/retrace-capture-XXXXXX")"
exec 3>"$work/displayfd"
Xvfb -displayfd 3 -screen 0 1280x800x24 -nolisten tcp -noreset >/dev/null 2>&1 & xvfb=$!
exec 3>&-
app=""
trap 'kill $app $xvfb 2>/dev/null || true; rm -rf "$work"' EXIT
for _ in $(seq 50); do [ -s "$work/displayfd" ] && break; sleep 0.1; done
export DISPLAY=":$(cat "$work/displayfd")"
