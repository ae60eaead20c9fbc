#!/usr/bin/env bash
# replay --selector CMD --selector-format testmon over real pytest output:
# pytest-testmon is not packaged for Debian and PyPI is out of reach, so
# the selector here is Debian's pytest itself (`pytest --collect-only -q`,
# the printer testmon's selection goes through, with -k deselecting as
# testmon does), run at every commit of a small Python project. The
# answers are pytest's own; testmon's choice of tests is not exercised.
. "$(dirname "$0")/lib.sh"
. "$TEST_SRC/lib-selectors.sh"
# Debian's pytest, whatever python3 comes first on PATH.
PY=python3
/usr/bin/python3 -c "import pytest" 2>/dev/null && PY=/usr/bin/python3
$PY -c "import pytest" 2>/dev/null || skip_all "pytest is not installed (Debian: python3-pytest)"
export PYTHONDONTWRITEBYTECODE=1
PYTEST="$PY -m pytest --collect-only -q -p no:cacheprovider -k 'not slow'"

test_expect_success 'setup: a Python project whose tests grow' '
	git init -q repo && cd repo &&
	mkdir -p calc tests && : >calc/__init__.py &&
	echo "def add(a, b): return a + b" >calc/add.py &&
	printf "from calc.add import add\ndef test_add(): assert add(1, 2) == 3\ndef test_add_slow(): assert add(2, 2) == 4\n" >tests/test_add.py &&
	commit_at 2026-11-01T00:00:00Z base &&
	pr 1 2026-11-02T00:00:00Z calc/mul.py "def mul(a, b): return a * b" \
		tests/test_mul.py "from calc.mul import mul
def test_mul(): assert mul(2, 3) == 6
class TestMul:
    def test_zero(self): assert mul(0, 3) == 0" &&
	pr 2 2026-11-02T01:00:00Z README.md "# calc" &&
	: >empty.rules
'

test_expect_success 'pytest answers in a clone at each commit' '
	SKIP_ROOT=1 own_answers "$PYTEST" "import sys
ids = sorted(l.strip() for l in sys.stdin if \"::\" in l)
print(\"selected\" if ids else \"nothing\", \" \".join(ids) or \"-\")" &&
	test "$(wc -l <own.txt)" = 2
'

test_expect_success 'replay reads pytest through the testmon adapter, at each commit' '
	(cd repo && tiadash replay --since 2026-11-01T12:00:00Z --rules empty.rules --no-builtin-rules \
		--selector "$PYTEST" --selector-format testmon --format json >../replay.json 2>../err) &&
	test_must_be_empty err &&
	replayed_selections replay.json >replayed.txt &&
	test_cmp own.txt replayed.txt &&
	cut -d" " -f2- replayed.txt >decisions &&
	cat >expect <<-\EOF &&
	selected tests/test_add.py::test_add tests/test_mul.py::TestMul::test_zero tests/test_mul.py::test_mul
	selected tests/test_add.py::test_add tests/test_mul.py::TestMul::test_zero tests/test_mul.py::test_mul
	EOF
	test_cmp expect decisions &&
	json_dump replay.json "d[\"selector_run\"][\"format\"]" >actual &&
	echo "\"testmon\"" >expect && test_cmp expect actual
'

test_expect_success 'the plain-list path: the same node ids, one a line, read as the line protocol' '
	(cd repo && tiadash replay --since 2026-11-01T12:00:00Z --rules empty.rules --no-builtin-rules \
		--selector "$PYTEST | grep ::" --format json >../plain.json 2>../err) &&
	test_must_be_empty err &&
	replayed_selections plain.json >plain.txt &&
	test_cmp own.txt plain.txt &&
	json_dump plain.json "d[\"selector_run\"][\"format\"]" >actual &&
	echo "\"lists\"" >expect && test_cmp expect actual
'

test_done
