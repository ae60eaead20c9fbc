#!/bin/bash
# Ingests the sample week once per make check into OUT (the Makefile's
# $(BUILD)/sample.db), under the tests' pinned environment (lib.sh), for the
# tests that only read it: lib.sh's sample_week copies it.
# Usage: tests/sample-db.sh OUT
out=$(realpath -m "$1") || exit 2
. "$(dirname "$0")/lib.sh"
rm -f "$out.tmp" "$out.tmp-wal" "$out.tmp-shm" &&
tiadash --db "$out.tmp" --repo "$SAMPLE/repo" ingest "$SAMPLE/artifacts" >/dev/null &&
test ! -e "$out.tmp-wal" && mv "$out.tmp" "$out"
rc=$?
cd / && rm -rf "$(dirname "$TRASH")"
exit $rc
