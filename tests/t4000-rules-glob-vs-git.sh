#!/usr/bin/env bash
# Globs match exactly as gitignore does: every pattern of the table against
# every path, through `tiadash rules --test`, agrees with
# `git check-ignore --no-index` (braces left out: git has none).
. "$(dirname "$0")/lib.sh"

git init -q repo && cd repo || exit 2

cat >paths <<'EOF'
foo
foo/x
x/foo
x/foo/y
foo/bar
foo/bar/z
x/foo/bar
foo/x/bar
foo/x/y/bar
x/bar
bar
a.c
b.c
d.c
src/a.c
src/b.min.js
ab
axb
a/b
ax/y/b
ab/c
x/ab/c
x/ay/z
x/yb
a/bc/d
a/x/b
.env
.env.local
config/.env.prod
api/v1/x.proto
src/a/b/c.ts
src/c.ts
lib/test-utils/h.js
test-utils/x
vendor/a/b.c
vendors/x.c
x/vendor
docs/a.md
docs/x/y/b.md
1x
ax
bx
dx
]x
-x
!x
#x
a b
*.c
9abc
Abc
zx
q/Q9
EOF

cat >patterns <<'EOF'
foo
foo/
/foo
/foo/
foo/bar
/foo/bar
foo/bar/
x/foo
*.c
*.min.js
a*b
*
**
/**
***
**/foo
**/foo/
**/foo/bar
**/foo/**
foo/**
foo/**/bar
foo/**/
a**/b
x/a**
x/a**/c
x/**b
a/b**
a/***/b
**foo
foo**
?.c
foo?
??
[abc].c
[!abc].c
[^abc].c
[a-c]x
[]a]x
[!]a]x
[a-]x
[-a]x
[a-c-e]x
[z-a]x
[[:digit:]]*
[[:alpha:]][[:alnum:]]*
[[:upper:]]*
[[:punct:]]x
[[:xdigit:]]x
[\]]x
a/[/]b
\*.c
\#x
\!x
a\ b
foo/*/bar
*/bar
*/*
foo/*
.env*
**/.env*
**/*.proto
src/**/*.ts
**/test-utils/**
vendor
vendor*/
docs/**/*.md
q/[[:upper:]][[:digit:]]
EOF

# One TAP line per pattern: the rows where git and tiadash disagree, if any.
while IFS= read -r pat; do
	test_expect_success "glob '$pat' agrees with git check-ignore" '
		printf "%s\n" "$pat" >.gitignore &&
		git check-ignore --no-index --stdin -v -n <paths |
			awk -F "\t" "{ print \$2 \"\t\" (\$1 == \"::\" ? \"no\" : \"match\") }" >expect &&
		printf "%s\n" "$pat" >rules &&
		tiadash rules --no-builtin-rules --rules rules --test --format json <paths >out.json &&
		json_get out.json "\"\\n\".join(p[\"path\"] + \"\\t\" +
			(\"match\" if p[\"rule\"] else \"no\") for p in d[\"paths\"])" >actual &&
		test_cmp expect actual
	'
done <patterns

test_expect_success 'the table has both matches and non-matches for most patterns' '
	printf "%s\n" "**/foo" >rules &&
	tiadash rules --no-builtin-rules --rules rules --test foo x/foo/y bar >out &&
	cat >expect <<-\EOF &&
	foo      run_all  **/foo  rules:1  (in effect: rules)
	x/foo/y  run_all  **/foo  rules:1  (in effect: rules)
	bar      -        (no rule)
	EOF
	test_cmp expect out
'

test_done
