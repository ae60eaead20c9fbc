#!/bin/bash
# Diff coverage agrees with diff-cover (Debian's diff-cover, run on the same
# coverage and diffs): per shadow run, changed executable lines executed /
# changed executable lines, to 1e-9; n/a exactly where diff-cover measures
# no line. Modified, added, deleted and renamed files; several reports per
# run; absolute CI paths in the reports; a base that moved on after the fork.
. "$(dirname "$0")/lib.sh"
. "$TEST_SRC/lib-metrics.sh"

command -v diff-cover >/dev/null || skip_all "diff-cover is not installed"

test_expect_success 'setup: a repository with eight PRs and their coverage' '
	python3 - <<-\PY
	import json, os, random, subprocess
	random.seed(20261108)
	CI = "/home/runner/work/ledger/ledger/"
	def git(*args):
	    return subprocess.run(["git", "-C", "repo", *args], check=True,
	                          capture_output=True, text=True).stdout.strip()
	def write(path, lines):
	    full = os.path.join("repo", path)
	    os.makedirs(os.path.dirname(full), exist_ok=True)
	    open(full, "w").write("".join(l + "\n" for l in lines))
	def code(name, n):
	    out = ["def %s():" % name]
	    for i in range(n):
	        r = random.random()
	        out.append("" if r < 0.1 else "    # note %d" % i if r < 0.2 else "    v%d = %d" % (i, i))
	    return out
	def commit(msg, date):
	    os.environ["GIT_AUTHOR_DATE"] = os.environ["GIT_COMMITTER_DATE"] = date
	    git("add", "-A")
	    git("commit", "-q", "-m", msg)
	    return git("rev-parse", "HEAD")
	subprocess.run(["git", "init", "-q", "repo"], check=True)
	base_files = {"src/ledger/%s.py" % n: code(n, 40) for n in ("money", "export", "tax", "fx")}
	for p, l in base_files.items():
	    write(p, l)
	write("docs/README.md", ["# ledger"])
	commit("base", "2026-10-30T00:00:00Z")
	def edit(lines):
	    lines = list(lines)
	    for _ in range(random.randint(1, 3)):
	        at = random.randint(1, len(lines) - 1)
	        if random.random() < 0.5:
	            lines[at] = "    changed_%d = %d" % (at, random.randint(0, 99))
	        else:
	            lines[at:at] = code("new_%d" % at, random.randint(2, 8))
	    return lines
	def coverage(path, lines, p_hit):
	    rec = ["SF:" + CI + path]
	    for no, l in enumerate(lines, 1):
	        s = l.strip()
	        if s and not s.startswith("#"):
	            rec.append("DA:%d,%d" % (no, random.randint(1, 5) if random.random() < p_hit else 0))
	    return rec + ["end_of_record"]
	prs = {}
	for pr in range(1, 9):
	    git("checkout", "-q", "-b", "pr%d" % pr, "main")
	    files = {p: list(l) for p, l in base_files.items()}
	    if pr == 5:
	        os.remove("repo/src/ledger/fx.py"); del files["src/ledger/fx.py"]
	    if pr == 6:
	        git("mv", "src/ledger/tax.py", "src/ledger/taxes.py")
	        files["src/ledger/taxes.py"] = files.pop("src/ledger/tax.py")
	        files["src/ledger/taxes.py"][5] = "    renamed_and_changed = 1"
	    if pr == 7:
	        write("docs/README.md", ["# ledger", "", "More words."])
	    else:
	        for p in random.sample(sorted(files), 2 if pr != 6 else 1):
	            files[p] = edit(files[p])
	    if pr in (2, 8):
	        files["src/ledger/new%d.py" % pr] = code("fresh", 12)
	    for p, l in files.items():
	        write(p, l)
	    head = commit("pr %d" % pr, "2026-10-31T00:00:00Z")
	    reports = []
	    if pr == 8:  # two reports: a line counts when either executed it
	        reports = [sum((coverage(p, l, 0.3) for p, l in files.items()), ["TN:a"]),
	                   sum((coverage(p, l, 0.3) for p, l in files.items()), ["TN:b"])]
	    else:
	        reports = [sum((coverage(p, l, [0.5, 0.9, 0.0, 1.0][pr % 4]) for p, l in files.items()), ["TN:"])]
	    prs[pr] = (head, reports)
	# main moves on after the PRs forked: the base is its tip (three-dot diff).
	git("checkout", "-q", "main")
	write("src/ledger/money.py", base_files["src/ledger/money.py"] + ["    moved_on = 1"])
	base = commit("main moves on", "2026-11-01T00:00:00Z")
	open("base", "w").write(base)
	for pr, (head, reports) in prs.items():
	    d = "art/pr%d" % pr
	    os.makedirs(d + "/cov")
	    names = []
	    for i, rep in enumerate(reports):
	        names.append("cov/lcov%d.info" % i)
	        open(os.path.join(d, names[-1]), "w").write("\n".join(rep) + "\n")
	    open(os.path.join(d, "junit.xml"), "w").write(
	        "<testsuite name=\"t\"><testcase file=\"tests/t.py\" name=\"t\"/></testsuite>\n")
	    m = {"schema": "tiadash.run.v1", "repo": "acme/ledger", "pr": pr, "base": base,
	         "head": head, "kind": "shadow", "attempt": 1,
	         "started_at": "2026-11-02T%02d:00:00Z" % pr, "wall_clock_s": 60, "verdict": "pass",
	         "selection": {"decision": "selected", "total_tests": 10, "selected": ["tests/t.py"]},
	         "results": ["junit.xml"], "coverage": names}
	    json.dump(m, open(os.path.join(d, "tiadash-run.json"), "w"))
	    open("head%d" % pr, "w").write(head)
	PY
	tiadash --db s.db --repo repo ingest art >out &&
	echo "8 new runs, 0 unchanged" >expect && test_cmp expect out
'

test_expect_success 'every run: tiadash show agrees with diff-cover' '
	base=$(cat base) &&
	for pr in 1 2 3 4 5 6 7 8; do
		git -C repo checkout -q "$(cat head$pr)" &&
		for f in art/pr$pr/cov/*.info; do
			sed "s|^SF:/home/runner/work/ledger/ledger/|SF:|" "$f" >"dc$pr-$(basename "$f")" || return 1
		done &&
		(cd repo && diff-cover ../dc$pr-*.info --compare-branch="$base" \
			--json-report "../dc$pr.json" -q) &&
		tiadash --db s.db show "$pr" --format json >show$pr.json &&
		python3 - "dc$pr.json" "show$pr.json" "$pr" <<-\PY || return 1
		import json, sys
		dc, show = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
		lines, miss = dc["total_num_lines"], dc["total_num_violations"]
		want = (lines - miss) / lines if lines else None
		got = show["diff_coverage"]
		ok = got is None if want is None else got is not None and abs(got - want) <= 1e-9
		print("PR %s: diff-cover %s (%d lines, %d missing), tiadash %s" % (sys.argv[3], want, lines, miss, got))
		sys.exit(0 if ok else 1)
		PY
	done >agree.log &&
	cat agree.log &&
	# the fixture covers the interesting cases: a run with nothing measured,
	# full coverage, none, and partial ones
	test_grep "PR 7: diff-cover None (0 lines" agree.log &&
	test "$(grep -c "diff-cover [01]\.[0-9]" agree.log)" -ge 3
'

test_expect_success 'report: p50, mean and the count below the threshold from the same runs' '
	tiadash --db s.db report --format json >r.json &&
	python3 - r.json show*.json <<-\PY
	import json, statistics, sys
	r = json.load(open(sys.argv[1]))
	vals = sorted(v for v in (json.load(open(f))["diff_coverage"] for f in sys.argv[2:]) if v is not None)
	dc = r["diff_coverage"]
	assert dc["runs"] == len(vals), (dc, vals)
	assert abs(dc["p50"] - statistics.median(vals)) <= 1e-9, (dc, vals)
	assert abs(dc["mean"] - sum(vals) / len(vals)) <= 1e-9, (dc, vals)
	assert dc["below_threshold"] == sum(v < 0.7 for v in vals), (dc, vals)
	PY
'

test_done
