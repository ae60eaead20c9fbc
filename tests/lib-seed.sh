# Helpers for the defect-seeding tests (tests/t45*-seed-*.sh), after lib.sh
# and lib-selectors.sh:
#
#   need_pytest              skip the whole file (one line, TAP) without
#                            Debian's pytest; sets PY to its python3
#   static_selector FILE     a line-protocol selector (Python): the test
#                            files whose imports reach a changed path, as an
#                            import-graph selector sees them (blind to names
#                            looked up at run time)
#   ledger_project DIR       a small Python project (seed 003's ledger) with
#                            a history of three merged PRs, described below
#   mutants_of FILE          "PR PATH OPERATOR VERDICT [timeout] [TESTS]" per
#                            mutant of a seed --format json, sorted
#   tree_sums DIR OUT        the status and checksums of a working tree

need_pytest() {
	PY=python3
	/usr/bin/python3 -c "import pytest" 2>/dev/null && PY=/usr/bin/python3
	if ! $PY -c "import pytest, tomllib" 2>/dev/null; then
		echo "ok 1 # skip pytest is not installed (Debian: python3-pytest)"
		echo "1..1"
		exit 0
	fi
	export PYTHONDONTWRITEBYTECODE=1
}

static_selector() {
	cat >"$1" <<-\PY
	import ast, os, sys

	def module_file(name):
	    path = name.replace(".", "/")
	    for f in (path + ".py", path + "/__init__.py"):
	        if os.path.isfile(f):
	            return f

	def imports(path):
	    found = set()
	    for node in ast.walk(ast.parse(open(path).read(), path)):
	        if isinstance(node, ast.Import):
	            names = [a.name for a in node.names]
	        elif isinstance(node, ast.ImportFrom) and node.module:
	            names = [node.module] + [node.module + "." + a.name for a in node.names]
	        else:
	            continue
	        found |= {f for f in map(module_file, names) if f}
	    return found

	def reach(path):
	    seen, todo = {path}, [path]
	    while todo:
	        for f in imports(todo.pop()) - seen:
	            seen.add(f)
	            todo.append(f)
	    return seen

	changed = {line.strip() for line in sys.stdin if line.strip()}
	for t in sorted("tests/" + f for f in os.listdir("tests") if f.startswith("test_")):
	    if reach(t) & changed:
	        print(t)
	PY
}

# The ledger: money.py formats amounts; export.py looks its formatter up by
# name in a TOML registry (registry.py reads formatters.toml), so
# test_export exercises money.py with no import an import-graph selector
# could follow; untested.py has no test; loop.py counts down (its mutant
# never ends). Every source file has exactly one mutation site:
#   money.py     cmp-flip  amount < 0     (<= recurses at 0)
#   export.py    cmp-flip  len(text) > width
#   registry.py  eq-flip   len(TABLE) == 0 (!= fails at import: invalid)
#   untested.py  cmp-flip  amount > 1000
#   loop.py      off-by-one n - 1         (+ 1 never ends: a timeout)
# History (first parent): base 2026-11-01, then PR 1 (money.py), PR 2
# (export.py and loop.py), PR 3 (pyproject.toml: force-full).
ledger_project() {
	git init -q "$1" && (
	cd "$1" && mkdir -p ledger tests && : >ledger/__init__.py &&
	printf '.tiadash\n' >.gitignore &&
	printf '[project]\nname = "ledger"\n' >pyproject.toml &&
	cat >ledger/formatters.toml <<-\EOF &&
	# Formatters the exporters look up by name (seed 003's format_money case).
	[formatters]
	money = "ledger.money:format_money"
	EOF
	cat >ledger/registry.py <<-\EOF &&
	"""Formatters by name, from formatters.toml: no module imports them."""
	import importlib
	import pathlib
	import tomllib

	with open(pathlib.Path(__file__).with_name("formatters.toml"), "rb") as f:
	    TABLE = tomllib.load(f)["formatters"]
	if len(TABLE) == 0:
	    raise ImportError("no formatters registered")


	def lookup(name):
	    module, function = TABLE[name].split(":")
	    return getattr(importlib.import_module(module), function)
	EOF
	cat >ledger/money.py <<-\EOF &&
	"""Money as text."""


	def format_money(amount, currency):
	    if amount < 0:
	        return "-" + format_money(-amount, currency)
	    return f"{amount:.2f} {currency}"
	EOF
	cat >ledger/export.py <<-\EOF &&
	"""Rows of the CSV export: the formatter is looked up by name."""
	from ledger import registry


	def export_row(amount, currency, width):
	    text = registry.lookup("money")(amount, currency)
	    if len(text) > width:
	        raise ValueError("column too narrow")
	    return text.rjust(width)
	EOF
	cat >ledger/untested.py <<-\EOF &&
	"""Nothing tests this."""


	def is_large(amount):
	    return amount > 1000
	EOF
	cat >ledger/loop.py <<-\EOF &&
	"""A slow count-down."""
	import time


	def count_down(n):
	    steps = 0
	    while n:
	        time.sleep(0.02)
	        n = n - 1
	        steps += 1
	    return steps
	EOF
	cat >tests/test_money.py <<-\EOF &&
	from ledger.money import format_money


	def test_positive():
	    assert format_money(5, "EUR") == "5.00 EUR"


	def test_negative():
	    assert format_money(-5, "EUR") == "-5.00 EUR"


	def test_zero():
	    assert format_money(0, "EUR") == "0.00 EUR"
	EOF
	cat >tests/test_export.py <<-\EOF &&
	from ledger.export import export_row


	def test_exact_width():
	    assert export_row(5, "EUR", 8) == "5.00 EUR"


	def test_padded():
	    assert export_row(0, "EUR", 10) == "  0.00 EUR"
	EOF
	cat >tests/test_loop.py <<-\EOF &&
	from ledger.loop import count_down


	def test_count_down():
	    assert count_down(3) == 3
	EOF
	commit_at 2026-11-01T00:00:00Z base &&
	pr 1 2026-11-02T00:00:00Z ledger/money.py "$(sed 's/as text/as text, for people/' ledger/money.py)" &&
	pr 2 2026-11-02T01:00:00Z ledger/export.py "$(sed 's/CSV export/CSV export, one per entry/' ledger/export.py)" \
		ledger/loop.py "$(sed 's/count-down/count-down, for the progress bar/' ledger/loop.py)" &&
	pr 3 2026-11-02T02:00:00Z pyproject.toml "$(printf '[project]\nname = "ledger"\nversion = "2.0"')"
	)
}

mutants_of() {
	pyserve mutants_of "$1"
}

tree_sums() {
	(cd "$1" && git status --porcelain --ignored=no &&
	 find . -path ./.git -prune -o -path ./.tiadash -prune -o -type f -print | sort | xargs sha1sum) >"$2"
}
