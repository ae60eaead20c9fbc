#!/usr/bin/env bash
# Includes point down only: every `#include "MODULE/..."` in the source
# modules is checked against the layers the README's Layout section lists
# ("    layer N: MODULE..."), so the table there is the rule and this file
# only applies it. A file may include its own module and the layers below;
# an include from a layer above, from another module of the same layer, or
# from no module of the table is named with its file:line.
. "$(dirname "$0")/lib.sh"

# layers README: "MODULE N" for each module of the README's table.
layers() {
	sed -n 's/^    layer \([0-9][0-9]*\): *\(.*\)$/\1 \2/p' "$1" |
	while read -r n mods; do
		for m in $mods; do echo "$m $n"; done
	done
}

# check_includes ROOT: the includes under ROOT's modules that break the
# layering of ROOT/README.md, one "file:line: ..." each; none when it holds.
check_includes() {
	local root=$1
	(cd "$root" && layers README.md >"$TRASH/.layers" &&
	 mods=$(cut -d" " -f1 "$TRASH/.layers") &&
	 find $mods -name '*.[ch]' | LC_ALL=C sort |
	 xargs grep -n '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' /dev/null |
	 awk -v layers="$TRASH/.layers" '
	 BEGIN { while ((getline l <layers) > 0) { split(l, f, " "); layer[f[1]] = f[2] } }
	 {
		split($0, p, ":"); file = p[1]; line = p[2]
		mod = file; sub(/\/.*/, "", mod)
		inc = $0; sub(/^[^"]*"/, "", inc); sub(/".*/, "", inc)
		to = inc; if (sub(/\/.*/, "", to) == 0) to = ""
		if (to == mod)
			next
		if (!(to in layer))
			printf "%s:%s: includes \"%s\", of no layer\n", file, line, inc
		else if (layer[to] > layer[mod])
			printf "%s:%s: includes \"%s\" from layer %s above %s (layer %s)\n",
			       file, line, inc, layer[to], mod, layer[mod]
		else if (layer[to] == layer[mod])
			printf "%s:%s: includes \"%s\" from %s, a module of its own layer %s\n",
			       file, line, inc, to, layer[mod]
	 }')
}

test_expect_success 'the README lays out every source module of the Makefile, once' '
	layers "$TOP/README.md" | cut -d" " -f1 | LC_ALL=C sort >listed &&
	sed -n "s/^SRC_DIRS = //p" "$TOP/Makefile" | tr " " "\n" | LC_ALL=C sort >expect &&
	test_cmp expect listed &&
	echo "core 0" >expect && layers "$TOP/README.md" | head -1 >actual &&
	test_cmp expect actual
'

test_expect_success 'every include of the tree points down' '
	check_includes "$TOP" >actual &&
	test_cmp /dev/null actual
'

test_expect_success 'the tree with one include up added is caught at that line' '
	mkdir real && cp "$TOP/README.md" real/ &&
	(cd "$TOP" && cp -r $(sed -n "s/^SRC_DIRS = //p" Makefile) "$TRASH/real/") &&
	n=$(($(wc -l <real/core/treeindex.c) + 1)) &&
	echo "#include \"adapters/common.h\"" >>real/core/treeindex.c &&
	check_includes real >actual &&
	echo "core/treeindex.c:$n: includes \"adapters/common.h\" from layer 1 above core (layer 0)" >expect &&
	test_cmp expect actual
'

# A copy of the README's table over a tree of a few files, some includes
# pointing down and some up.
test_expect_success 'an include up, sideways or out of the table is named with its place' '
	mkdir -p bad/core bad/adapters bad/ingest bad/metrics bad/replay bad/seed bad/tui &&
	cp "$TOP/README.md" bad/ &&
	printf "#include \"core/util.h\"\n#include \"adapters/adapter.h\"\n" >bad/core/rules.c &&
	printf "#include \"core/input.h\"\n#  include \"ingest/input.h\"\n" >bad/adapters/testmon.c &&
	printf "#include \"adapters/adapter.h\"\n#include \"core/input.h\"\n" >bad/ingest/run.c &&
	printf "#include \"replay/replay.h\"\n#include \"metrics/common.h\"\n" >bad/replay/x.h &&
	printf "#include \"metrics/common.h\"\n#include \"ingest/junit.h\"\n" >bad/seed/run.c &&
	printf "#include <yaml.h>\n#include \"gen/manpage.h\"\n#include \"seed/seed.h\"\n" >bad/tui/tui.c &&
	check_includes bad >actual &&
	cat >expect <<-\EOF_ &&
	adapters/testmon.c:2: includes "ingest/input.h" from layer 2 above adapters (layer 1)
	core/rules.c:2: includes "adapters/adapter.h" from layer 1 above core (layer 0)
	replay/x.h:2: includes "metrics/common.h" from layer 4 above replay (layer 3)
	tui/tui.c:2: includes "gen/manpage.h", of no layer
	tui/tui.c:3: includes "seed/seed.h" from seed, a module of its own layer 5
	EOF_
	test_cmp expect actual
'

test_done
