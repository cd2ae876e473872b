#!/usr/bin/env bash
# The retrace demo, from a fresh Debian/Ubuntu machine: installs what is missing, then runs the
# bundled specs against the fixture apps twice — run 1 learns every goal (offline rules planner,
# or Claude for free-form goals when ANTHROPIC_API_KEY is set), run 2 replays them with zero
# model calls — builds the reports and prints learn vs replay side by side: per goal its time
# split, per action its time (scripts/demo-table.ts).
# Paths go to reports/demo/paths, so the demo never touches the committed paths/.
#
#   bash scripts/demo.sh          the fixture apps (specs/*.yaml)
#   bash scripts/demo.sh --real   the corpus of real third-party apps instead (specs/real:
#                                 galculator, gnome-calculator, xcalc, mousepad, l3afpad, xterm,
#                                 zenity, yad, Tk, FeatherPad, SpeedCrunch, gtk3-widget-factory,
#                                 a Java Swing form)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
bash scripts/setup.sh

specs=(specs/*.yaml)
demo=reports/demo
if [ "${1:-}" = "--real" ]; then
  specs=(specs/real)
  demo=reports/demo-real
elif [ -n "${1:-}" ]; then
  echo "usage: bash scripts/demo.sh [--real]" >&2
  exit 2
elif [ -n "${ANTHROPIC_API_KEY:-}" ]; then
  specs+=(examples/claude)
  echo "ANTHROPIC_API_KEY is set: free-form goals in examples/claude are learned with Claude."
fi
rm -rf "$demo"
mkdir -p "$demo"
retrace() { node bin/retrace.mjs "$@"; }

echo "== run 1: learn"
status=0
retrace run "${specs[@]}" --learn force --paths "$demo/paths" --update-baselines missing || status=$?
cp reports/summary.json "$demo/learn.json"
[ $status -eq 0 ] || { echo "run 1 (learning) did not pass: exit $status" >&2; exit $status; }

echo "== run 2: replay"
retrace run "${specs[@]}" --learn off --paths "$demo/paths" --update-baselines none || status=$?
cp reports/summary.json "$demo/replay.json"

echo "== reports"
retrace report --paths "$demo/paths"
node --import tsx scripts/demo-table.ts "$demo/learn.json" "$demo/replay.json"
exit $status
