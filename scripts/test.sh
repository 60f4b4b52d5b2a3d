#!/usr/bin/env bash
# Runs the whole suite, each file over SQLite and PostgreSQL (see test/harness.ts).
# TEST_DATABASES=sqlite limits it to SQLite, for a machine without PostgreSQL.
set -euo pipefail
cd "$(dirname "$0")/.."
shopt -s globstar nullglob
files=(src/**/*.test.ts test/**/*.test.ts)
echo "Testing on: ${TEST_DATABASES:-sqlite,postgres} (${#files[@]} files)"
exec node --import tsx --enable-source-maps --test --test-concurrency="${TEST_CONCURRENCY:-4}" "$@" "${files[@]}"
