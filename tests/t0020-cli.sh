#!/bin/bash
# The command line as git users expect it: "did you mean", global options
# after the command, usage errors that create nothing, --project for a
# repository name, `help COMMAND` from the manual in the binary, text that
# fits 80 columns, the window forms and the one default window.
. "$(dirname "$0")/lib.sh"

test_expect_success 'a mistyped command: the most similar ones, exit 2' '
	for typo in reprot:report stauts:status gatecheck:gate-check gate:gate-check; do
		test_expect_code 2 tiadash ${typo%%:*} >out 2>err &&
		test_must_be_empty out &&
		printf "%s\n\n%s\n\t%s\n" \
			"tiadash: error: '"'"'${typo%%:*}'"'"' is not a tiadash command (see '"'"'tiadash help'"'"')" \
			"The most similar command is" "${typo#*:}" >expect &&
		test_cmp expect err || return 1
	done &&
	test_expect_code 2 tiadash xyzzy 2>err &&
	! grep -q "most similar" err
'

test_expect_success 'a mistyped option: the most similar ones, globals included' '
	test_expect_code 2 tiadash report --fromat json 2>err &&
	test_grep "^tiadash: error: unknown option .--fromat.$" err &&
	test "$(tail -n 2 err)" = "$(printf "The most similar option is\n\t--format")" &&
	test_expect_code 2 tiadash status --dbb x 2>err &&
	test "$(tail -n 1 err)" = "$(printf "\t--db")"
'

test_expect_success 'setup: the sample week' '
	tiadash --db week.db --repo "$SAMPLE/repo" ingest "$SAMPLE/artifacts" >out &&
	echo "798 new runs, 0 unchanged" >expect && test_cmp expect out
'

test_expect_success 'global options after the command, in both spellings' '
	tiadash --db week.db status >before &&
	tiadash status --db week.db >after && test_cmp before after &&
	tiadash status --db=week.db >after && test_cmp before after &&
	tiadash show 434 --db week.db --repo "$SAMPLE/repo" >a &&
	tiadash --db week.db --repo "$SAMPLE/repo" show 434 >b && test_cmp a b &&
	test_expect_code 2 tiadash status --db 2>err &&
	test_grep "needs a value" err
'

test_expect_success 'a command line after -- is not the global options'"'"' (record)' '
	git init -q job && git -C job commit -q --allow-empty -m init &&
	(cd job && tiadash record --kind full --out run -- echo --db zzz --repo y) >out &&
	echo "--db zzz --repo y" >expect && test_cmp expect out &&
	! test -e job/zzz
'

test_expect_success 'a usage error creates no store' '
	git init -q empty && cd empty &&
	test_expect_code 2 tiadash ingest 2>err &&
	test_grep "nothing to ingest" err &&
	test_expect_code 2 tiadash ingest --kind shadow 2>err &&
	test_expect_code 2 tiadash ingest --github acme/x 2>err &&
	test_expect_code 2 tiadash init extra 2>err &&
	test_expect_code 2 tiadash --db ../new.db ingest 2>err &&
	! test -e .tiadash && ! test -e ../new.db
'

test_expect_success 'init writes the .gitignore of .tiadash/ once' '
	git init -q fresh && cd fresh &&
	tiadash init >out &&
	test_grep "^wrote .*/.tiadash/.gitignore: the store, runs/, seed/, worktrees/ and selector-cache/ stay out of git$" out &&
	printf "%s\n" "# Written by tiadash init: commit the rules and the config, not these." \
		tiadash.db "tiadash.db-*" runs/ seed/ worktrees/ selector-cache/ >expect &&
	test_cmp expect .tiadash/.gitignore &&
	echo "# ours" >.tiadash/.gitignore && tiadash init >out &&
	! grep -q gitignore out && echo "# ours" >expect && test_cmp expect .tiadash/.gitignore &&
	mkdir -p .tiadash/runs/x && touch .tiadash/rules &&
	git status --porcelain --untracked-files=all .tiadash >st &&
	printf "?? .tiadash/.gitignore\n?? .tiadash/rules\n" >expect &&
	sed -i "s/^# ours$/tiadash.db*/" .tiadash/.gitignore && echo "runs/" >>.tiadash/.gitignore &&
	git status --porcelain --untracked-files=all .tiadash >st &&
	test_cmp expect st &&
	tiadash --db ../elsewhere.db init >out && ! test -e ../.gitignore
'

test_expect_success '--project NAME; --repo NAME still works, with a warning' '
	tiadash --db week.db report --since 7d --project acme/ledger --format json >p.json 2>err &&
	test_must_be_empty err &&
	tiadash --db week.db report --since 7d --repo acme/ledger --format json >r.json 2>err &&
	test_cmp p.json r.json &&
	echo "tiadash: warning: report --repo NAME is deprecated: use --project NAME (--repo will mean the repository path, as before the command)" >expect &&
	test_cmp expect err &&
	tiadash --db week.db report --project acme/other --format json >o.json &&
	test "$(json_get o.json "d[\"pairs\"]")" = 0 &&
	for c in report gate-check summary propose tui; do
		tiadash $c --help >h && test_grep "^  --project NAME" h || return 1
	done
'

test_expect_success 'help COMMAND prints its section of the manual, without man' '
	env PATH=/nonexistent "$TIADASH_BIN" help status >status.txt &&
	head -n 3 status.txt >actual &&
	printf "   status\n       tiadash status [--format text|json] [-o FILE]\n\n" >expect &&
	test_cmp expect actual &&
	test_grep "^       What the store holds. JSON keys: runs {shadow, full}, pairs, tests,$" status.txt &&
	tiadash help keys >keys.txt && test_grep "^DASHBOARD KEYS$" keys.txt &&
	test_expect_code 2 tiadash help windoes 2>err &&
	test "$(tail -n 1 err)" = "$(printf "\twindows")"
'

# The words of a rendering, with roff's typography (hyphens, minus signs,
# quotes, dashes, bullets) undone.
words() {
	pyserve roff_words "$1"
}

test_expect_success 'every command'"'"'s section reads as man renders it (word for word)' '
	if ! command -v man >/dev/null; then echo "# man is not installed: skipped"; exit 0; fi &&
	LC_ALL=C.UTF-8 MANWIDTH=80 man --nj --nh -l "$TOP/man/tiadash.1" >man.txt 2>/dev/null &&
	for c in $(tiadash help | sed -n "s/^  \([a-z][a-z-]*\) .*/\1/p"); do
		tiadash help $c >ours.$c &&
		awk -v c="$c" '"'"'$0 == "   " c { on = 1; print; next }
			on && (/^   [a-z][a-z-]*$/ || /^[A-Z]/) { exit } on'"'"' man.txt >man.$c &&
		words man.$c >w.man && words ours.$c >w.ours &&
		test_cmp w.man w.ours || return 1
	done
'

# Display columns of the longest line (characters: the output is UTF-8).
widest() {
	pyserve widest "$1"
}

test_expect_success 'text output fits 80 columns; md and json stay whole' '
	for c in "propose" "propose --limit all" "summary" "report --since 7d" "gate-check" \
		 "show 434" "show 612" "replay --since 7d" "propose --preview web/src/config/**"; do
		tiadash --db week.db --repo "$SAMPLE/repo" $c >out.txt ||
			test $? = 1 || return 1
		test "$(widest out.txt)" -le 80 || { echo "$c: $(widest out.txt) columns"; return 1; }
	done &&
	tiadash --db week.db summary --format md >s.md &&
	grep -qxF -e "- PR #674 148f67aad765 acme/ledger (escape); missed \`tests/registry/test_plugins.py::test_rounding_plugin_loaded\`; selected but failed \`tests/test_tax.py::test_vat_eu_standard_rate\`" s.md &&
	test "$(grep -c "n/a" s.md)" = 2 &&
	tiadash --db week.db summary >s.txt &&
	sed -n "/^- PR #674/,/^- PR #688/p" s.txt >actual &&
	cat >expect <<-\EOF &&
	- PR #674 148f67aad765 acme/ledger (escape); missed
	  tests/registry/test_plugins.py::test_rounding_plugin_loaded; selected but
	  failed tests/test_tax.py::test_vat_eu_standard_rate
	- PR #688 81ace36ac6cf acme/ledger (escape); missed
	EOF
	test_cmp expect actual
'

test_expect_success 'status, --help and a bad --since fit 80 columns; a missing --db store says so' '
	tiadash --db week.db status >st.txt &&
	tail -2 st.txt >actual &&
	cat >expect <<-\EOF &&
	identity  118 of 118 failing tests resolved,
	          0 of 490 selection entries select no test
	EOF
	test_cmp expect actual &&
	tiadash --help >h.txt && tiadash help >help.txt && test_cmp h.txt help.txt &&
	test "$(widest h.txt)" -le 80 &&
	sed -n "/^  seed /,/^  tui /p" h.txt >actual &&
	cat >expect <<-\EOF &&
	  seed        Seed defects outside sampled changes'"'"' impact sets: what the
	              subset, the full suite and nothing catch.
	  tui         Open the dashboard: overview, runs, disagreements, detail,
	EOF
	test_cmp expect actual &&
	test_expect_code 2 tiadash --db week.db report --since bogus 2>err &&
	echo "tiadash: error: --since '"'"'bogus'"'"': expected 1y, 7d, 24h, a date or RFC 3339 time" >expect &&
	head -1 err >actual && test_cmp expect actual &&
	test "$(widest err)" -le 80 &&
	test_expect_code 2 tiadash --db /nope.db status 2>err &&
	echo "tiadash: error: no store at '"'"'/nope.db'"'"' (the --db given); '"'"'tiadash ingest'"'"' creates one" >expect &&
	test_cmp expect err &&
	test_expect_code 2 env TIADASH_DB=/nope.db "$TIADASH_BIN" status 2>err &&
	echo "tiadash: error: no store at '"'"'/nope.db'"'"' (TIADASH_DB); '"'"'tiadash ingest'"'"' creates one" >expect &&
	test_cmp expect err
'

# A help line over 80 columns as written is refitted with its description
# moved under the option, four columns in: each is written to fit.
test_expect_success 'every command'"'"'s --help is written to fit: each option beside its text' '
	for c in $(tiadash help | sed -n "s/^  \([a-z][a-z-]*\) .*/\1/p"); do
		tiadash $c --help >h.$c &&
		test "$(widest h.$c)" -le 80 &&
		! grep -n "^    [^ ]" h.$c || { echo "$c --help"; return 1; }
	done &&
	tiadash replay --help >h.replay &&
	cat >expect <<-\EOF &&
	  -j, --jobs N             selector calls and tree comparisons in parallel
	                           (default 1)
	EOF
	grep -A1 "^  -j, --jobs N" h.replay >actual &&
	test_cmp expect actual
'

test_expect_success 'a word too long for its line is cut with ~ (text only)' '
	long=$(printf "a%.0s" $(seq 1 120)) &&
	tiadash --db week.db report --project "$long" >r.txt &&
	test_grep "^Window       all time,$" r.txt &&
	test_grep "^             aaa*~$" r.txt &&
	test "$(widest r.txt)" -le 80 &&
	tiadash --db week.db report --project "$long" --format md >r.md &&
	test_grep "$long" r.md
'

test_expect_success '--since takes years, weeks, days, hours and minutes' '
	tiadash --db week.db report --since 1w --format json >w.json &&
	tiadash --db week.db report --since 7d --format json >d.json &&
	test_cmp w.json d.json &&
	tiadash --db week.db report --since 90m --format json >m.json &&
	test "$(json_get m.json "d[\"window\"][\"since\"]")" = 2026-11-07T22:30:00Z &&
	tiadash report --help >h && test_grep "1y, 7d, 24h, 90m" h &&
	tiadash help windows >w.txt &&
	test_grep "(1y, 1w, 7d, 24h, 90m: N years of 365 days, weeks, days, hours" w.txt
'

test_expect_success '--since 1y: the 365 days before now' '
	tiadash --db week.db report --since 1y --format json >y.json &&
	test "$(json_get y.json "d[\"window\"][\"since\"]")" = 2025-11-08T00:00:00Z &&
	tiadash --db week.db report --since 365d --format json >d365.json &&
	test_cmp y.json d365.json &&
	test_expect_code 2 tiadash --db week.db report --since 1yr 2>err &&
	echo "tiadash: error: --since '"'"'1yr'"'"': expected 1y, 7d, 24h, a date or RFC 3339 time" >expect &&
	head -1 err >actual && test_cmp expect actual
'

test_expect_success 'gate-check and summary default to the same window: the 7 days up to now' '
	test_expect_code 1 tiadash --db week.db gate-check --format json >g.json &&
	test_expect_code 1 tiadash --db week.db gate-check --since 7d --format json >g7.json &&
	test_cmp g7.json g.json &&
	test_expect_code 1 tiadash --db week.db gate-check >g.txt &&
	test "$(head -n 1 g.txt)" = "gate-check: 2026-11-01T00:00:00Z .. 2026-11-08T00:00:00Z, all repos" &&
	tiadash --db week.db summary >s.txt &&
	test "$(head -n 1 s.txt)" = "tiadash summary: 2026-11-01T00:00:00Z .. 2026-11-08T00:00:00Z, all repos" &&
	tiadash gate-check --help | tr -s " \n" "  " >h &&
	test_grep "7 days before --until, as for summary" h &&
	tiadash summary --help | tr -s " \n" "  " >h &&
	test_grep "before --until, as for gate-check" h
'

test_done
