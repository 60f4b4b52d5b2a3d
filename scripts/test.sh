#!/usr/bin/env bash
# Runs the suite, each file over SQLite and PostgreSQL (see test/harness.ts).
#   bash scripts/test.sh                 every test file
#   bash scripts/test.sh path/a.test.ts  only the files given
# TEST_DATABASES=sqlite limits it to SQLite, for a machine without PostgreSQL.
set -euo pipefail
cd "$(dirname "$0")/.."
# Before anything loads the native SQLite driver, which crashes on an unsupported Node.
node --import tsx src/runtime-check.ts
shopt -s globstar nullglob
if [ $# -gt 0 ]; then files=("$@"); else files=(src/**/*.test.ts test/**/*.test.ts packages/*/test/**/*.test.ts); fi
echo "Testing on Node $(node -p process.versions.node), ${TEST_DATABASES:-sqlite,postgres} (${#files[@]} files)"
tap=$(mktemp)
trap 'rm -f "$tap"' EXIT
status=0
node --import tsx --enable-source-maps --test --test-concurrency="${TEST_CONCURRENCY:-4}" \
  --test-reporter=spec --test-reporter-destination=stdout \
  --test-reporter=tap --test-reporter-destination="$tap" "${files[@]}" || status=$?
# One plain closing line, whatever reads the output.
passed=$(grep '^# pass ' "$tap" | tail -n 1 | awk '{print $3}')
failed=$(grep '^# fail ' "$tap" | tail -n 1 | awk '{print $3}')
echo "tests: ${passed:-0} passed, ${failed:-0} failed"
exit "$status"
