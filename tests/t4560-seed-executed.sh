#!/usr/bin/env bash
# tiadash seed's mutants that nothing caught carry whether the full suite
# executed their line: from the lcov report Node's own test runner writes
# to $TIADASH_COVERAGE in the change's clean full run (the mutants' lines
# are that tree's). clamp.js line 2 runs in the one test and its mutant
# survives all the same (an untested bound); line 7 never runs; extra.js is
# never loaded, so the report does not list it. Every format says so, and
# a full suite that writes no coverage reads as unknown.
. "$(dirname "$0")/lib.sh"
. "$TEST_SRC/lib-selectors.sh"

command -v node >/dev/null 2>&1 || skip_all "node is not installed"
node --test --help 2>/dev/null | grep -q -e "--test-reporter-destination" ||
	skip_all "node has no --test-reporter-destination (Node 20 or later)"

JUNIT='--test-reporter=junit --test-reporter-destination="$TIADASH_JUNIT"'
COVER='${TIADASH_COVERAGE:+--experimental-test-coverage --test-reporter=lcov --test-reporter-destination="$TIADASH_COVERAGE"}'

test_expect_success 'setup: node:test tests, a change to app.js, a plain-list selector' '
	git init -q -b main repo && cd repo && mkdir test &&
	printf ".tiadash\n" >.gitignore &&
	cat >clamp.js <<-\EOF &&
	function clamp(x, lo, hi) {
	  if (x < lo) return lo;
	  return x;
	}

	function spare(x) {
	  if (x > 3) x = x * 2;
	  return x;
	}

	module.exports = { clamp, spare };
	EOF
	printf "function big(x) {\n  return x > 9;\n}\nmodule.exports = { big };\n" >extra.js &&
	printf "function greet(name) {\n  return \"hi \" + name;\n}\nmodule.exports = { greet };\n" >app.js &&
	cat >test/clamp.test.js <<-\EOF &&
	const test = require("node:test");
	const assert = require("node:assert");
	const { clamp } = require("../clamp.js");

	test("inside", () => assert.strictEqual(clamp(5, 0, 10), 5));
	EOF
	cat >test/app.test.js <<-\EOF &&
	const test = require("node:test");
	const assert = require("node:assert");
	const { greet } = require("../app.js");

	test("greet", () => assert.strictEqual(greet("ann"), "hi ann"));
	EOF
	commit_at 2026-11-01T00:00:00Z base &&
	pr 1 2026-11-02T00:00:00Z app.js "$(printf "function greet(who) {\n  return \"hi \" + who;\n}\nmodule.exports = { greet };\n")" &&
	cd .. &&
	printf "#!/bin/sh\nif grep -q \"^app.js\$\"; then echo test/app.test.js; fi\n" >select.sh &&
	chmod +x select.sh &&
	echo app.js | ./select.sh >map && echo test/app.test.js >expect && test_cmp expect map
'

seed_json() {
	tiadash --repo repo seed --since 2026-11-01T12:00:00Z --changes 1 --mutants 5 \
		--selector "$TRASH/select.sh" --test "node --test $1 $JUNIT" --seed 1 \
		--format json >"$2" 2>err &&
	test_must_be_empty err
}

test_expect_success 'each surviving mutant says whether the full suite executed its line' '
	seed_json "$COVER" seed.json &&
	json_get seed.json "[(m[\"path\"], m[\"line\"], m[\"before\"], m[\"after\"], m[\"verdict\"], m[\"executed\"], m[\"executed_unknown\"]) for m in sorted(d[\"list\"], key=lambda m: (m[\"path\"], m[\"line\"]))]" >actual &&
	cat >expect <<-\EOF &&
	[('"'"'clamp.js'"'"', 2, '"'"'if (x < lo) return lo;'"'"', '"'"'if (x <= lo) return lo;'"'"', '"'"'none'"'"', True, None), ('"'"'clamp.js'"'"', 7, '"'"'if (x > 3) x = x * 2;'"'"', '"'"'if (x >= 3) x = x * 2;'"'"', '"'"'none'"'"', False, None), ('"'"'extra.js'"'"', 2, '"'"'return x > 9;'"'"', '"'"'return x >= 9;'"'"', '"'"'none'"'"', None, '"'"'file not in the coverage'"'"')]
	EOF
	test_cmp expect actual
'

test_expect_success 'the text, markdown, csv and html say it under the equivalent-mutant note' '
	tiadash --repo repo seed --show >seed.txt &&
	sed -n "/^Caught by no test, by file/,/^$/p" seed.txt | sed "s/[0-9a-f]\{12\} (#/SHA (#/" >actual &&
	cat >expect <<-\EOF &&
	Caught by no test, by file (equivalent mutants, which no test can catch, too)
	  clamp.js  2
	    :2  cmp-flip  SHA (#1)
	      - if (x < lo) return lo;
	      + if (x <= lo) return lo;
	      executed by the full suite: yes
	    :7  cmp-flip  SHA (#1)
	      - if (x > 3) x = x * 2;
	      + if (x >= 3) x = x * 2;
	      executed by the full suite: no
	  extra.js  1
	    :2  cmp-flip  SHA (#1)
	      - return x > 9;
	      + return x >= 9;
	      executed by the full suite: unknown (file not in the coverage)
	EOF
	test_cmp expect actual &&
	tiadash --repo repo seed --show --format md >seed.md &&
	sed -n "/^## Caught by no test/,\$p" seed.md >actual &&
	cat >expect <<-\EOF &&
	## Caught by no test

	Equivalent mutants, which no test can catch, are among them.

	| file | line | operator | before | after | executed by the full suite |
	|---|---:|---|---|---|---|
	| clamp.js | 2 | cmp-flip | if \(x &lt; lo\) return lo; | if \(x &lt;= lo\) return lo; | yes |
	| clamp.js | 7 | cmp-flip | if \(x &gt; 3\) x = x \* 2; | if \(x &gt;= 3\) x = x \* 2; | no |
	| extra.js | 2 | cmp-flip | return x &gt; 9; | return x &gt;= 9; | unknown \(file not in the coverage\) |
	EOF
	test_cmp expect actual &&
	tiadash --repo repo seed --show --format csv >seed.csv &&
	cut -d, -f3,4,9,15 seed.csv | sort >actual &&
	cat >expect <<-\EOF &&
	clamp.js,2,none,yes
	clamp.js,7,none,no
	extra.js,2,none,unknown (file not in the coverage)
	path,line,verdict,executed
	EOF
	test_cmp expect actual &&
	tiadash --repo repo seed --show --format html >seed.html &&
	test_grep "<p>Equivalent mutants, which no test can catch, are among them.</p>" seed.html &&
	test_grep "<tr><td><code>clamp.js:2</code></td><td>cmp-flip</td><td><code>if (x &lt; lo) return lo;</code><br><code>if (x &lt;= lo) return lo;</code></td><td>yes</td></tr>" seed.html &&
	test_grep "<tr><td><code>clamp.js:7</code></td>.*<td>no</td></tr>" seed.html &&
	test_grep "<tr><td><code>extra.js:2</code></td>.*<td>unknown (file not in the coverage)</td></tr>" seed.html
'

test_expect_success 'a full suite that writes no coverage: unknown (no coverage)' '
	seed_json "" plain.json &&
	json_get plain.json "sorted((m[\"path\"], m[\"line\"], m[\"executed\"], m[\"executed_unknown\"]) for m in d[\"list\"])" >actual &&
	echo "[('"'"'clamp.js'"'"', 2, None, '"'"'no coverage'"'"'), ('"'"'clamp.js'"'"', 7, None, '"'"'no coverage'"'"'), ('"'"'extra.js'"'"', 2, None, '"'"'no coverage'"'"')]" >expect &&
	test_cmp expect actual &&
	tiadash --repo repo seed --show >plain.txt &&
	test "$(grep -c "executed by the full suite: unknown (no coverage)$" plain.txt)" = 3
'

test_expect_success 'a coverage report that cannot be read is warned about, and read as none' '
	tiadash --repo repo seed --since 2026-11-01T12:00:00Z --changes 1 --mutants 5 \
		--selector "$TRASH/select.sh" --seed 1 --format json \
		--test "{ test -z \"\$TIADASH_COVERAGE\" || echo garbage >\"\$TIADASH_COVERAGE\"; } && node --test $JUNIT" \
		>bad.json 2>err &&
	test_grep "the full suite.s coverage report cannot be read: [$]TIADASH_COVERAGE: neither an lcov tracefile nor a Cobertura report$" err &&
	json_get bad.json "sorted(set(m[\"executed_unknown\"] for m in d[\"list\"]))" >actual &&
	echo "['"'"'no coverage'"'"']" >expect && test_cmp expect actual
'

test_done
