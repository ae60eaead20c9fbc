#!/usr/bin/env bash
# The table-shaped outputs of the sample week, byte for byte: report,
# summary, gate-check, tests, show (a few PRs), replay, propose and seed in
# each of json, csv and md that the command has (and replay's and propose's
# html pages), at the pinned time and the week's window, against
# tests/data/golden/ (made by the code before the row model, issue 37). A
# change to a format shows here as a diff; make a deliberate one by
# regenerating: GOLDEN_UPDATE=1 make tests/t3170-golden-outputs.sh
. "$(dirname "$0")/lib.sh"

need_sample_week

GOLDEN=$TEST_SRC/data/golden
W="--since 2026-11-01T00:00:00Z --until 2026-11-08T00:00:00Z"

test_expect_success 'setup: the sample week' '
	sample_week week.db &&
	mkdir out
'

# golden NAME CMD...: run CMD (any exit status: gate-check says NO-GO with
# 1) into out/NAME, the sample repository's path written as @SAMPLE@.
golden() {
	local name=$1; shift
	"$@" >out/$name.raw 2>out/$name.err
	echo "exit $?" >out/$name.rc
	sed "s|$SAMPLE|@SAMPLE@|g; s|$TRASH|@TRASH@|g" out/$name.raw >out/$name &&
	rm out/$name.raw
}

for f in json csv md; do
	golden report.$f tiadash --db week.db report $W --format $f
	golden report-by-day.$f tiadash --db week.db report $W --by day --format $f
	golden summary.$f tiadash --db week.db summary $W --format $f
	golden gate-check.$f tiadash --db week.db gate-check $W --format $f
	golden replay.$f tiadash --db week.db replay --repo "$SAMPLE/repo" $W \
		--no-builtin-rules --rules /dev/null --format $f
	golden replay-what-if.$f tiadash --db week.db replay --repo "$SAMPLE/repo" $W \
		--no-builtin-rules --rules /dev/null --what-if "**/fixtures/**" --format $f
done
# The built-in rules' what-if (each change's "builtin"), and the pages.
golden replay-builtin.json tiadash --db week.db replay --repo "$SAMPLE/repo" $W \
	--rules /dev/null --format json
for w in "" "--what-if **/fixtures/**"; do
	golden replay${w:+-what-if}.html tiadash --db week.db replay --repo "$SAMPLE/repo" $W \
		--no-builtin-rules --rules /dev/null $w --format html
done
for f in json csv; do
	golden tests.$f tiadash --db week.db tests $W --format $f
	golden tests-green.$f tiadash --db week.db tests $W --green 3 --format $f
done
golden tests-id.json tiadash --db week.db tests $W --id "tests/test_fx.py::test_rates_from_fixture" --format json
for f in json md html; do
	golden propose.$f tiadash --db week.db --repo "$SAMPLE/repo" propose $W --format $f
	golden propose-none.$f tiadash --db week.db --repo "$SAMPLE/repo" propose $W \
		--no-builtin-rules --format $f
done
for pr in 412 421 428 434 435; do
	golden show-$pr.json tiadash --db week.db --repo "$SAMPLE/repo" show --format json $pr
done
# A rule in effect: show's "changed" names it and its source.
git clone -q "$SAMPLE/repo" ruled && mkdir ruled/.tiadash && echo "**/fixtures/**" >ruled/.tiadash/rules
golden show-434-ruled.json tiadash --db week.db --repo ruled show --format json 434

# seed: a small experiment on a copy of the sample repository whose test
# commands catch a mutant by its diff (the subset only when the selector,
# for a change to JavaScript, selects anything; the full suite only in
# JavaScript and Python), its times pinned in the store; then --show.
cp -r "$SAMPLE/repo" repo
tiadash --repo repo seed $W --changes 3 --mutants 2 --seed 3 \
	--selector 'grep -q "\.js$" && echo t || echo nothing' \
	--test 'if [ $# -gt 0 ]; then git diff --quiet; fi' \
	--full 'git diff --quiet -- "*.js" "*.py"' --format json >seed.json 2>seed.err
echo "exit $?" >out/seed-run.rc
sqlite3 repo/.tiadash/tiadash.db "UPDATE seed_mutant SET subset_s = pos * 0.25, full_s = 1.5 + pos" 2>>seed.err
for f in json csv md; do
	golden seed.$f tiadash --repo repo seed --show=1 --format $f
done

test_expect_success 'every output ran' '
	for f in out/*.rc; do
		case "$f" in
		out/gate-check.*) echo "exit 1" ;;
		*) echo "exit 0" ;;
		esac >expect &&
		test_cmp expect "$f" || { cat "${f%.rc}.err"; return 1; }
	done
'

if [ -n "${GOLDEN_UPDATE:-}" ]; then
	rm -rf "$GOLDEN" && mkdir -p "$GOLDEN" &&
	for f in out/*; do
		case "$f" in *.rc|*.err) ;; *) cp "$f" "$GOLDEN/" ;; esac
	done
fi

test_expect_success 'the same files as the golden ones' '
	(cd "$GOLDEN" && ls) >expect &&
	(cd out && ls | grep -v "\.rc$\|\.err$") >actual &&
	test_cmp expect actual
'

for g in "$GOLDEN"/*; do
	n=$(basename "$g")
	test_expect_success "$n is byte-identical" '
		cmp "$g" "out/$n" || { diff -u "$g" "out/$n" | head -40; false; }
	'
done

test_done
