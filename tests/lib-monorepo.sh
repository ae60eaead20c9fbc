# Helpers of the tests of a monorepo package's names under the team's id-map
# (t1086, t1087): the package, jest-junit's reports of its runner, the rule.

# The rule: a describe title ("Toolbar renders") to its test file, relative
# to the package ("src/toolbar.test.js").
RULE='id-map = ^(\w+)( .*)?$ => src/\L$1\E.test.js'

# web_repo NAME...: ./repo, with packages/web/src/NAME.test.js for each NAME
# and packages/web/src/toolbar.js, which the second commit ("toolbar (#1)")
# changes.
web_repo() {
	local t
	git init -q -b main repo && mkdir -p repo/packages/web/src &&
	for t in "$@"; do
		echo "test(\"$t\", () => {})" >repo/packages/web/src/$t.test.js || return 1
	done &&
	echo "exports.buttons = () => 3;" >repo/packages/web/src/toolbar.js &&
	(cd repo && commit_at 2026-10-30T10:00:00Z base &&
	 echo "exports.buttons = () => 4;" >packages/web/src/toolbar.js &&
	 commit_at 2026-10-30T11:00:00Z "toolbar (#1)")
}

# jest_file FILE TITLE[:failed]...: jest-junit's report with addFileAttribute,
# each test of src/<first word, lower-cased>.test.js named by its titles.
jest_file() {
	local f=$1 t title file
	shift
	{
		echo '<?xml version="1.0" encoding="UTF-8"?>'
		echo '<testsuites name="jest tests"><testsuite name="web">'
		for t in "$@"; do
			title=${t%:failed} file=${t%% *}
			file="src/$(echo "$file" | tr A-Z a-z).test.js"
			if [ "$title" != "$t" ]; then
				echo "<testcase classname=\"$title\" name=\"$title\" file=\"$file\"><failure>boom</failure></testcase>"
			else
				echo "<testcase classname=\"$title\" name=\"$title\" file=\"$file\"/>"
			fi
		done
		echo '</testsuite></testsuites>'
	} >"$f"
}

# identity_lines DB OUT: status's identity lines (the heading and its
# indented figures) of DB, written to OUT.
identity_lines() {
	tiadash --db "$1" --repo repo status >st.txt &&
	awk "/^identity/ { p = 1; print; next } p && /^ / { print; next } { p = 0 }" st.txt >"$2"
}
