#!/usr/bin/env bash
# Runs the suite, each file over SQLite and PostgreSQL (see test/harness.ts).
#   bash scripts/test.sh                 every test file
#   bash scripts/test.sh path/a.test.ts  only the files given
# TEST_DATABASES=sqlite limits it to SQLite, for a machine without PostgreSQL.
# TEST_OTHER_NODE_LINE=1 (CI, on Node 22 and 24) leaves out what only the project's own Node
# runs: the console's browser tests (the service only serves the console's files) and the
# import's memory test (npm start, whose flags it measures, runs the project's Node 26).
set -euo pipefail
cd "$(dirname "$0")/.."
# Before anything loads the native SQLite driver, which crashes on an unsupported Node.
node --import tsx src/runtime-check.ts
shopt -s globstar nullglob
# Files that time a real service process or measure its memory run on their own, after the
# rest: beside three other test files on two cores they would measure the machine's load.
import_memory=src/modules/members/csv/members-import-memory.test.ts
alone=(test/hostile-clients.test.ts test/hostile-bulk-clients.test.ts "$import_memory")
if [ $# -gt 0 ]; then files=("$@"); else
  files=()
  for file in src/**/*.test.ts test/**/*.test.ts packages/*/test/**/*.test.ts; do
    [[ " ${alone[*]} " == *" $file "* ]] && continue
    [ -n "${TEST_OTHER_NODE_LINE:-}" ] && grep -q describeConsole "$file" && continue
    files+=("$file")
  done
fi
if [ $# -gt 0 ]; then alone=(); elif [ -n "${TEST_OTHER_NODE_LINE:-}" ]; then alone=(test/hostile-clients.test.ts test/hostile-bulk-clients.test.ts); fi
echo "Testing on Node $(node -p process.versions.node), ${TEST_DATABASES:-sqlite,postgres} ($((${#files[@]} + ${#alone[@]})) files)"
tap=$(mktemp)
tap_alone=$(mktemp)
# Each test process writes the error codes it asserted here (test/asserted-codes.ts); a run of
# every file then checks that every code of src/core/errors.ts was asserted. TEST_CHECK_CODES=1
# checks after a run of some files too.
codes=$(mktemp -d)
export TEST_ASSERTED_CODES="$codes"
trap 'rm -rf "$tap" "$tap_alone" "$codes"' EXIT
status=0
check_codes=${TEST_CHECK_CODES:-}
[ $# -eq 0 ] && check_codes=1
node --import tsx --enable-source-maps --test --test-concurrency="${TEST_CONCURRENCY:-4}" \
  --test-reporter=spec --test-reporter-destination=stdout \
  --test-reporter=tap --test-reporter-destination="$tap" "${files[@]}" || status=$?
if [ ${#alone[@]} -gt 0 ]; then
  node --import tsx --enable-source-maps --test --test-concurrency=1 \
    --test-reporter=spec --test-reporter-destination=stdout \
    --test-reporter=tap --test-reporter-destination="$tap_alone" "${alone[@]}" || status=$?
fi
if [ -n "$check_codes" ]; then
  node --import tsx scripts/check-asserted-codes.ts "$codes" || status=1
fi
# One plain closing line, whatever reads the output.
count() { grep "^# $1 " "$2" | tail -n 1 | awk '{print $3}'; }
passed=$(( $(count pass "$tap" || echo 0) + $(count pass "$tap_alone" || echo 0) ))
# A test cancelled (its suite's set-up threw, as when Chromium is missing) did not pass: it counts as failed.
failed=$(( $(count fail "$tap" || echo 0) + $(count fail "$tap_alone" || echo 0) \
  + $(count cancelled "$tap" || echo 0) + $(count cancelled "$tap_alone" || echo 0) ))
echo "tests: ${passed} passed, ${failed} failed"
[ "$failed" -eq 0 ] || [ "$status" -ne 0 ] || status=1
exit "$status"
