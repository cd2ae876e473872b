#!/usr/bin/env bash
# The test suite, from a fresh machine: installs what is missing, then runs every test.
# Tests start their own virtual displays (one per vitest worker), so no $DISPLAY is needed.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
bash scripts/setup.sh
mkdir -p reports
status=0
npx vitest run --reporter=default --reporter=json --outputFile.json=reports/test-results.json "$@" || status=$?
# One plain closing line for CI systems that read it.
node -e '
  const r = JSON.parse(require("fs").readFileSync("reports/test-results.json", "utf8"));
  console.log(`${r.numPassedTests} passed, ${r.numFailedTests} failed, ${r.numPendingTests + r.numTodoTests} skipped`);
' || true
exit $status
