# A real-size pytest report for the memory passes (t1095, t7000): a
# repository of 3000 test files in 30 packages and one pull request whose
# full run's JUnit has 31000 cases (a file attribute, a classname with a
# class part, as pytest's legacy reports write them), 1000 of them in files
# the tree does not have; every 1009th case in pkg1-pkg29 fails (29). The
# shadow run selected tests/pkg0/ and passed. Source after lib.sh; `large_setup` builds it in
# the current directory, with the expected ids in large.failed.
large_setup() {
	git init -q big &&
	python3 - <<-\PY &&
	import os
	for p in range(30):
	    os.makedirs("big/tests/pkg%d" % p)
	    for n in range(100):
	        open("big/tests/pkg%d/test_%d.py" % (p, n), "w").write("def test(): pass\n")
	PY
	(cd big && commit_at 2026-11-01T00:00:00Z tree) &&
	head=$(git -C big rev-parse HEAD) &&
	mkdir -p large/full large/shadow &&
	python3 - "$head" <<-\PY
	import sys
	head = sys.argv[1]
	def manifest(path, kind, wall, extra):
	    open(path, "w").write(
	        '{"schema": "tiadash.run.v1", "repo": "acme/big", "pr": 1, "head": "%s", '
	        '"base": "%s", "kind": "%s", "attempt": 1, '
	        '"started_at": "2026-11-02T10:00:00Z", "wall_clock_s": %d, %s'
	        '"verdict": "%s", "results": ["junit.xml"]}\n'
	        % (head, head, kind, wall, extra, "pass" if kind == "shadow" else "fail"))
	cases, failed, i = [], [], 0
	for p in range(31):
	    for n in range(100):
	        for j in range(10):
	            if p < 30:
	                f, cls = "tests/pkg%d/test_%d.py" % (p, n), "tests.pkg%d.test_%d.Test%d" % (p, n, j % 2)
	            else:
	                f, cls = "tests/gone/test_%d.py" % n, "gone.mod%d" % n
	            fail = 1 <= p < 30 and i % 1009 == 7
	            cases.append('<testcase file="%s" classname="%s" name="test_%d" time="0.01">%s</testcase>'
	                         % (f, cls, j, '<failure message="boom"/>' if fail else ""))
	            if fail:
	                failed.append("%s::Test%d::test_%d" % (f, j % 2, j))
	            i += 1
	with open("large/full/junit.xml", "w") as out:
	    out.write('<?xml version="1.0" encoding="utf-8"?>\n<testsuites><testsuite name="pytest" tests="%d">\n' % len(cases))
	    out.write("\n".join(cases))
	    out.write("\n</testsuite></testsuites>\n")
	manifest("large/full/tiadash-run.json", "full", 1800, "")
	with open("large/shadow/junit.xml", "w") as out:
	    out.write('<?xml version="1.0"?>\n<testsuites><testsuite name="pytest">\n')
	    out.write("\n".join(c for c in cases[:1000]))
	    out.write("\n</testsuite></testsuites>\n")
	manifest("large/shadow/tiadash-run.json", "shadow", 120,
	         '"selection": {"decision": "selected", "total_tests": 31000, '
	         '"selected_count": 1000, "selected": ["tests/pkg0"]}, ')
	open("large.failed", "w").write("".join(sorted(x + "\n" for x in failed)))
	PY
}

# review_report FILE: the review's reproduction of a use-after-free in test
# identity: a pytest report of 200 failing cases, each of its own file
# (tests/test_N.py, classname pkg.modN), none of them in the tree.
review_report() {
	python3 - "$1" <<-\PY
	import sys
	with open(sys.argv[1], "w") as f:
	    f.write('<?xml version="1.0"?>\n<testsuites><testsuite name="pytest" tests="200">\n')
	    for i in range(200):
	        f.write('<testcase classname="pkg.mod%d" name="t" file="tests/test_%d.py">'
	                '<failure message="x"/></testcase>\n' % (i, i))
	    f.write("</testsuite></testsuites>\n")
	PY
}
