#!/bin/bash
# The man page documents every command: each --help synopsis appears in it
# (git's t0450), it renders without warnings, and make install puts it in place.
. "$(dirname "$0")/lib.sh"

MAN=$TOP/man/tiadash.1

# The roff source with escapes undone, one line per input line.
sed -e 's/\\-/-/g' -e 's/\\e/\\/g' -e 's/^\.[A-Z][A-Z]* //' -e 's/\\f[BIRP]//g' "$MAN" >man.txt

for c in $(tiadash help | sed -n 's/^  \([a-z][a-z-]*\) .*/\1/p'); do
	test_expect_success "the man page has the synopsis of '$c'" "
		tiadash $c --help | sed -n 's/^usage: //p; s/^       \(tiadash .*\)/\1/p' >synopsis &&
		test -s synopsis &&
		while IFS= read -r line; do
			grep -qF -- \"\$line\" man.txt || { echo \"not in the man page: \$line\"; exit 1; }
		done <synopsis
	"
done

# The options a command's synopsis in the man page names: its .B lines
# after .SS NAME, up to the first paragraph; "-o" and "--since", one a
# line, and a placeholder for a group of them ("[CRITERIA...]").
synopsis_options() {
	awk -v c="$1" '$0 == ".SS " c { on = 1; next }
		on && /^\.(PP|SS|SH)/ { exit }
		on && /^\.B tiadash / { print }' "$MAN" |
	sed -e 's/\\-/-/g' -e 's/^\.B //' |
	grep -oE '(^|[][ (|])--?[a-zA-Z][a-zA-Z0-9-]*|\[[A-Z]+\.\.\.\]' |
	sed 's/^[][ (|]-/-/' | sort -u
}

# Options are data (core/options.h): for a command with an option table,
# the man page's synopsis names exactly the table's options (-o or
# --output either way), no fewer and no more; --db and --repo are global.
for c in $(tiadash help | sed -n 's/^  \([a-z][a-z-]*\) .*/\1/p'); do
	tiadash help --options $c >/dev/null 2>&1 || continue
	test_expect_success "the man page's synopsis of '$c' names exactly its options" "
		tiadash help --options $c >table &&
		synopsis_options $c >named &&
		tr ' ' '\n' <table | sort -u >known &&
		while read -r names; do
			found= &&
			for n in \$names; do grep -qxF -- \"\$n\" named && found=1 || :; done &&
			test -n \"\$found\" || { echo \"$c: the synopsis lacks \$names\"; exit 1; }
		done <table &&
		while read -r n; do
			case \$n in --db|--repo) continue ;; esac &&
			grep -qxF -- \"\$n\" known || { echo \"$c: not in its table: \$n\"; exit 1; }
		done <named
	"
done

test_expect_success 'the man page renders without warnings' '
	LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -l "$MAN" >rendered 2>warnings &&
	test_must_be_empty warnings &&
	test_grep "PAIRS AND THEIR CLASSES" rendered
'

# .BR and friends join their arguments with no space between: words after
# a closing ")." on the same line run together ("CLASSES).Overall").
test_expect_success 'no font macro runs prose words together' '
	grep -nE "^\.(BR|IR|RB|RI|BI|IB) (\"[^\"]*\"|[^ ]+) [).,;:]+ [A-Za-z]" \
		"$MAN" | grep -vE "\.IR [a-zA-Z]+ : [a-zA-Z]+" >found;
	test_must_be_empty found
'

test_expect_success 'make install honours PREFIX and DESTDIR' '
	# -o: install the binary under test as it is; rebuilding it here (other
	# flags) would swap it under the tests running beside this one.
	stamp=$(stat -c %Y "$TOP"/build/*/.flags 2>/dev/null) &&
	make -s -C "$TOP" install DESTDIR="$TRASH/dest" PREFIX=/usr \
		BIN="$TIADASH_BIN" -o "$TIADASH_BIN" >/dev/null &&
	test "$(stat -c %Y "$TOP"/build/*/.flags 2>/dev/null)" = "$stamp" &&
	test -x dest/usr/bin/tiadash &&
	test -f dest/usr/share/man/man1/tiadash.1 &&
	dest/usr/bin/tiadash --version >v && test_grep "^tiadash " v
'

test_done
