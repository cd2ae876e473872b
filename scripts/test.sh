#!/usr/bin/env bash
# The test suite, from a fresh machine: installs what is missing, then runs every test.
# Tests start their own virtual displays (one per vitest worker), so no $DISPLAY is needed.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
bash scripts/setup.sh
# What only the tests use: `ss` (iproute2), with which a fault test sees the requests a frozen X
# server has not read yet.
if ! command -v ss >/dev/null; then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends iproute2 >/dev/null
fi
mkdir -p reports
status=0
npx vitest run --reporter=default --reporter=json --outputFile.json=reports/test-results.json "$@" || status=$?
# One plain closing line for CI systems that read it. A file that failed outside its tests (an
# import, a beforeAll) fails no test: it counts as one failed, and a line before says which.
node -e '
  const r = JSON.parse(require("fs").readFileSync("reports/test-results.json", "utf8"));
  const outside = r.testResults.filter((f) => f.status === "failed" && !f.assertionResults.some((a) => a.status === "failed"));
  for (const f of outside) console.log(`failed outside its tests: ${require("path").relative(process.cwd(), f.name)}`);
  console.log(`${r.numPassedTests} passed, ${r.numFailedTests + outside.length} failed, ${r.numPendingTests + r.numTodoTests} skipped`);
' || true
exit $status
