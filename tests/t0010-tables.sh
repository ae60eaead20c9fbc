#!/bin/bash
# Pure functions over data tables: test identity matching, window bounds.
. "$(dirname "$0")/lib.sh"

for table in idmatch since; do
	test_expect_success "tt $table table" "
		tt $table '$TEST_SRC/data/$table.test' >out; rc=\$?
		cat out; test \$rc = 0
	"
done
test_done
