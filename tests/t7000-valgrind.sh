#!/bin/bash
# Memory errors and leaks outside the sanitizers: every batch command on the
# sample week under valgrind (definite and indirect leaks are errors). Ingest
# takes a dozen PRs of the week (valgrind is slow); the readers take the
# whole week, ingested natively.
. "$(dirname "$0")/lib.sh"
. "$TEST_SRC/lib-large.sh"

command -v valgrind >/dev/null || skip_all "valgrind is not installed"
need_sample_week
# An ASan build (make SANITIZE=1 check) cannot run under valgrind (lib.sh's TEST_ASAN).
if [ -n "$TEST_ASAN" ]; then
	skip_all "the binary is built with AddressSanitizer"
fi

# PCRE2's JIT code reads ahead of what it has written (it has no object
# file, so valgrind names it ???): a known false positive, not tiadash's.
cat >jit.supp <<-\SUPP
	{
	   pcre2-jit-code
	   Memcheck:Cond
	   obj:???
	}
	{
	   pcre2-jit-code-value
	   Memcheck:Value8
	   obj:???
	}
SUPP

# vg CMD...: tiadash under valgrind; exit 99 on any memory error or leak.
# Two options cut CPU, not what memcheck detects: --read-inline-info=no
# (a stack names the function an inlined call is in, not the inlined one;
# libc's and tiadash's debug info are read faster) and --vex-guest-chase=no
# (shorter superblocks: translation, most of a short run, is cheaper).
# Possible leaks are not shown: replay's diff workers (forked, each with a
# log of its own) _exit with a copy of the caller's open store, whose page
# cache sqlite points into from inside its blocks, and memcheck calls those
# blocks possibly lost in the worker.
# --soname-synonyms: memcheck puts its own malloc in place of mimalloc's
# (the Makefile links it), as it does glibc's.
vg() {
	valgrind -q --leak-check=full --show-leak-kinds=definite,indirect \
		--soname-synonyms=somalloc='*mimalloc*' \
		--errors-for-leak-kinds=definite,indirect --error-exitcode=99 \
		--read-inline-info=no --vex-guest-chase=no \
		--suppressions=jit.supp --log-file=vg.%p.log "$TIADASH_BIN" "$@"
}

# vg_clean: the logs of the last valgrind runs are empty (then removed).
vg_clean() {
	local f bad=0
	for f in vg.*.log; do
		[ -e "$f" ] || continue
		if [ -s "$f" ]; then cat "$f" >&2; bad=1; fi
		rm -f "$f"
	done
	return $bad
}

week="--since 2026-11-01 --until 2026-11-08"
q="'"
repo="$SAMPLE/repo"

test_expect_success 'setup: a dozen PRs of the week, and the whole week natively' '
	mkdir part &&
	for d in $(cd "$SAMPLE/artifacts" && ls -d pr-* | head -12); do
		cp -r "$SAMPLE/artifacts/$d" part/ || return 1
	done &&
	tiadash --db week.db --repo "$repo" ingest "$SAMPLE/artifacts" >out &&
	test_grep "^798 new runs, 0 unchanged$" out
'

test_expect_success 'ingest under valgrind (parallel parsers, batched writes)' '
	n=$(find part -name tiadash-run.json | wc -l) &&
	vg --db part.db --repo "$repo" ingest part >out &&
	echo "$n new runs, 0 unchanged" >expect && test_cmp expect out && vg_clean
'

test_expect_success 'ingest again: every source unchanged, under valgrind' '
	n=$(find part -name tiadash-run.json | wc -l) &&
	vg --db part.db --repo "$repo" ingest part >out &&
	echo "0 new runs, $n unchanged" >expect && test_cmp expect out && vg_clean
'

test_expect_success 'a failing source under valgrind: exit 2, no leak' '
	mkdir -p bad/x && cp part/$(ls part | head -1)/full-1/tiadash-run.json bad/x/ &&
	test_expect_code 2 vg --db bad.db --repo "$repo" ingest bad >out 2>err &&
	vg_clean && test_grep "cannot open .*bad/x/.*No such file" err
'

test_expect_success 'status and show under valgrind' '
	vg --db week.db status --format json >status.json &&
	vg --db week.db --repo "$repo" show 413 --format json >show.json &&
	vg --db week.db --repo "$repo" show 413 >show.txt &&
	vg_clean &&
	json_get show.json "d[\"pr\"]" >pr && echo 413 >expect && test_cmp expect pr
'

test_expect_success 'reports in UTF-16 and a code page (iconv) under valgrind' '
	head=$(git -C "$repo" rev-parse HEAD) &&
	printf "<?xml version=\"1.0\" encoding=\"UTF-16\"?>\n<testsuite><testcase classname=\"a\" name=\"b\"><failure/></testcase></testsuite>\n" |
		iconv -f UTF-8 -t UTF-16 >u16.xml &&
	printf "<?xml version=\"1.0\" encoding=\"windows-1252\"?>\n<testsuite><testcase classname=\"caf\351\" name=\"b\" status=\"notrun\"/></testsuite>\n" >cp.xml &&
	vg --db enc.db ingest --kind full --head $head --pr 1 u16.xml cp.xml >out &&
	vg_clean && test_grep "^1 new run, 0 unchanged$" out
'

test_expect_success 'show of an explained escape under valgrind' '
	cp week.db explained.db &&
	tiadash --db explained.db propose --explain 434 --note "fixture drift" >/dev/null &&
	vg --db explained.db --repo "$repo" show 434 >show434.txt &&
	vg_clean && test_grep "^explained   fixture drift (" show434.txt
'

test_expect_success 'report in every format under valgrind' '
	for f in text md json csv; do
		vg --db week.db report $week --format $f >report.$f || return 1
	done &&
	vg --db week.db report $week --format html -o report.html &&
	vg_clean &&
	tiadash --db week.db report $week --format json >native.json &&
	test_cmp native.json report.json &&
	tiadash --db week.db report $week --format html >native.html &&
	test_cmp native.html report.html
'

test_expect_success 'gate-check and summary under valgrind' '
	test_expect_code 1 vg --db week.db gate-check $week >gate.txt &&
	test_expect_code 1 vg --db week.db gate-check $week --format html >gate.html &&
	vg --db week.db summary $week --format md >summary.md &&
	vg --db week.db summary $week --format html >summary.html &&
	vg_clean &&
	test_grep "^NO-GO" gate.txt
'

test_expect_success 'replay (rules, record, what-if) under valgrind' '
	vg --db week.db --repo "$repo" replay $week --what-if "**/*.lock" --format json >replay.json &&
	vg --db week.db --repo "$repo" replay $week --format text >replay.txt &&
	vg --db week.db --repo "$repo" replay $week --what-if "**/*.lock" --format html >replay.html &&
	vg_clean &&
	tiadash --db week.db --repo "$repo" replay $week --what-if "**/*.lock" --format json >native.json &&
	test_cmp native.json replay.json
'

# The last day: 8 calls on two workers (the two days before, 70 calls,
# took 2.5 times as long under valgrind and reach no other code).
test_expect_success 'replay with a selector under valgrind' '
	printf "#!/bin/sh\nhead -1 >/dev/null; echo tests/a.py\n" >sel.sh && chmod +x sel.sh &&
	vg --db week.db --repo "$repo" replay --since 2026-11-07 --until 2026-11-08 \
		--selector "$TRASH/sel.sh" -j 2 --format json >sel.json &&
	vg_clean &&
	json_get sel.json "[d[\"selector_run\"][\"calls\"], len(d[\"changes\"])]" >calls &&
	echo "[8, 8]" >expect && test_cmp expect calls
'

test_expect_success 'rules --test under valgrind' '
	printf "package-lock.json\nsrc/a.c\ndocs/x.md\n" |
		vg --repo "$repo" rules --test --format json >rules.json &&
	vg_clean
'

test_expect_success 'a real-size report (3000 files, 31000 cases) under valgrind: ingest, show, report' '
	large_setup &&
	vg --db large.db --repo big ingest large >out &&
	echo "2 new runs, 0 unchanged" >expect && test_cmp expect out &&
	vg --db large.db --repo big show 1 --format json >large.json &&
	vg --db large.db report --format json >large-report.json &&
	vg_clean &&
	json_get large.json "\"\".join(x + \"\n\" for x in d[\"missed\"])" | sed "\$d" >missed &&
	test_cmp large.failed missed &&
	test "$(json_get large-report.json "d[\"escapes\"][\"count\"]")" = 1
'

test_expect_success 'the review reproduction under valgrind: 200 cases of files not in the tree' '
	git init -q uaf && git -C uaf commit -q --allow-empty -m empty &&
	review_report uaf/junit.xml &&
	vg --db uaf.db --repo uaf ingest --kind full --head HEAD uaf/junit.xml >out &&
	vg_clean && echo "1 new run, 0 unchanged" >expect && test_cmp expect out
'

if has_command seed; then
	test_expect_success 'seed and its outputs under valgrind' '
		git init -q small && mkdir small/src &&
		printf "int f(int x)\n{\n\tif (x < 1 && !g(x))\n\t\treturn 0;\n\treturn x + 1;\n}\n" >small/src/a.c &&
		(cd small && commit_at 2026-11-01T00:00:00Z base &&
		 echo "/* a */" >>src/b.c && commit_at 2026-11-02T00:00:00Z "b (#1)") &&
		vg --db seed.db --repo small seed --since 2026-11-01T12:00:00Z --changes 1 \
			--mutants 3 --selector true --seed 1 \
			--test "grep -q \"x < 1 && !g(x)\" src/a.c" --format json >seed.json &&
		for f in text md csv html; do
			vg --db seed.db --repo small seed --show --format $f >seed.$f || return 1
		done &&
		vg --db seed.db report --format json >seed-report.json &&
		vg_clean &&
		# One file outside with five sites: --mutants 3 puts three there, one a
		# round; the grep sees three of the five sites.
		json_get seed.json "[m[\"verdict\"] == (${q}full${q} if m[\"operator\"] in (${q}cmp-flip${q}, ${q}bool-swap${q}, ${q}not-drop${q}) else ${q}none${q}) for m in d[\"list\"]]" >verdicts &&
		echo "[True, True, True]" >expect && test_cmp expect verdicts
	'
fi

if has_command propose; then
	test_expect_success 'propose under valgrind' '
		vg --db week.db --repo "$repo" propose $week --format json >propose.json &&
		vg --db week.db --repo "$repo" propose $week --format html >propose.html &&
		vg_clean
	'
fi

test_done
