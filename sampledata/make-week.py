#!/usr/bin/env python3
"""make-week.py: build the sample shadow week that tiadash's demo and tests use.

    python3 sampledata/make-week.py --out sampledata/build [--verify]

Writes, into a freshly wiped --out:
  repo/           a git repository for acme/ledger: an import before the week,
                  then ~300 interleaved PRs (merge and squash commits) and a few
                  direct pushes between 2026-11-01 and 2026-11-07 (git fast-import)
  artifacts/      one directory per CI job (tiadash.run.v1 manifest + JUnit,
                  selections, coverage, quarantine), main's post-merge runs
                  (one red span of main planted), and artifacts/index.json
  expected.json   the ground truth, computed from this script's own model of
                  what it generated (see README.md beside this script)

Standard library only; deterministic (fixed seed, fixed dates, fixed git
identities); --verify cross-checks the model against git afterwards.
"""
import argparse
import calendar
import json
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

import random

SEED = 20261101
REPO_SLUG = "acme/ledger"
WORKSPACE = "/home/runner/work/ledger/ledger"


def ep(s):
    return calendar.timegm(time.strptime(s, "%Y-%m-%dT%H:%M:%SZ"))


WEEK_START = ep("2026-11-01T00:00:00Z")
WEEK_END = ep("2026-11-08T00:00:00Z")
IMPORT_AT = ep("2026-10-26T09:12:07Z")
QUARANTINE_V2_AT = ep("2026-11-04T13:00:00Z")


# ---------------------------------------------------------------- helpers --

def fmt_z(ms):
    sec, frac = divmod(ms, 1000)
    s = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(sec))
    return s + (".%03d" % frac if frac else "") + "Z"


def fmt_started(ms, off_min, style):
    """RFC 3339 with the producer's offset; style: 0 none, 3 ms digits, 6 us digits."""
    sec, frac = divmod(ms, 1000)
    s = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(sec + off_min * 60))
    if style == 3:
        s += ".%03d" % frac
    elif style == 6:
        s += ".%06d" % (frac * 1000)
    return s + ("Z" if off_min == 0 else "+%02d:%02d" % divmod(off_min, 60))


def pct(xs, q):
    """numpy.percentile's default (linear) method, including its _lerp."""
    if not xs:
        return None
    xs = sorted(xs)
    pos = (len(xs) - 1) * q
    lo = math.floor(pos)
    hi = min(lo + 1, len(xs) - 1)
    t = pos - lo
    a, b = xs[lo], xs[hi]
    d = b - a
    return b - d * (1 - t) if t >= 0.5 else a + d * t


def mean(xs):
    return math.fsum(xs) / len(xs) if xs else None


def esc(s, attr=False):
    s = s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return s.replace('"', "&quot;") if attr else s


def glob_re(pat):
    """gitignore-style glob (the subset the team's rules use) to a regex."""
    anchored = "/" in pat.rstrip("/")
    out, i = "", 0
    if pat.startswith("**/"):
        out, i, anchored = "(?:.*/)?", 3, True
    while i < len(pat):
        if pat.startswith("/**", i) and i + 3 == len(pat):
            out += "/.*"
            i += 3
        elif pat.startswith("**/", i):
            out += "(?:.*/)?"
            i += 3
        elif pat[i] == "*":
            out += "[^/]*"
            i += 1
        elif pat[i] == "?":
            out += "[^/]"
            i += 1
        else:
            out += re.escape(pat[i])
            i += 1
    return re.compile(("" if anchored else "(?:.*/)?") + out + "$")


def split_id(tid):
    if "::" in tid:
        s, c = tid.split("::", 1)
        return s, c
    s, _, c = tid.rpartition(":")
    return s, c


def entry_matches(entry, suite, case):
    e = entry.strip()
    while e.endswith("/"):
        e = e[:-1]
    if not e:
        return False
    return (e == suite + "::" + case or e == suite + ":" + case or e == suite
            or suite.startswith(e + "/"))


def any_match(entries, suite, case):
    return any(entry_matches(e, suite, case) for e in entries)


# ------------------------------------------------------------- inventory --

class Test:
    def __init__(self, lang, suite, case, file, deps, data=(), hidden=()):
        self.lang, self.suite, self.case, self.file = lang, suite, case, file
        self.deps, self.data, self.hidden = tuple(deps), tuple(data), tuple(hidden)
        self.id = suite + "::" + case
        self.skip = None
        self.line = 0

    def __repr__(self):
        return self.id


PY_TESTS = [  # file, source deps, cases, {case index: data files}
    ("tests/test_money.py", ["ledger/money.py"],
     ["test_add_same_currency", "test_add_mixed_currency_raises", "test_round_half_even"], {}),
    ("tests/test_accounts.py", ["ledger/accounts.py", "ledger/money.py"],
     ["test_open_account", "test_close_account_with_balance_raises", "test_account_tree_paths"], {}),
    ("tests/test_journal.py", ["ledger/journal.py", "ledger/accounts.py"],
     ["test_post_balanced_entry", "test_reject_unbalanced_entry", "test_reverse_entry"], {}),
    ("tests/test_currency.py", ["ledger/currency.py"],
     ["test_iso_codes", "test_minor_units", "test_unknown_currency"], {}),
    ("tests/test_fx.py", ["ledger/fx.py", "ledger/currency.py"],
     ["test_convert_eur_usd", "test_rates_from_fixture", "test_stale_rate_warning"],
     {1: ["tests/fixtures/fx_rates.json"]}),
    ("tests/test_tax.py", ["ledger/tax.py", "ledger/plugins/vat_eu.py", "ledger/plugins/vat_us.py"],
     ["test_vat_eu_standard_rate", "test_vat_us_sales_tax", "test_rates_table_matches_fixture"],
     {2: ["tests/fixtures/vat_rates.json"]}),
    ("tests/exports/test_csv.py", ["ledger/exports/csv.py", "ledger/money.py"],
     ["test_width", "test_quotes_delimiters", "test_header_order"], {}),
    ("tests/exports/test_xlsx.py", ["ledger/exports/xlsx.py"],
     ["test_sheet_names", "test_number_formats", "test_large_export"], {}),
    ("tests/exports/test_pdf.py", ["ledger/exports/pdf.py", "ledger/invoices.py"],
     ["test_page_size", "test_totals_footer", "test_invoice_fixture_renders"],
     {2: ["tests/fixtures/invoices.json"]}),
    ("tests/exports/test_ofx.py", ["ledger/exports/ofx.py"],
     ["test_ofx_header", "test_ofx_transactions", "test_ofx_escaping"], {}),
    ("tests/imports/test_bank.py", ["ledger/imports/bank.py"],
     ["test_detect_columns", "test_rows_from_fixture", "test_duplicate_rows_skipped"],
     {1: ["tests/fixtures/bank_rows.json"]}),
    ("tests/imports/test_camt.py", ["ledger/imports/camt.py"],
     ["test_parse_camt053_fixture", "test_camt_currency", "test_camt_bad_namespace"],
     {0: ["tests/fixtures/camt_sample.json"]}),
    ("tests/imports/test_mt940.py", ["ledger/imports/mt940.py"],
     ["test_parse_statement", "test_mt940_balance", "test_mt940_truncated"], {}),
    ("tests/registry/test_plugins.py", ["ledger/registry/loader.py"],
     ["test_vat_eu_registered", "test_exporters_registered", "test_rounding_plugin_loaded"],
     {0: ["ledger/registry/entry_points.toml"], 1: ["ledger/registry/entry_points.toml"],
      2: ["ledger/registry/entry_points.toml"]}),
    ("tests/registry/test_loader.py", ["ledger/registry/loader.py"],
     ["test_entry_points_parse", "test_missing_plugin_error", "test_loader_cache"],
     {0: ["ledger/registry/entry_points.toml"]}),
    ("tests/api/test_routes.py", ["ledger/api/routes.py", "ledger/api/schemas.py"],
     ["test_list_accounts", "test_post_entry", "test_rate_limit_window"], {}),
    ("tests/api/test_auth.py", ["ledger/api/auth.py", "ledger/config.py"],
     ["test_token_required", "test_token_expiry", "test_scopes"], {}),
    ("tests/reports/test_balance.py", ["ledger/reports/balance.py", "ledger/ledger.py"],
     ["test_trial_balance", "test_balance_sheet_sections", "test_balance_empty_ledger"], {}),
    ("tests/reports/test_aging.py", ["ledger/reports/aging.py", "ledger/invoices.py"],
     ["test_aging_buckets_fixture", "test_aging_overdue", "test_aging_currency_mix"],
     {0: ["tests/fixtures/invoices.json"]}),
    ("tests/db/test_queries.py", ["ledger/db/queries.py", "ledger/db/models.py", "ledger/db/session.py"],
     ["test_accounts_fixture_load", "test_lock_timeout", "test_postgres_only_upsert"],
     {0: ["tests/fixtures/accounts.json"]}),
]
JS_TESTS = [
    ("ui/table", ["ui/table.js", "format/money.js"], ["Table renders rows", "Table sorts by amount", "Table paginates"], {}),
    ("ui/chart", ["ui/chart.js"], ["Chart draws series", "Chart animates on resize", "Chart uses theme palette"],
     {2: ["config/theme.json"]}),
    ("ui/form", ["ui/form.js"], ["Form validates amount", "Form submits entry", "Form resets after submit"], {}),
    ("ui/modal", ["ui/modal.js"], ["Modal opens", "Modal closes on escape", "Modal traps focus in Safari"], {}),
    ("ui/toolbar", ["ui/toolbar.js"], ["Toolbar renders actions", "Toolbar hides flagged actions"],
     {1: ["config/flags.json"]}),
    ("state/store", ["state/store.js"], ["store dispatches actions", "store persists session", "store rehydrates"], {}),
    ("state/reducers", ["state/reducers.js"],
     ["reducers add entry", "reducers remove entry", "reducers ignore unknown action"], {}),
    ("state/selectors", ["state/selectors.js", "state/store.js"],
     ["selectors total balance", "selectors filter by account", "selectors memoize"], {}),
    ("format/money", ["format/money.js"],
     ["formatMoney groups thousands", "formatMoney negative amounts", "formatMoney currency symbol"], {}),
    ("format/date", ["format/date.js"], ["formatDate iso", "formatDate relative", "formatDate uses locale table"],
     {2: ["config/locales.json"]}),
    ("format/number", ["format/number.js"], ["formatNumber precision", "formatNumber compact", "formatNumber NaN"], {}),
    ("api/client", ["api/client.js", "api/endpoints.js"],
     ["client sends auth header", "client retries on 503", "client parses errors"], {}),
    ("pages/accounts", ["pages/accounts.js", "ui/table.js"],
     ["Accounts page lists accounts", "Accounts page filters", "Accounts page empty state"], {}),
    ("pages/journal", ["pages/journal.js"],
     ["Journal page posts entry", "Journal page shows errors", "Journal page paginates"], {}),
    ("pages/reports", ["pages/reports.js", "ui/chart.js"],
     ["Reports page renders chart", "Reports page exports csv", "Reports page date range"], {}),
    ("pages/settings", ["pages/settings.js"],
     ["Settings page shows feature flags", "Settings page saves", "Settings page resets"],
     {0: ["config/flags.json"]}),
    ("i18n/i18n", ["i18n/index.js"], ["i18n loads locales", "i18n falls back to en", "i18n plural rules"],
     {0: ["config/locales.json"], 1: ["config/locales.json"]}),
]
C_TESTS = [
    ("money", ["money.c"], ["adds", "subtracts", "rounds_half_even", "formats_minor_units", "rejects_overflow", "compares"]),
    ("ledger_io", ["ledger_io.c", "parse.c"], ["reads", "writes", "appends", "concurrent_append", "rejects_truncated", "seeks"]),
    ("journal", ["journal.c", "money.c"], ["posts", "rejects_unbalanced", "reverses", "iterates", "closes_period"]),
    ("fx", ["fx.c"], ["converts", "inverts", "caches_rates", "rejects_stale", "rounds_cross_rate"]),
    ("hash", ["hash.c"], ["inserts", "finds", "deletes", "resize_under_load", "iterates_in_order"]),
    ("parse", ["parse.c"], ["parses_amount", "parses_date", "rejects_garbage", "parses_header", "handles_bom"]),
    ("csv_writer", ["csv_writer.c"], ["writes_header", "quotes_fields", "escapes_newlines", "flushes"]),
    ("alloc", ["alloc.c"], ["arena_grows", "arena_resets", "rejects_huge", "aligns"]),
]
SKIPPED = {"tests/db/test_queries.py::test_postgres_only_upsert": "requires postgres (LEDGER_PG_URL unset)",
           "web/src/ui/__tests__/modal.test.js::Modal traps focus in Safari": "skipped"}
FLAKY_POOL = ["web/src/api/__tests__/client.test.js::client retries on 503",
              "tests/db/test_queries.py::test_lock_timeout", "hash::resize_under_load"]
QUARANTINE_V1 = ["web/src/ui/__tests__/chart.test.js::Chart animates on resize", "ledger_io:concurrent_append"]
QUARANTINE_V2 = QUARANTINE_V1 + ["tests/api/test_routes.py::test_rate_limit_window"]

PY_SOURCES = ["ledger/money.py", "ledger/accounts.py", "ledger/journal.py", "ledger/ledger.py", "ledger/currency.py",
              "ledger/fx.py", "ledger/tax.py", "ledger/invoices.py", "ledger/reconcile.py", "ledger/cli.py",
              "ledger/config.py", "ledger/db/models.py", "ledger/db/session.py", "ledger/db/queries.py",
              "ledger/exports/csv.py", "ledger/exports/xlsx.py", "ledger/exports/pdf.py", "ledger/exports/ofx.py",
              "ledger/imports/bank.py", "ledger/imports/camt.py", "ledger/imports/mt940.py",
              "ledger/registry/loader.py", "ledger/plugins/vat_eu.py", "ledger/plugins/vat_us.py",
              "ledger/plugins/rounding.py", "ledger/api/routes.py", "ledger/api/auth.py", "ledger/api/schemas.py",
              "ledger/reports/balance.py", "ledger/reports/aging.py", "ledger/reports/cashflow.py",
              "ledger/utils/dates.py", "ledger/utils/text.py", "ledger/utils/legacy_csv.py", "ledger/utils/retry.py"]
PY_INITS = ["ledger/__init__.py", "ledger/db/__init__.py", "ledger/exports/__init__.py", "ledger/imports/__init__.py",
            "ledger/registry/__init__.py", "ledger/plugins/__init__.py", "ledger/api/__init__.py",
            "ledger/reports/__init__.py", "ledger/utils/__init__.py"]
JS_SOURCES = ["web/src/" + p for p in [
    "index.js", "app.js", "router.js", "api/client.js", "api/endpoints.js", "ui/table.js", "ui/chart.js",
    "ui/form.js", "ui/modal.js", "ui/toolbar.js", "state/store.js", "state/reducers.js", "state/selectors.js",
    "format/money.js", "format/date.js", "format/number.js", "pages/accounts.js", "pages/journal.js",
    "pages/reports.js", "pages/settings.js", "i18n/index.js", "legacy/print.js", "legacy/polyfills.js"]]
C_UNITS = ["money", "ledger_io", "journal", "fx", "hash", "parse", "csv_writer", "alloc"]
FIXTURES = ["tests/fixtures/" + f for f in ["invoices.json", "bank_rows.json", "camt_sample.json", "fx_rates.json",
                                            "accounts.json", "vat_rates.json"]]
WEBCONFIGS = ["web/src/config/flags.json", "web/src/config/locales.json", "web/src/config/theme.json"]
TEST_UTILS = ["web/src/test-utils/render.js", "web/src/test-utils/mocks.js", "web/src/test-utils/setup.js"]
DOCS = ["docs/%s.md" % d for d in ["architecture", "imports", "exports", "api", "plugins", "release", "testing",
                                   "shadow-week", "contributing", "runbook", "old-deploy", "old-reports"]] + \
       ["docs/adr/%04d-%s.md" % (i + 1, n) for i, n in enumerate(
           ["record-decisions", "decimal-money", "sqlite-store", "plugin-entry-points"])]
SCRIPTS = ["scripts/release.sh", "scripts/bootstrap.sh", "scripts/gen_fixtures.py", "scripts/old_deploy.sh"]
MIGRATION_NAMES = ["init", "accounts", "journal", "currencies", "fx_rates", "invoices", "tax_codes", "users",
                   "api_tokens", "audit_log", "period_close", "indexes"]

# The team's own selector: force-full rules (reason "force-full:GLOB"), roots it maps.
FORCE_FULL = ["**/package-lock.json", "**/package.json", "pyproject.toml", "poetry.lock", "Makefile",
              ".github/**", "migrations/**", "conftest.py", "web/src/test-utils/**", ".env*"]
FORCE_FULL_RE = [(g, glob_re(g)) for g in FORCE_FULL]
MAPPED_ROOTS = ("ledger/", "tests/", "web/src/", "core/", "docs/")
# codebase-memory-mcp's builtin run_all rules (build, ci, conftest, ...), for engine answers.
CBM_RULES = [glob_re(g) for g in ["**/package*.json", "Makefile*", "pyproject.toml", ".github/**",
                                  "conftest.py", "poetry.lock"]]


def build_tests():
    tests = []
    for file, deps, cases, data in PY_TESTS:
        for i, c in enumerate(cases):
            tests.append(Test("py", file, c, file, deps, data.get(i, ())))
    for stem, deps, cases, data in JS_TESTS:
        d, name = stem.split("/")
        file = "web/src/%s/__tests__/%s.test.js" % (d, name)
        for i, c in enumerate(cases):
            tests.append(Test("js", file, c, file, ["web/src/" + p for p in deps],
                              ["web/src/" + p for p in data.get(i, ())]))
    for suite, units, cases in C_TESTS:
        for c in cases:
            tests.append(Test("c", suite, c, "core/tests/test_%s.c" % suite, ["core/src/" + u for u in units]))
    for t in tests:
        t.skip = SKIPPED.get(t.id)
        if t.id == "tests/registry/test_plugins.py::test_rounding_plugin_loaded":
            t.hidden = ("ledger/plugins/rounding.py",)
    return tests


TESTS = build_tests()
TEST_BY_ID = {t.id: t for t in TESTS}
TOTAL_TESTS = len(TESTS)


def lang_of(path):
    if path.endswith(".py"):
        return "py"
    if path.endswith(".js"):
        return "js"
    if path.endswith(".c") or path.endswith(".h"):
        return "c"
    return None


def cov_eligible(path):
    if path.startswith("ledger/") and path.endswith(".py"):
        return "py"
    if path.startswith("web/src/") and path.endswith(".js") and "__tests__" not in path \
            and not path.startswith("web/src/test-utils/"):
        return "js"
    if path.startswith("core/src/") and path.endswith(".c"):
        return "c"
    return None


def is_exec(path, line):
    s = line.strip()
    lang = lang_of(path)
    if not s:
        return False
    if lang == "py":
        return not s.startswith("#") and not s.startswith('"""')
    if lang == "js":
        return s.endswith(";") or s.startswith("if (") or s.startswith("return ")
    if lang == "c":
        return line.startswith("\t") and (s.endswith(";") or s.startswith("if (") or s.startswith("for ("))
    return False


# ------------------------------------------------------------ file text --

VERBS = ["apply", "compute", "resolve", "normalize", "validate", "collect", "merge", "split", "render", "parse",
         "load", "total", "round", "format", "check", "build", "emit", "scan", "post", "match"]
NOUNS = ["amount", "balance", "entry", "account", "rate", "line", "row", "period", "invoice", "currency",
         "posting", "batch", "cursor", "limit", "offset", "fee", "margin", "carry", "bucket", "column"]


class Gen:
    """Code and data text; every executable line it writes is unique in its file."""

    def __init__(self, rng):
        self.rng = rng
        self.n = 0
        self.fns = set()

    def num(self):
        self.n += 1
        return self.n

    def var(self):
        return "%s_%d" % (self.rng.choice(NOUNS), self.num())

    def fn(self, style):
        for _ in range(50):
            v, n = self.rng.choice(VERBS), self.rng.choice(NOUNS)
            name = v + "_" + n if style != "js" else v + n.capitalize()
            if name not in self.fns:
                break
        else:
            name = "%s_%d" % (name, self.num())
        self.fns.add(name)
        return name

    def py_func(self):
        r, fn, a, b = self.rng, self.fn("py"), self.var(), self.var()
        p = r.choice(["entry", "row", "posting", "invoice", "account"])
        if r.random() < 0.5:
            lim = r.randint(10, 5000)
            return ["def %s(%s, rate=Decimal(\"1\")):" % (fn, p),
                    '    """%s the %s of a %s."""' % (fn.split("_")[0].capitalize(), fn.split("_")[1], p),
                    "    %s = Decimal(%s.amount) * rate" % (a, p),
                    "    if %s > %d:" % (a, lim),
                    "        %s = Decimal(\"%d\")" % (a, lim),
                    "    return %s" % a]
        return ["def %s(%ss):" % (fn, p),
                '    """%s every %s."""' % (fn.split("_")[0].capitalize(), p),
                "    %s = []" % a,
                "    for %s in %ss:" % (b, p),
                "        %s.append(%s)" % (a, b),
                "    return tuple(%s)" % a]

    def js_func(self):
        r, fn, a, b = self.rng, self.fn("js"), self.var(), self.var()
        p = r.choice(["rows", "entries", "props", "state", "items"])
        if r.random() < 0.5:
            lim = r.randint(10, 5000)
            return ["export function %s(%s) {" % (fn, p),
                    "  const %s = Number(%s.length) * %d;" % (a, p, r.randint(2, 9)),
                    "  if (%s > %d) {" % (a, lim),
                    "    return Math.min(%s, %d);" % (a, lim),
                    "  }",
                    "  return %s;" % a,
                    "}"]
        return ["export function %s(%s) {" % (fn, p),
                "  const %s = [];" % a,
                "  for (const %s of %s) {" % (b, p),
                "    %s.push(%s);" % (a, b),
                "  }",
                "  return %s;" % a,
                "}"]

    def c_func(self, unit):
        r, a = self.rng, self.var()
        fn = "%s_%s" % (unit, self.fn("c"))
        p, lim = r.choice(["value", "minor", "len", "key"]), r.randint(10, 90000)
        return ["int64_t %s(int64_t %s)" % (fn, p), "{",
                "\tint64_t %s = %s * %d;" % (a, p, r.randint(2, 99)),
                "\tif (%s > %d)" % (a, lim),
                "\t\t%s = %d;" % (a, lim),
                "\treturn %s;" % a, "}"]

    def py_module(self, path):
        mod = path[:-3].replace("/", ".")
        lines = ['"""%s: %s."""' % (mod, self.rng.choice(["helpers", "core logic", "the public API", "adapters"])),
                 "from decimal import Decimal", ""]
        for _ in range(self.rng.randint(2, 4)):
            lines += [""] + self.py_func() + [""]
        return lines[:-1]

    def js_module(self, path):
        lines = ["// %s" % path, "import { %s } from '../util';" % self.fn("js"), ""]
        for _ in range(self.rng.randint(2, 4)):
            lines += self.js_func() + [""]
        return lines[:-1]

    def c_source(self, unit):
        lines = ["/* core/src/%s.c */" % unit, "#include <stdint.h>", '#include "%s.h"' % unit, ""]
        for _ in range(self.rng.randint(3, 5)):
            lines += self.c_func(unit) + [""]
        return lines[:-1]

    def py_test(self, file, cases):
        mod = file[len("tests/"):-3].replace("/", ".").replace("test_", "")
        lines = ['"""Tests for ledger.%s."""' % mod, "import json", "from pathlib import Path", "",
                 "import pytest", "", "import ledger", ""]
        for t in cases:
            a = self.var()
            t.line = len(lines) + 1
            lines += ["", "def %s():" % t.case]
            if t.skip:
                lines.insert(len(lines) - 1, '@pytest.mark.skipif(True, reason="%s")' % t.skip)
            for d in t.data:
                rel = "Path(ledger.__file__).parent / %r" % d[len("ledger/"):] if d.startswith("ledger/") \
                    else "Path(__file__).resolve().parents[%d] / %r" % (file.count("/") - 1, d[len("tests/"):])
                lines += ["    %s = %s" % (self.var(), rel)]
                lines += ["    %s = json.loads(Path(%r).read_text())" % (self.var(), d)] \
                    if d.endswith(".json") else ["    %s = Path(%r).read_text()  # entry points" % (self.var(), d)]
            lines += ["    %s = ledger.%s(%d)" % (a, self.fn("py"), self.rng.randint(1, 99)),
                      "    assert %s is not None" % a]
        return lines

    def js_test(self, file, cases):
        lines = ["import { %s } from '../%s';" % (self.fn("js"), file.rsplit("/", 1)[1].replace(".test", ""))]
        for d in sorted({d for t in cases for d in t.data}):
            lines.append("import %s from '../../config/%s';" % (d.rsplit("/", 1)[1][:-5], d.rsplit("/", 1)[1]))
        lines += ["", "describe('%s', () => {" % cases[0].case.split(" ")[0]]
        for t in cases:
            a = self.var()
            t.line = len(lines) + 1
            lines += ["  test%s('%s', () => {" % (".skip" if t.skip else "", t.case.split(" ", 1)[1]),
                      "    const %s = %s(%d);" % (a, self.fn("js"), self.rng.randint(1, 99)),
                      "    expect(%s).toBeDefined();" % a, "  });", ""]
        return lines[:-1] + ["});"]

    def c_test(self, suite, cases):
        lines = ['#include "harness.h"', '#include "../src/%s.h"' % suite, ""]
        for t in cases:
            a = self.var()
            t.line = len(lines) + 1
            lines += ["TEST(%s, %s)" % (suite, t.case), "{",
                      "\tint64_t %s = %s_check(%d);" % (a, suite, self.rng.randint(1, 999)),
                      "\tCHECK(%s >= 0);" % a, "}", ""]
        return lines[:-1]

    def json_rows(self, name):
        rows = ['  {"id": "%s-%d", "amount": "%d.%02d", "currency": "%s"},' % (
            name[:3].upper(), 1000 + i, self.rng.randint(1, 9999), self.rng.randint(0, 99),
            self.rng.choice(["EUR", "USD", "GBP", "CHF"])) for i in range(self.rng.randint(8, 14))]
        rows[-1] = rows[-1].rstrip(",")
        return ["["] + rows + ["]"]

    def json_dict(self, keys):
        rows = ['  "%s": %s,' % (k, v) for k, v in keys]
        rows[-1] = rows[-1].rstrip(",")
        return ["{"] + rows + ["}"]

    def prose(self, title):
        lines = ["# " + title, ""]
        for _ in range(self.rng.randint(3, 6)):
            lines += [self.sentence(), self.sentence(), ""]
        return lines[:-1]

    def sentence(self):
        r = self.rng
        return "%s %s %s the %s %s (note %d)." % (
            r.choice(["The", "Each", "Every", "A"]), r.choice(NOUNS), r.choice(["updates", "reads", "checks",
                                                                                  "closes", "formats"]),
            r.choice(NOUNS), r.choice(["before posting", "after import", "at period close", "on export"]),
            self.num())

    # ---- edits: each introduces a fresh token, so no edit can revert another
    def edit(self, path, lines):
        new = self._edit(path, lines)
        assert tuple(new) != tuple(lines), "edit did not change " + path
        return new

    def _edit(self, path, lines):
        lang = lang_of(path)
        r = self.rng
        lines = list(lines)
        if lang in ("py", "js", "c"):
            pat = {"py": r"^\s+(\w+ = |return )", "js": r"^\s+(const \w+ = |return )",
                   "c": r"^\t+(int64_t \w+ = |return |\w+ = )"}[lang]
            cand = [i for i, l in enumerate(lines) if re.match(pat, l) and is_exec(path, l)]
            test_file = "/tests/" in "/" + path or "__tests__" in path or path.startswith("core/tests/")
            op = r.random()
            if cand and (op < 0.45 or test_file and op < 0.7):
                for i in sorted(r.sample(cand, min(len(cand), r.randint(1, 3)))):
                    tok = "%s_%d" % (r.choice(["bias", "fee", "carry", "margin", "offset"]), self.num())
                    lines[i] = lines[i] + " + " + tok if lang == "py" else lines[i][:-1] + " + " + tok + ";"
            elif cand and (op < 0.75 or test_file):
                i = r.choice(cand)
                ind = re.match(r"^\s*", lines[i]).group(0)
                new = {"py": "%s%s = %d" % (ind, self.var(), r.randint(2, 999)),
                       "js": "%sconst %s = %d;" % (ind, self.var(), r.randint(2, 999)),
                       "c": "%s%s += %d;" % (ind, self.var(), r.randint(2, 99))}[lang]
                lines.insert(i, new)
            else:
                unit = path.rsplit("/", 1)[-1][:-2]
                block = {"py": lambda: ["", ""] + self.py_func(), "js": lambda: [""] + self.js_func(),
                         "c": lambda: [""] + self.c_func(unit)}[lang]()
                lines += block
            return lines
        if path.endswith(".json") and lines[0] == "[":
            i = r.randint(1, len(lines) - 2)
            if r.random() < 0.5:
                lines[i] = re.sub(r'"amount": "[^"]*"', '"amount": "%d.%02d"' % (self.num(), r.randint(0, 99)),
                                  lines[i])
            else:
                lines.insert(i, '  {"id": "NEW-%d", "amount": "%d.00", "currency": "EUR"},' % (self.num(),
                                                                                               r.randint(1, 900)))
            return lines
        if path.endswith(".json") or path.endswith(".toml") or path.endswith(".lock") or \
                path.endswith(".yml") or path == "Makefile" or path.startswith(".env") or \
                path.endswith(".sh") or path.endswith(".sql") or path.endswith(".txt"):
            n = self.num()
            if path.endswith("package-lock.json") or path.endswith("poetry.lock"):
                idx = [i for i, l in enumerate(lines) if "version" in l and re.search(r"\d+\.\d+\.\d+", l)]
                i = r.choice(idx)
                lines[i] = re.sub(r"\d+\.\d+\.\d+", "%d.%d.%d" % (r.randint(1, 9), r.randint(0, 30), n), lines[i])
                return lines
            if path.endswith(".json"):
                i = r.randint(1, len(lines) - 2)
                lines.insert(i, '  "%s%d": %s,' % (r.choice(["beta", "rollout", "exp", "opt"]), n,
                                                  r.choice(["true", "false", str(r.randint(1, 99))])))
                return lines
            if path.endswith(".toml"):
                lines.append('%s_%d = "ledger.plugins.%s:register"' % (r.choice(NOUNS), n,
                                                                       r.choice(["vat_eu", "vat_us", "rounding"])))
                return lines
            if path.endswith(".yml"):
                i = r.randint(len(lines) // 2, len(lines) - 1)
                lines.insert(i, "      - run: make check-%d" % n)
                return lines
            if path == "Makefile":
                lines += ["", "lint-%d:" % n, "\t./scripts/lint.sh --batch %d" % n]
                return lines
            if path.endswith(".sql"):
                lines.insert(len(lines) - 1, "    note_%d TEXT," % n)
                return lines
            lines.append({".sh": "echo \"step %d\"" % n}.get(path[-3:], "LEDGER_OPTION_%d=0" % n))
            return lines
        # prose
        i = r.randint(2, len(lines))
        lines[i:i] = [self.sentence()] if r.random() < 0.6 else ["", self.sentence(), self.sentence()]
        return lines


def static_files(gen):
    r = gen.rng
    files = {}
    npm = ["react", "react-dom", "redux", "reselect", "date-fns", "decimal.js", "axios", "chart.js", "lodash",
           "classnames", "jest", "jest-junit", "babel-jest", "@babel/core", "eslint", "prettier", "msw",
           "@testing-library/react", "@testing-library/jest-dom", "whatwg-fetch"]
    vers = {p: "%d.%d.%d" % (r.randint(1, 18), r.randint(0, 30), r.randint(0, 12)) for p in npm}
    files["package.json"] = json.dumps({
        "name": "ledger-web", "version": "2.13.0", "private": True,
        "scripts": {"test": "jest --ci --reporters=default --reporters=jest-junit", "lint": "eslint web/src"},
        "dependencies": {p: "^" + vers[p] for p in npm[:10]},
        "devDependencies": {p: "^" + vers[p] for p in npm[10:]}}, indent=2).split("\n")
    lock = ["{", '  "name": "ledger-web",', '  "version": "2.13.0",', '  "lockfileVersion": 3,', '  "packages": {']
    for p in npm:
        lock += ['    "node_modules/%s": {' % p, '      "version": "%s",' % vers[p],
                 '      "resolved": "https://registry.npmjs.org/%s/-/%s-%s.tgz",' % (p, p.split("/")[-1], vers[p]),
                 '      "integrity": "sha512-%s"' % "".join(r.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/") for _ in range(86)),
                 "    },"]
    lock[-1] = "    }"
    files["package-lock.json"] = lock + ["  }", "}"]
    pyd = ["click", "sqlalchemy", "alembic", "fastapi", "pydantic", "openpyxl", "reportlab", "lxml", "pytest",
           "pytest-cov", "hypothesis", "freezegun"]
    files["pyproject.toml"] = ["[tool.poetry]", 'name = "ledger"', 'version = "2.13.0"',
                               'description = "Double-entry bookkeeping for small teams"', "",
                               "[tool.poetry.dependencies]", 'python = "^3.11"'] + \
        ['%s = "^%d.%d"' % (p, r.randint(1, 9), r.randint(0, 20)) for p in pyd] + \
        ["", "[tool.pytest.ini_options]", 'testpaths = ["tests"]', 'junit_family = "xunit1"', "",
         "[tool.coverage.run]", 'source = ["ledger"]']
    pl = []
    for p in pyd:
        pl += ["[[package]]", 'name = "%s"' % p, 'version = "%d.%d.%d"' % (r.randint(1, 9), r.randint(0, 20),
                                                                           r.randint(0, 9)),
               'description = "%s"' % p, 'optional = false', 'python-versions = ">=3.8"', ""]
    files["poetry.lock"] = pl + ["[metadata]", 'lock-version = "2.0"', 'python-versions = "^3.11"']
    files["Makefile"] = [".PHONY: check check-affected test-py test-js test-c", "",
                         "check: test-py test-js test-c", "",
                         "check-affected:", "\t./scripts/affected.sh \"$${MQ_AFFECTED_BASE:-origin/main}\"", "",
                         "test-py:", "\tpytest --junitxml=junit/pytest.xml --cov=ledger --cov-report=xml", "",
                         "test-js:", "\tnpx jest --ci --coverage", "",
                         "test-c:", "\t$(MAKE) -C core test"]
    files[".github/workflows/ci.yml"] = ["name: ci", "on:", "  pull_request:", "  push:", "    branches: [main]",
                                         "jobs:", "  full:", "    runs-on: ubuntu-24.04", "    steps:",
                                         "      - uses: actions/checkout@v4", "      - uses: actions/setup-node@v4",
                                         "        with:", "          node-version: 20",
                                         "      - uses: actions/setup-python@v5", "      - run: make check",
                                         "      - uses: actions/upload-artifact@v4", "        with:",
                                         "          name: full", "          path: artifacts/"]
    files[".github/workflows/shadow.yml"] = ["name: shadow", "on: pull_request", "jobs:", "  shadow:",
                                             "    runs-on: ubuntu-24.04", "    steps:",
                                             "      - uses: actions/checkout@v4", "        with:",
                                             "          fetch-depth: 0", "      - run: make check-affected",
                                             "        env:", "          MQ_AFFECTED_BASE: ${{ github.event.pull_request.base.sha }}",
                                             "      - run: ./scripts/write-manifest.sh shadow"]
    files[".github/CODEOWNERS"] = ["* @acme/ledger-maintainers", "/core/ @acme/core", "/web/ @acme/web"]
    files["conftest.py"] = ['"""Shared pytest fixtures."""', "import pytest", "", "", "@pytest.fixture",
                            "def ledger_db(tmp_path):", '    db_path = tmp_path / "ledger.sqlite"', "    return db_path"]
    files[".env.example"] = ["LEDGER_DB_URL=sqlite:///ledger.sqlite", "LEDGER_PG_URL=", "LEDGER_API_TOKEN=changeme",
                             "LEDGER_LOG_LEVEL=info"]
    files[".gitignore"] = ["__pycache__/", "node_modules/", "/junit/", "/coverage/", "*.o", ".tiadash/"]
    files[".mq/quarantine.txt"] = ["# muted in the merge gate, still run post-merge"] + QUARANTINE_V1
    files["README.md"] = gen.prose("ledger")
    files["CHANGELOG.md"] = ["# Changelog", "", "## 2.13.0", "", "- Initial public import."]
    files["LICENSE"] = ["MIT License", "", "Copyright (c) 2026 Acme Ltd."]
    files["jest.config.js"] = ["module.exports = {", "  testMatch: ['**/__tests__/**/*.test.js'],",
                               "  setupFiles: ['<rootDir>/web/src/test-utils/setup.js'],",
                               "  reporters: ['default', 'jest-junit'],", "};"]
    files["ledger/registry/entry_points.toml"] = [
        "[ledger.plugins]", 'vat_eu = "ledger.plugins.vat_eu:register"', 'vat_us = "ledger.plugins.vat_us:register"',
        'rounding = "ledger.plugins.rounding:register"', "", "[ledger.exporters]",
        'csv = "ledger.exports.csv:CsvExporter"', 'xlsx = "ledger.exports.xlsx:XlsxExporter"',
        'pdf = "ledger.exports.pdf:PdfExporter"', 'ofx = "ledger.exports.ofx:OfxExporter"']
    for f in FIXTURES:
        files[f] = gen.json_rows(f.rsplit("/", 1)[1])
    files["web/src/config/flags.json"] = gen.json_dict([("newLedgerView", "true"), ("csvExportV2", "false"),
                                                        ("bulkPosting", "true"), ("darkMode", "false")])
    files["web/src/config/locales.json"] = gen.json_dict([(l, '"%s"' % l) for l in ["en", "de", "fr", "nl", "es"]])
    files["web/src/config/theme.json"] = gen.json_dict([("primary", '"#1f6feb"'), ("danger", '"#d1242f"'),
                                                        ("chartPalette", '["#1f6feb", "#8250df", "#bf8700"]')])
    for p in TEST_UTILS:
        files[p] = gen.js_module(p)
    for p in PY_SOURCES:
        files[p] = gen.py_module(p)
    for p in PY_INITS:
        files[p] = ['"""%s."""' % p[:-len("/__init__.py")].replace("/", ".")]
    for p in JS_SOURCES:
        files[p] = gen.js_module(p)
    for u in C_UNITS:
        files["core/src/%s.c" % u] = gen.c_source(u)
        files["core/src/%s.h" % u] = ["#pragma once", "#include <stdint.h>", "", "int64_t %s_check(int64_t v);" % u]
    files["core/include/ledger.h"] = ["#pragma once"] + ['#include "../src/%s.h"' % u for u in C_UNITS]
    files["core/tests/harness.h"] = ["#pragma once", "#define TEST(s, t) void test_##s##_##t(void)",
                                     "#define CHECK(x) harness_check((x), #x, __FILE__, __LINE__)"]
    files["core/tests/runner.c"] = ['#include "harness.h"', "int main(int argc, char **argv)", "{",
                                    "\treturn harness_run(argc, argv);", "}"]
    files["core/Makefile"] = ["test:", "\t./tests/runner --junit ../junit/ctest.xml"]
    by_file = {}
    for t in TESTS:
        by_file.setdefault(t.file, []).append(t)
    for f, cases in by_file.items():
        if f.endswith(".py"):
            files[f] = gen.py_test(f, cases)
        elif f.endswith(".js"):
            files[f] = gen.js_test(f, cases)
        else:
            files[f] = gen.c_test(cases[0].suite, cases)
    for i, name in enumerate(MIGRATION_NAMES):
        files["migrations/%04d_%s.sql" % (i + 1, name)] = ["-- migration %04d: %s" % (i + 1, name),
                                                           "CREATE TABLE %s (" % name,
                                                           "    id INTEGER PRIMARY KEY,",
                                                           "    created_at TEXT NOT NULL", ");"]
    for d in DOCS:
        files[d] = gen.prose(d.rsplit("/", 1)[1][:-3].replace("-", " ").title())
    for s in SCRIPTS:
        files[s] = ["#!/bin/sh" if s.endswith(".sh") else "#!/usr/bin/env python3", "set -eu" if s.endswith(".sh")
                    else "import json", 'echo "%s"' % s if s.endswith(".sh") else "print(json.dumps({}))"]
    files["scripts/affected.sh"] = ["#!/bin/sh", "set -eu", 'base="$1"', 'exec ./scripts/select.py "$base"']
    return {p: tuple(l) for p, l in files.items()}


# --------------------------------------------------------------- history --

DEVS = [("Ana Ruiz", "ana.ruiz@acme.example", 60), ("Bram de Vries", "bram@acme.example", 60),
        ("Chen Wei", "chen.wei@acme.example", 0), ("Dana Okafor", "dana.okafor@acme.example", 0),
        ("Emil Nowak", "emil.nowak@acme.example", 60), ("Fatima Haddad", "fatima@acme.example", 60),
        ("Gus Lindqvist", "gus@acme.example", 60), ("Hana Sato", "hana.sato@acme.example", 0),
        ("Ivo Petrov", "ivo.petrov@acme.example", 120), ("Jonas Berg", "jonas.berg@acme.example", 60)]
BOT = ("dependabot[bot]", "49699333+dependabot[bot]@users.noreply.github.com", 0)
GITHUB = ("GitHub", "noreply@github.com", 0)

KIND_WEIGHTS = [("py", 24), ("js", 18), ("c", 12), ("mixed", 4), ("tests", 4), ("docs", 4), ("deps-js", 7.5),
                ("deps-py", 4), ("migration", 5), ("ci", 4), ("conftest", 1.5), ("testutils", 2), ("env", 1.5),
                ("makefile", 1.5), ("scripts", 2), ("fixture", 2), ("webconfig", 2), ("registry", 1),
                ("rename", 2.5), ("delete", 1.5), ("add-module", 3)]
CODE_KINDS = [("py", 5), ("js", 4), ("c", 3), ("mixed", 1), ("tests", 1)]
ALL_DEPS = sorted({d for t in TESTS for d in t.deps})
READERS = {}
for _t in TESTS:
    for _d in _t.data + _t.hidden:
        READERS.setdefault(_d, []).append(_t)


def week_plan(rng):
    plan = [("escape", "esc-fixture", "only"), ("escape", "esc-fixture", "both"), ("escape", "esc-fixture", None),
            ("escape", "esc-webconfig", None), ("escape", "esc-webconfig", None),
            ("escape", "esc-webconfig", "only"), ("escape", "esc-registry", "with-nh"),
            ("escape", "esc-registry", None), ("escape", "esc-registry", None), ("escape", "esc-dynamic", None)]
    plan += [("nonherm", None, None)] * 3 + [("overstrict", None, None)] * 4 + [("broken", None, None)] * 8
    plan += [("flaky_rerun", None, None)] * 4 + [("flaky_mark", None, "failed-empty"), ("flaky_mark", None, None)]
    plan += [("flaky_shadowfail", None, None), ("quarantined_only", None, None), ("quarantined_only", None, None),
             ("shadow_rerun", None, None), ("shadow_error", None, None), ("full_error", None, None)]
    plan += [("shadow_only", None, None)] * 3 + [("full_only", None, None)] * 2
    plan += [("clean", None, None)] * (300 - len(plan))
    rng.shuffle(plan)
    return plan


class PR:
    pass


class History:
    def __init__(self, rng, gen):
        self.rng, self.gen = rng, gen
        self.mains = []        # dicts: date, type, pr, changes {path: lines|None}, msg, author, committer
        self.trees = []        # tree after each main commit: {path: lines}
        self.last_mod = {}
        self.prs = []
        self.migration_no = len(MIGRATION_NAMES)
        self.uniq = 0

    def fresh(self):
        self.uniq += 1
        return self.uniq

    def push_main(self, date, typ, changes, msg, author, committer, pr=None):
        tree = dict(self.trees[-1]) if self.trees else {}
        for p, lines in changes.items():
            if lines is None:
                tree.pop(p, None)
            else:
                tree[p] = lines
            self.last_mod[p] = len(self.mains)
        self.mains.append(dict(date=date, type=typ, pr=pr, changes=changes, msg=msg, author=author,
                               committer=committer))
        self.trees.append(tree)

    # ---- choosing what a PR touches
    def ops_for(self, kind, variant, tip):
        r, g = self.rng, self.gen
        have = lambda ps: [p for p in ps if p in tip]
        py_src = [p for p in tip if p.startswith("ledger/") and p.endswith(".py") and not p.endswith("__init__.py")]
        js_src = [p for p in tip if cov_eligible(p) == "js"]
        mapped_py = [p for p in py_src if p in ALL_DEPS]
        mapped_js = [p for p in js_src if p in ALL_DEPS]
        tests_for = lambda srcs: sorted({t.file for t in TESTS if set(t.deps) & set(srcs)})
        M = lambda ps: [("M", p) for p in ps]
        if kind == "py":
            srcs = r.sample(mapped_py if r.random() < 0.92 else py_src, r.randint(1, 3))
            extra = r.sample(tests_for(srcs), 1) if r.random() < 0.5 and tests_for(srcs) else []
            return M(srcs + extra)
        if kind == "js":
            srcs = r.sample(mapped_js if r.random() < 0.92 else js_src, r.randint(1, 3))
            extra = r.sample(tests_for(srcs), 1) if r.random() < 0.5 and tests_for(srcs) else []
            return M(srcs + extra)
        if kind == "c":
            units = r.sample(C_UNITS, r.randint(1, 2))
            ps = ["core/src/%s.c" % u for u in units]
            ps += ["core/src/%s.h" % units[0]] if r.random() < 0.3 else []
            ps += ["core/tests/test_%s.c" % units[-1]] if r.random() < 0.4 else []
            return M(ps)
        if kind == "mixed":
            return M(r.sample(mapped_py, 1) + r.sample(mapped_js, r.randint(1, 2)))
        if kind == "tests":
            return M(r.sample(sorted({t.file for t in TESTS}), r.randint(1, 2)))
        if kind == "docs":
            ops = M(r.sample(have(DOCS + ["README.md"]) + [p for p in tip if p.startswith("docs/guides/")],
                             r.randint(1, 2)))
            if r.random() < 0.3:
                ops.append(("A", "docs/guides/%s-%d.md" % (r.choice(NOUNS), self.fresh())))
            return ops
        if kind == "deps-js":
            return M(["package.json", "package-lock.json"] if r.random() < 0.7 else ["package-lock.json"])
        if kind == "deps-py":
            return M(["pyproject.toml", "poetry.lock"] if r.random() < 0.6 else ["poetry.lock"])
        if kind == "migration":
            self.migration_no += 1
            ops = [("A", "migrations/%04d_%s_%s.sql" % (self.migration_no, r.choice(["add", "alter", "index"]),
                                                        r.choice(NOUNS)))]
            return ops + (M(["ledger/db/models.py"]) if r.random() < 0.5 else [])
        if kind == "ci":
            return M([r.choice([".github/workflows/ci.yml", ".github/workflows/shadow.yml"])])
        if kind == "conftest":
            return M(["conftest.py"] + r.sample([f for f, *_ in PY_TESTS], r.randint(0, 1)))
        if kind == "testutils":
            return M([r.choice(TEST_UTILS)] + r.sample(sorted({t.file for t in TESTS if t.lang == "js"}),
                                                       r.randint(0, 1)))
        if kind == "env":
            return M([".env.example", "ledger/config.py"])
        if kind == "makefile":
            return M(["Makefile"])
        if kind == "scripts":
            if r.random() < 0.4:
                return [("A", "scripts/%s_%d.sh" % (r.choice(["backfill", "rotate", "audit"]), self.fresh()))]
            return M(r.sample(have(SCRIPTS + ["scripts/affected.sh"]), 1))
        if kind in ("fixture", "webconfig", "registry"):
            pool = {"fixture": FIXTURES, "webconfig": WEBCONFIGS,
                    "registry": ["ledger/registry/entry_points.toml"]}[kind]
            d = r.choice(pool)
            return M([d] + sorted({t.file for t in READERS.get(d, [])}))
        if kind == "rename":
            cands = [p for p in tip if p not in ALL_DEPS and not p.startswith("docs/archive/") and (
                p.startswith("docs/") or p.startswith("scripts/old") or p in (
                    "ledger/utils/legacy_csv.py", "ledger/utils/text.py", "ledger/utils/retry.py",
                    "ledger/reports/cashflow.py", "web/src/legacy/print.js", "web/src/legacy/polyfills.js"))]
            if not cands:
                return None
            old = r.choice(sorted(cands))
            base = old.rsplit("/", 1)[1]
            new = {"docs/": "docs/archive/", "scrip": "scripts/ci/", "ledge": "ledger/compat/",
                   "web/s": "web/src/compat/"}[old[:5]] + base
            if new in tip:
                return None
            return [("R", old, new)] + (M(r.sample(mapped_py, 1)) if old.endswith(".py") and r.random() < 0.4 else [])
        if kind == "delete":
            cands = have(["docs/old-deploy.md", "docs/old-reports.md", "scripts/old_deploy.sh",
                          "web/src/legacy/print.js", "ledger/utils/legacy_csv.py"]) + \
                [p for p in tip if p.startswith("docs/guides/") or p.startswith("docs/archive/")]
            if not cands:
                return None
            return [("D", r.choice(sorted(cands)))]
        if kind == "add-module":
            if r.random() < 0.5:
                pkg = r.choice(["exports", "imports", "reports", "utils", "plugins"])
                p = "ledger/%s/%s_%s.py" % (pkg, r.choice(NOUNS), r.choice(["helpers", "rules", "io"]))
                other = mapped_py
            else:
                p = "web/src/%s/%s%d.js" % (r.choice(["ui", "format", "pages", "state"]), r.choice(NOUNS),
                                            self.fresh())
                other = mapped_js
            if p in tip:
                return None
            return [("A", p)] + (M(r.sample(other, 1)) if r.random() < 0.6 else [])
        # planted escapes: the data file and a code change that selects other tests
        if kind == "esc-fixture":
            d = "tests/fixtures/invoices.json" if variant == "both" else \
                r.choice(["tests/fixtures/fx_rates.json", "tests/fixtures/bank_rows.json",
                          "tests/fixtures/camt_sample.json", "tests/fixtures/vat_rates.json",
                          "tests/fixtures/accounts.json"])
            if variant == "only":
                return M([d])
            near = set(d2 for t in READERS[d] for d2 in t.deps)
            return M([d] + r.sample([p for p in mapped_py if p not in near], r.randint(1, 2)))
        if kind == "esc-webconfig":
            d = r.choice(WEBCONFIGS)
            near = set(d2 for t in READERS[d] for d2 in t.deps)
            return M([d] + ([] if variant == "only" else r.sample([p for p in mapped_js if p not in near], 1)))
        if kind == "esc-registry":
            return M(["ledger/registry/entry_points.toml", "ledger/plugins/vat_eu.py"])
        if kind == "esc-dynamic":
            return M(["ledger/plugins/rounding.py", "ledger/tax.py"])
        raise ValueError(kind)

    def new_file(self, path):
        g = self.gen
        if path.endswith(".py"):
            return g.py_module(path)
        if path.endswith(".js"):
            return g.js_module(path)
        if path.endswith(".sql"):
            name = path.rsplit("/", 1)[1][5:-4]
            return ["-- migration %s" % path.rsplit("/", 1)[1][:4], "CREATE TABLE %s (" % name,
                    "    id INTEGER PRIMARY KEY,", "    ref_%d TEXT," % g.num(), "    created_at TEXT NOT NULL", ");"]
        if path.endswith(".sh"):
            return ["#!/bin/sh", "set -eu", 'echo "%s"' % path]
        return g.prose(path.rsplit("/", 1)[1][:-3].replace("-", " ").title())

    def apply_ops(self, ops, fork_tree, k):
        """Spread the ops over k commits; returns per-commit changes and the final state."""
        r = self.rng
        slots = [[] for _ in range(k)]
        for op in ops:
            slots[r.randrange(k)].append(op)
        if not slots[0]:
            slots[0].append(slots[[i for i in range(k) if slots[i]][0]].pop())
        state, commits, editable = {}, [], []
        for i in range(k):
            ch = {}
            todo = slots[i] or ([("E", r.choice(editable))] if editable else [])
            for op in todo:
                if op[0] == "M":
                    state[op[1]] = tuple(self.gen.edit(op[1], state.get(op[1], fork_tree[op[1]])))
                    ch[op[1]] = state[op[1]]
                    editable.append(op[1])
                elif op[0] == "E":
                    state[op[1]] = tuple(self.gen.edit(op[1], state[op[1]]))
                    ch[op[1]] = state[op[1]]
                elif op[0] == "A":
                    state[op[1]] = tuple(self.new_file(op[1]))
                    ch[op[1]] = state[op[1]]
                    editable.append(op[1])
                elif op[0] == "D":
                    state[op[1]] = ch[op[1]] = None
                elif op[0] == "R":
                    lines = fork_tree[op[1]]
                    if r.random() < 0.6:
                        lines = tuple(self.gen.edit(op[2], lines))
                    state[op[1]] = ch[op[1]] = None
                    state[op[2]] = ch[op[2]] = lines
            if ch:
                commits.append(ch)
        return commits, state

    def build(self, plan):
        r = self.rng
        # pre-week: the import, then a handful of squash-merged PRs and a push
        self.push_main(IMPORT_AT, "import", dict(static_files(self.gen)), "Initial import of acme/ledger", DEVS[2],
                       DEVS[2])
        pre = sorted(r.sample(range(IMPORT_AT + 3600, WEEK_START - 4 * 3600, 600), 10))
        for i, t in enumerate(pre):
            kind = r.choice(["py", "js", "docs", "c"])
            ops = self.ops_for(kind, None, self.trees[-1])
            commits, state = self.apply_ops(ops, self.trees[-1], 1)
            self.push_main(t, "pre", commits[0], "%s (#%d)" % (self.title(kind, ops), 398 + i), r.choice(DEVS),
                           GITHUB)
        self.first_week = len(self.mains)
        n_push = 5
        dates = self.week_times(len(plan) + n_push)
        push_at = set(r.sample(range(len(dates)), n_push - 1))
        q_slot = min(i for i, d in enumerate(dates) if d >= QUARANTINE_V2_AT)
        push_at.discard(q_slot)
        push_at.add(q_slot)
        self.q_index = self.first_week + q_slot
        plan = list(plan)
        for i, date in enumerate(dates):
            m = len(self.mains)
            if i in push_at:
                self.direct_push(date, m == self.q_index)
            else:
                self.make_pr(m, date, plan.pop())
        # PR numbers in order of creation (first commit), with the odd gap
        num = 412
        for pr in sorted(self.prs, key=lambda p: (p.commits[0][0], p.merge_index)):
            pr.number = num
            num += 1 + (r.random() < 0.2)
        for pr in self.prs:
            c = self.mains[pr.merge_index]
            if pr.squash:
                body = "\n".join("* " + msg for _, msg, _ in pr.commits)
                c["msg"] = "%s (#%d)\n\n%s" % (pr.title, pr.number, body)
            else:
                c["msg"] = "Merge pull request #%d from acme/%s\n\n%s" % (pr.number, pr.branch, pr.title)

    def week_times(self, n):
        r = self.rng
        weights = []
        for h in range(7 * 24):
            day, hod = divmod(h, 24)
            w = 5 if 7 <= hod < 19 else (1.5 if 19 <= hod < 23 else 0.3)
            weights.append(w * (0.25 if day in (0, 6) else 1))
        ts = sorted(WEEK_START + h * 3600 + r.randrange(3600) for h in r.choices(range(168), weights=weights, k=n))
        out, prev = [], WEEK_START + 2 * 3600
        for t in ts:
            t = max(t, prev + 300)
            out.append(t)
            prev = t
        assert out[-1] < WEEK_END - 600, "week overflow"
        return out

    def direct_push(self, date, quarantine):
        r = self.rng
        tip = self.trees[-1]
        dev = r.choice(DEVS)
        if quarantine:
            lines = ("# muted in the merge gate, still run post-merge",) + tuple(QUARANTINE_V2)
            self.push_main(date, "push", {".mq/quarantine.txt": lines}, "Quarantine test_rate_limit_window (flaky)",
                           dev, dev)
            return
        path, msg = r.choice([("CHANGELOG.md", "Update changelog"), (".github/CODEOWNERS", "Update CODEOWNERS"),
                              ("README.md", "Fix typo in README")])
        self.push_main(date, "push", {path: tuple(self.gen.edit(path, tip[path]))}, msg, dev, dev)

    def title(self, kind, ops):
        r = self.rng
        p = ops[0][1] if ops else ""
        base = p.rsplit("/", 1)[-1]
        t = {"deps-js": "Bump %s from %d.%d.%d to %d.%d.%d" % ((r.choice(["lodash", "axios", "date-fns", "chart.js",
                                                                          "react", "jest"]),) +
                                                               tuple(r.randint(1, 20) for _ in range(6))),
             "deps-py": "Bump %s from %d.%d to %d.%d" % ((r.choice(["sqlalchemy", "pydantic", "lxml", "pytest"]),) +
                                                         tuple(r.randint(1, 20) for _ in range(4))),
             "migration": "Add migration %s" % base, "ci": "CI: %s" % r.choice(
                 ["cache pip and npm", "pin runner image", "split test jobs", "upload junit on failure"]),
             "docs": "Docs: update %s" % base, "rename": "Move %s" % base, "delete": "Remove obsolete %s" % base,
             "env": "Add config option for %s" % r.choice(NOUNS), "makefile": "Makefile: add lint target",
             "conftest": "Tests: shared %s fixture" % r.choice(NOUNS),
             "testutils": "Test utils: render helper for %s" % r.choice(NOUNS),
             "scripts": "Scripts: %s" % base}.get(kind)
        if t:
            return t
        verb = r.choice(["Fix", "Handle", "Refactor", "Speed up", "Validate", "Clean up", "Support"])
        return "%s %s %s in %s" % (verb, r.choice(NOUNS), r.choice(["rounding", "parsing", "edge case", "ordering",
                                                                     "limits", "errors"]), base)

    def make_pr(self, m, date, spec):
        r = self.rng
        scenario, kind, variant = spec
        tip = self.trees[-1]
        for attempt in range(40):
            k = kind or (r.choices([k for k, _ in CODE_KINDS], [w for _, w in CODE_KINDS])[0]
                         if scenario in ("broken", "nonherm", "overstrict", "flaky_shadowfail", "shadow_rerun")
                         else r.choices([k for k, _ in KIND_WEIGHTS], [w for _, w in KIND_WEIGHTS])[0])
            ops = self.ops_for(k, variant, tip)
            if not ops:
                continue
            touched = [op[1] for op in ops if op[1] in tip]
            d = 1 + min(int(r.expovariate(1 / 4.5)), 18)
            fork = max([m - d, self.first_week - 3] + [self.last_mod[p] for p in touched])
            base = max(fork, m - 1 - r.choice([0, 0, 0, 1, 1, 2, 3, 5]), self.first_week - 1)
            changed = sorted({p for op in ops for p in op[1:]})
            sel = select(changed, r, scenario, QUARANTINE_V2 if base >= self.q_index else QUARANTINE_V1)
            if sel_ok(scenario, sel):
                break
        else:
            raise RuntimeError("no PR fits scenario %s" % scenario)
        pr = PR()
        pr.scenario, pr.kind, pr.variant, pr.ops = scenario, k, variant, ops
        pr.merge_index, pr.fork, pr.base, pr.selection = m, fork, base, sel
        pr.squash = r.random() < 0.25
        pr.author = BOT if k.startswith("deps") else r.choice(DEVS)
        pr.title = self.title(k, ops)
        slug = re.sub(r"[^a-z0-9]+", "-", pr.title.lower()).strip("-")[:40].rstrip("-")
        pr.branch = ("dependabot/" + ("npm_and_yarn/" if k == "deps-js" else "pip/") + slug) \
            if k.startswith("deps") else "%s/%s" % (r.choice(["fix", "feat", "chore", "wip"]), slug)
        # the first job runs while `base` is main's tip; commits come before it
        lo = max(self.mains[base]["date"], WEEK_START) + 120
        hi = (self.mains[base + 1]["date"] if base + 1 < m else date) - 30
        pr.t0 = r.uniform(lo, hi)
        ncommits = r.choice([1, 1, 1, 2, 2, 3])
        fork_tree = self.trees[fork]
        commits, state = self.apply_ops(ops, fork_tree, ncommits)
        t_fork = self.mains[fork]["date"]
        span = pr.t0 - 60 - t_fork
        msgs = [pr.title] + ["Address review comments", "Fix lint", "Add tests", "Tidy up"]
        pr.commits = [(int(t_fork + span * (i + 1) / (len(commits) + 1)), msgs[0] if i == 0 else r.choice(msgs[1:]),
                       ch) for i, ch in enumerate(commits)]
        pr.head_tree = dict(fork_tree)
        for p, lines in state.items():
            if lines is None:
                pr.head_tree.pop(p, None)
            else:
                pr.head_tree[p] = lines
        pr.changed, pr.added_lines = net_changes(ops, fork_tree, state)
        self.prs.append(pr)
        self.push_main(date, "pr", dict(state), None, pr.author if pr.squash else r.choice(DEVS), GITHUB, pr)


def net_changes(ops, fork_tree, state):
    renamed = {op[2]: op[1] for op in ops if op[0] == "R"}
    changed, added = [], {}
    for p in sorted(state):
        old, new = fork_tree.get(p), state[p]
        if new is None:
            if p in renamed.values():
                continue
            changed.append({"path": p, "status": "deleted"})
            continue
        if p in renamed:
            status, old = "renamed", fork_tree[renamed[p]]
        else:
            status = "added" if old is None else "modified"
        changed.append({"path": p, "status": status})
        old_exec = {l for l in (old or ()) if is_exec(p, l)}
        execs = [l for l in new if is_exec(p, l)]
        if cov_eligible(p):
            assert len(set(execs)) == len(execs), "duplicate executable line in " + p
        added[p] = [i + 1 for i, l in enumerate(new) if is_exec(p, l) and l not in old_exec]
    return changed, added


# ------------------------------------------------------------- selection --

def dep_hit(t, changed):
    return t.file in changed or any(d in changed or d[:-2] + ".h" in changed for d in t.deps)


def eligible(t, quar):
    return not t.skip and not any_match(quar, t.suite, t.case) and t.id not in FLAKY_POOL


def suite_groups(tests):
    groups = {}
    for t in tests:
        groups.setdefault(t.suite, []).append(t)
    return groups


ALL_GROUPS = suite_groups(TESTS)


def select(changed, r, scenario, quar):
    """The shadow selector's answer for a change: decision, reasons, entries, selected tests."""
    sel = dict(changed=changed, quar=quar, engine=None, entries=[], reasons=[])
    c_only = all(p.startswith("core/") and p.endswith((".c", ".h")) for p in changed)
    use_engine = scenario != "escape" and (r.random() < 0.7 if c_only else r.random() < 0.05)
    picked = [t for t in TESTS if dep_hit(t, changed)]
    if use_engine:
        sel["form"] = "engine"
        reasons = (["RULE_RUN_ALL"] if any(rx.match(p) for rx in CBM_RULES for p in changed) else []) + \
            ([] if c_only else ["UNMAPPED_FILE"])
        if reasons:
            sel.update(decision="run_all", reasons=reasons)
        else:
            sel["decision"] = "selected" if picked else "nothing"
            entries, suites = [], []
            for suite, group in suite_groups(picked).items():
                if len(group) > 1 and r.random() < 0.3:
                    chosen = r.sample(group, r.randint(1, len(group) - 1))
                    sub = [t for t in group if t in chosen]
                    entries += [suite + ":" + t.case for t in sub]
                    suites.append({"suite": suite, "mode": "tests", "tests": [
                        {"test": t.case, "id": suite + ":" + t.case, "file": t.file, "file_hex": t.file.encode().hex(),
                         "line": t.line, "reasons": ["STATIC"]} for t in sub]})
                else:
                    entries.append(suite)
                    suites.append({"suite": suite, "mode": "whole", "whole_reason": [r.choice(["CHANGED", "STATIC"])]})
            sel["entries"], sel["suites"] = entries, suites
            sel["totals_tests"] = None if any(x["mode"] == "whole" for x in suites) else len(entries)
    else:
        sel["form"] = r.choice(["inline", "file"])
        rules = [g for g, rx in FORCE_FULL_RE if any(rx.match(p) for p in changed)]
        unmapped = [p for p in changed if not p.startswith(MAPPED_ROOTS) and not p.endswith(".md") and p != "LICENSE"]
        if rules:
            sel.update(decision="run_all", reasons=["force-full:" + g for g in rules])
        elif scenario in ("clean", "broken", "overstrict") and r.random() < 0.03:
            sel.update(decision="run_all", reasons=["selector-error"])
        elif unmapped:
            sel.update(decision="run_all", reasons=["UNMAPPED_FILE"])
        else:
            sel["decision"] = "selected" if picked else "nothing"
            whole, entries = [], []
            for suite, group in suite_groups(picked).items():
                if len(group) > 1 and r.random() < 0.2:
                    chosen = r.sample(group, r.randint(1, len(group) - 1))
                    sub = [t for t in group if t in chosen]
                    sep = ":" if group[0].lang == "c" and r.random() < 0.7 else "::"
                    entries += [suite + sep + t.case for t in sub]
                else:
                    whole.append(suite)
            if sel["form"] == "file":  # collapse whole directories of test files
                for d in sorted({s.rsplit("/", 1)[0] + "/" for s in whole if "/" in s}):
                    members = [s for s in ALL_GROUPS if s.startswith(d)]
                    if len(members) > 1 and all(s in whole for s in members) and r.random() < 0.8:
                        whole = [s for s in whole if not s.startswith(d)] + [d]
            sel["entries"] = whole + entries
    if sel["decision"] == "run_all":
        sel["selected"] = list(TESTS)
    else:
        sel["selected"] = [t for t in TESTS if any_match(sel["entries"], t.suite, t.case)]
        if sel["decision"] == "selected" and not sel["selected"]:
            sel["decision"] = "nothing"
    chosen = set(sel["selected"])
    missed = []
    for p in changed:
        missed += [t for t in READERS.get(p, []) if t not in chosen and eligible(t, quar) and t not in missed]
    sel["missed_pool"] = sorted(missed, key=TESTS.index)
    sel["elig"] = [t for t in sel["selected"] if eligible(t, quar)]
    sel["related"] = [t for t in sel["elig"] if dep_hit(t, changed)] or sel["elig"]
    return sel


def sel_ok(scenario, sel):
    if scenario == "escape":
        return sel["decision"] in ("selected", "nothing") and bool(sel["missed_pool"])
    if scenario in ("broken", "nonherm", "overstrict", "flaky_shadowfail", "shadow_rerun"):
        return sel["decision"] != "nothing" and bool(sel["elig"])
    return not sel["missed_pool"] or sel["decision"] == "run_all"


# ------------------------------------------------------------------ runs --

class Run:
    pass


FAIL_MSG = {
    "py": ("AssertionError: assert Decimal('12.30') == Decimal('12.31')",
           "    def {case}():\n>       assert result == expected\nE       AssertionError: values differ\n\n{file}:{line}: AssertionError"),
    "js": ("expect(received).toEqual(expected)",
           "Error: expect(received).toEqual(expected) // deep equality\n\n    at Object.<anonymous> ({file}:{line}:7)"),
    "c": ("{file}:{line}: CHECK failed", "{file}:{line}: CHECK({suite}_check(...) >= 0) failed: got -1 <&> expected >= 0"),
}


def failure_text(t, cause):
    msg, body = FAIL_MSG[t.lang]
    if cause:
        msg = "%s (reads %s)" % (msg, cause) if t.lang != "py" else \
            "KeyError: %r not found in %s" % (t.case.split("_")[-1], cause)
    return msg.format(file=t.file, line=t.line, suite=t.suite), \
        body.format(case=t.case, file=t.file, line=t.line, suite=t.suite)


def build_runs(hist, pr, r):
    sel, sc = pr.selection, pr.scenario
    quar = sel["quar"]
    merge_date = hist.mains[pr.merge_index]["date"]
    shadow = [dict(fail=[])]
    full = [dict(fail=[])]
    cause = {}
    pick = lambda pool: r.choice(pool)
    flaky = lambda: TEST_BY_ID[r.choice(FLAKY_POOL)]
    if sc == "broken":
        t = pick(sel["related"])
        shadow[0]["fail"], full[0]["fail"] = [t], [t]
        if sel["decision"] != "run_all" and r.random() < 0.4:
            extra = [x for x in TESTS if x not in sel["selected"] and eligible(x, quar)]
            full[0]["fail"] = [t, pick(extra)]
    elif sc == "escape":
        pool = sel["missed_pool"]
        missed = pool if pr.variant == "both" else [pick(pool)]
        full[0]["fail"] = list(missed)
        for t in missed:
            cause[t] = [p for p in sel["changed"] if t in READERS.get(p, [])][0]
        if pr.variant == "with-nh":
            full[0]["fail"].append(pick(sel["related"]))
    elif sc == "nonherm":
        full[0]["fail"] = [pick(sel["related"])]
    elif sc == "overstrict":
        shadow[0]["fail"] = [pick(sel["related"])]
    elif sc == "flaky_rerun":
        full = [dict(fail=[flaky()]), dict(fail=[])]
    elif sc == "flaky_mark":
        full[0]["flaky"] = [flaky()]
        full[0]["failed_given"] = pr.variant == "failed-empty"
    elif sc == "flaky_shadowfail":
        shadow[0]["fail"] = [pick(sel["related"])]
        full = [dict(fail=[flaky()]), dict(fail=[])]
    elif sc == "quarantined_only":
        full[0]["fail"] = [TEST_BY_ID[pick(["web/src/ui/__tests__/chart.test.js::Chart animates on resize",
                                            "ledger_io::concurrent_append"])]]
    elif sc == "shadow_rerun":
        shadow = [dict(fail=[pick(sel["related"])]), dict(fail=[])]
    elif sc == "shadow_error":
        shadow = [dict(error=True), dict(fail=[])]
    elif sc == "full_error":
        full = [dict(error=True)]
    elif sc == "shadow_only":
        full = []
    elif sc == "full_only":
        shadow = []
    pr.cause = cause
    runs = []
    t_shadow = pr.t0
    t_full = pr.t0 + (min(r.uniform(0.5, 90), (merge_date - pr.t0) / 2) if shadow else 0)
    for kind, specs, t in (("shadow", shadow, t_shadow), ("full", full, t_full)):
        prev = None
        for n, spec in enumerate(specs, 1):
            if prev:
                t = prev.t + prev.wall + r.uniform(120, 900)
                if t >= merge_date - 5:
                    t = prev.t + (merge_date - 5 - prev.t) * r.uniform(0.3, 0.7)
            run = make_run(pr, kind, n, t, spec, r, quar, cause)
            runs.append(run)
            prev = run
    return runs


def make_run(pr, kind, attempt, t, spec, r, quar, cause):
    sel = pr.selection
    run = Run()
    run.pr, run.kind, run.attempt, run.t = pr, kind, attempt, t
    run.style = r.choice([0, 0, 0, 3, 3, 6])
    ms = int(t * 1000)
    run.ms = ms if run.style else ms - ms % 1000
    run.off = 60 if r.random() < 0.3 else 0
    run.error = spec.get("error", False)
    run.quarantine = quar if (r.random() < 0.6 or pr.scenario == "quarantined_only") else None
    fails = spec.get("fail", [])
    flaky = spec.get("flaky", [])
    run.cases = []
    if not run.error:
        tests = sel["selected"] if kind == "shadow" else TESTS
        for t in tests:
            if t.skip:
                run.cases.append((t, "skip", t.skip, None))
            elif kind == "shadow" and any_match(quar, t.suite, t.case):
                run.cases.append((t, "skip", "quarantined (.mq/quarantine.txt)", None))
            elif t in fails:
                msg, body = failure_text(t, cause.get(t))
                run.cases.append((t, "error" if r.random() < 0.25 else "fail", msg, body))
            elif t in flaky:
                run.cases.append((t, "flaky", "timed out after 2000 ms", "first run timed out; passed on rerun"))
            else:
                run.cases.append((t, "pass", None, None))
    failing = [t for t, st, _, _ in run.cases if st in ("fail", "error")]
    run.verdict = "error" if run.error else ("fail" if failing else "pass")
    run.failed = None
    if spec.get("failed_given") or (not run.error and (
            (failing and r.random() < (0.5 if kind == "full" else 0.2)) or (not failing and r.random() < 0.03))):
        run.failed = [t.suite + (":" if t.lang == "c" and r.random() < 0.5 else "::") + t.case for t in failing]
    n = len(run.cases)
    if run.error:
        run.wall = round(r.uniform(40, 300), 1)
    elif kind == "full" or sel["decision"] == "run_all":
        run.wall = round(min(1600, max(1100, r.gauss(1350, 110))), 1)
    elif sel["decision"] == "nothing":
        run.wall = round(r.uniform(90, 110), 1)
    else:
        run.wall = round(min(400, max(90, 90 + 310 * (n / TOTAL_TESTS) ** 0.6 + r.gauss(0, 12))), 1)
    run.coverage = None
    if kind == "shadow" and not run.error and run.cases and r.random() < 0.9:
        run.coverage = make_coverage(pr, run, r)
    elif kind == "full" and not run.error and r.random() < 0.04:
        run.coverage = make_coverage(pr, run, r)
    run.sel_count = None
    if kind == "shadow":
        run.sel_count = len(sel["selected"]) if run.error else (len(run.cases) if r.random() < 0.4 else None)
    run.cov_style = (r.choice(["ws", "ws", "pkg"]), r.choice(["abs", "abs", "rel"]), r.random() < 0.2)
    run.results_empty_file = not run.cases and not run.error and r.random() < 0.5
    return run


# ------------------------------------------------------- main's record --
# Main's post-merge runs and the red span they show draw from their own
# generator (MAIN_SEED), after every draw of the week above: the PRs, their
# commits, selections and runs stay what they were without them.
MAIN_SEED = SEED + 1


def red_main_plan(hist):
    """The escape whose missed test stays red on main, and the commit that fixes it.

    The first escape merged that misses one test; main is green again at the
    first later commit of main that changes that test's file or the file it
    reads (the fix)."""
    esc = min((p for p in hist.prs if p.scenario == "escape" and len(p.cause) == 1),
              key=lambda p: p.merge_index)
    test, cause = next(iter(esc.cause.items()))
    green = next(j for j in range(esc.merge_index + 1, len(hist.mains))
                 if set(hist.mains[j]["changes"]) & {cause, test.file})
    return {"escape": esc, "test": test, "cause": cause, "red": esc.merge_index, "green": green,
            "fix": hist.mains[green]["pr"]}


def carries_break(plan, pr):
    """Whether pr's head has the escape's change and not the fix: it forked while main was red."""
    return pr is not plan["escape"] and pr is not plan["fix"] and plan["red"] <= pr.fork < plan["green"]


def fail_case(run, t, cause, r):
    """t fails in run where it ran and passed: the red main the run's commit carries."""
    for k, (x, st, _, _) in enumerate(run.cases):
        if x is t and st == "pass":
            msg, body = failure_text(t, cause)
            run.cases[k] = (t, "error" if r.random() < 0.25 else "fail", msg, body)
            run.verdict = "fail"
            if run.failed is not None:
                run.failed.append(t.id)


def plant_red_main(hist, plan, r):
    """Every run of a PR forked on the red main fails its test when it runs it (full runs always)."""
    for pr in sorted(hist.prs, key=lambda p: p.number):
        if carries_break(plan, pr):
            for run in pr.runs:
                if not run.error:
                    fail_case(run, plan["test"], plan["cause"], r)


def post_merge_runs(hist, plan, r):
    """Main's post-merge full runs of the week's commits.

    The post-merge job runs one at a time (a concurrency group): a push's run
    waits for a runner (40 s to 4 min) and for the run in progress, and a
    newer push replaces it while it waits. So a commit that the next one
    follows before its run could start has no run, and a fork point there
    is covered by the nearest earlier commit that has one."""
    runs, free = [], 0
    for i in range(hist.first_week, len(hist.mains)):
        start = max(hist.mains[i]["date"] + r.randint(40, 240), free)
        wall = round(min(1600, max(1100, r.gauss(1350, 110))), 1)
        if i + 1 < len(hist.mains) and hist.mains[i + 1]["date"] < start:
            continue
        free = start + math.ceil(wall)
        run = Run()
        run.index, run.kind, run.attempt, run.ms, run.wall = i, "full", 1, start * 1000, wall
        run.error, run.failed, run.quarantine, run.coverage = False, None, None, None
        run.cases = [(t, "skip", t.skip, None) if t.skip else (t, "pass", None, None) for t in TESTS]
        run.verdict = "pass"
        if plan["red"] <= i < plan["green"]:
            fail_case(run, plan["test"], plan["cause"], r)
        runs.append(run)
    return runs


def main_cover(hist, pr):
    """Main's run of pr's fork point, else of the nearest first-parent ancestor main ran; None."""
    runs = [x for x in hist.main_runs if x.index <= pr.fork]
    return runs[-1] if runs else None


def make_coverage(pr, run, r):
    ran = [t for t, st, _, _ in run.cases if st != "skip"]
    changed = [c["path"] for c in pr.changed if c["status"] != "deleted"]
    if run.kind == "shadow" and pr.selection["decision"] == "run_all":
        langs = {cov_eligible(p) for p in changed} - {None}
    else:
        langs = {t.lang for t in ran}
    if not langs:
        return None
    exercised = {d for t in ran for d in t.deps + t.hidden}
    q = r.choice([1.0, 1.0, 1.0, 1.0, 1.0, 0.9, 0.9, 0.75, 0.75, 0.5, 0.2])
    # coverage.py (source=ledger) and gcov list every measured file; jest only the files tests required
    files = sorted({p for p in exercised | {c for c in changed if cov_eligible(c) != "js"}
                    if cov_eligible(p) in langs and p in pr.head_tree})
    cov = {}
    for p in files:
        added = set(pr.added_lines.get(p, ()))
        ex = p in exercised
        lines = {}
        for i, text in enumerate(pr.head_tree[p], 1):
            if is_exec(p, text):
                if ex and i not in added and not text.startswith((" ", "\t")):
                    lines[i] = 1  # module-level statements run once on import
                    continue
                hit = ex and r.random() < (q if i in added else 0.85)
                lines[i] = r.randint(1, 40) if hit else 0
        cov[p] = lines
    return cov


# ----------------------------------------------------------------- truth --

def run_failing(run):
    if run.failed is not None:
        return {split_id(x) for x in run.failed}
    return {(t.suite, t.case) for t, st, _, _ in run.cases if st in ("fail", "error")}


def selected_by(pr, suite, case):
    d = pr.selection["decision"]
    return d == "run_all" or (d == "selected" and any_match(pr.selection["entries"], suite, case))


def affected(run):
    sel = run.pr.selection
    if sel["decision"] == "run_all":
        return 1.0
    if sel["decision"] == "nothing":
        return 0.0
    n = len(run.cases)
    if run.sel_count is not None:
        n = run.sel_count
    elif sel["form"] == "engine" and sel.get("totals_tests") is not None:
        n = sel["totals_tests"]
    return n / TOTAL_TESTS


def diff_coverage(run):
    if run.coverage is None:
        return None
    exe = hit = 0
    for c in run.pr.changed:
        cov = run.coverage.get(c["path"])
        if c["status"] == "deleted" or not cov:
            continue
        for ln in run.pr.added_lines[c["path"]]:
            if ln in cov:
                exe += 1
                hit += cov[ln] > 0
    return hit / exe if exe else None


class Verdict:
    """A pair's class and its lists: missed, non-hermetic, inherited, latent (SUITE::CASE, sorted)."""

    def __init__(self, cls, missed=(), nh=(), inherited=(), latent=()):
        self.cls, self.missed, self.nh = cls, sorted(missed), sorted(nh)
        self.inherited, self.latent = sorted(inherited), sorted(latent)


def classify(pr, cover):
    """pr's class as tiadash decides it; cover is main's run covering its fork point (or None).

    A real failure (not flaky, not quarantined) that failed in cover too is
    inherited, not missed; a pair whose real failures are all inherited is
    `inherited`. When both runs failed, the unselected real failures are
    latent misses."""
    sh = [x for x in pr.runs if x.kind == "shadow"]
    fu = [x for x in pr.runs if x.kind == "full"]
    if not sh or not fu:
        return Verdict("incomplete")
    ls, lf = sh[-1], fu[-1]
    if ls.verdict == "error" or lf.verdict == "error":
        return Verdict("incomplete")
    flaky = {(t.suite, t.case) for t, st, _, _ in lf.cases if st == "flaky"}
    quar = (ls.quarantine or []) + (lf.quarantine or [])
    red = run_failing(cover) if cover else set()
    failing = sorted(f for f in run_failing(lf) - flaky if not any_match(quar, *f))
    inherited = [s + "::" + c for s, c in failing if (s, c) in red]
    real = [f for f in failing if f not in red]
    reruns = [x for x in fu[:-1] if x.verdict == "fail" or run_failing(x)]
    if not real and inherited:
        return Verdict("inherited", inherited=inherited)
    if ls.verdict == "pass":
        if real:
            missed = [s + "::" + c for s, c in real if not selected_by(pr, s, c)]
            nh = [s + "::" + c for s, c in real if selected_by(pr, s, c)]
            return Verdict("escape" if missed else "non-hermetic", missed, nh, inherited)
        # An in-run rerun while both gates passed decides nothing.
        return Verdict("flaky" if reruns else "agree", inherited=inherited)
    if lf.verdict == "pass":
        # Flaky only when the flakes explain every shadow failure (unknown: they do).
        flakes = flaky.union(*(run_failing(x) for x in reruns))
        on_flakes = (reruns or flaky) and run_failing(ls) <= flakes
        return Verdict("flaky" if on_flakes else "over-strict", inherited=inherited)
    return Verdict("agree", inherited=inherited,
                   latent=[s + "::" + c for s, c in real if not selected_by(pr, s, c)])


def blind_spots(prs):
    """The tests the full runs ran that no narrowed selection named (SPEC 4)."""
    narrowed = [pr.selection["entries"] for pr in prs if pr.selection["decision"] == "selected"
                and any(x.kind == "shadow" for x in pr.runs)]
    full = [x for pr in prs for x in pr.runs if x.kind == "full"]
    ran = {(t.suite, t.case) for x in full for t, st, _, _ in x.cases if st != "skip"}
    failed = set().union(*(run_failing(x) for x in full))
    named = lambda sc: any(any_match(e, *sc) for e in narrowed)
    never = sorted(s + "::" + c for s, c in ran | failed if not named((s, c)))
    never_failed = sorted(s + "::" + c for s, c in failed if not named((s, c)))
    listed = sorted((x for x in full if x.cases), key=lambda x: x.ms)
    baseline = {(t.suite, t.case) for t, st, _, _ in listed[0].cases if st != "skip"} if listed else set()
    new = ran - baseline
    return {"never_selected": len(never), "tests": never[:100], "failed_in_full": len(never_failed),
            "failed_in_full_tests": never_failed[:100], "tests_in_full_runs": len(ran | failed),
            "new": {"count": len(new), "selected": sum(named(sc) for sc in new)}}


def identity(full_runs, shadow_runs, runs):
    """tiadash's test identity figures: every suite key resolves (a path of the
    tree; C suites are names, not paths), every entry selects a test, and
    every line of the quarantine lists of runs names a test file."""
    failing = [f for x in full_runs for f in run_failing(x)]
    by_name = sum(1 for suite, _ in failing if "/" not in suite)
    entries = sum(len(x.pr.selection["entries"]) for x in shadow_runs
                  if x.pr.selection["decision"] == "selected")
    quarantine = {q for x in runs for q in (x.quarantine or [])
                  if q.strip() and not q.startswith("#")}
    return {"failing_tests": len(failing), "resolved": len(failing), "unresolved": [],
            "selection_entries": entries, "entries_matching_no_test": 0,
            "by_name": by_name, "entries_unresolved": 0,
            "quarantine_lines": len(quarantine), "quarantine_unresolved": 0,
            "quarantine_unresolved_lines": []}


CLASSES = ("agree", "escape", "non-hermetic", "flaky", "over-strict", "incomplete", "inherited",
           "unresolved")


def row_at(pr):
    """A head's time in the window and in report's order: its first shadow run, else its first full run."""
    return min([x.ms for x in pr.runs if x.kind == "shadow"] or [x.ms for x in pr.runs])


def red_spans(hist):
    """Each test's spans of main's runs failing it: from the first red run to the next run that passed it."""
    spans, open_ = [], {}
    for run in hist.main_runs:
        red = {s + "::" + c for s, c in run_failing(run)}
        for tid in sorted(red):
            if tid in open_:
                open_[tid]["runs"] += 1
            else:
                open_[tid] = {"test": tid, "red": run, "green": None, "runs": 1}
                spans.append(open_[tid])
        for tid in [t for t in open_ if t not in red and open_[t]["red"] is not run]:
            open_.pop(tid)["green"] = run
    return spans


def main_record(hist, verdicts):
    """report's `main` (runs of main, inherited pairs, red spans) and `latent_misses`, as tiadash draws them."""
    prs = sorted(hist.prs, key=lambda p: (row_at(p), p.number))
    spans = red_spans(hist)
    for sp in spans:
        sp["prs"], sp["pairs"] = [], 0
        sp["minutes"] = (sp["green"].ms - sp["red"].ms) / 60000 if sp["green"] else None
    for pr in prs:
        cover = main_cover(hist, pr)
        for tid in verdicts[pr.number].inherited:
            for sp in spans:
                if sp["test"] == tid and sp["red"].index <= cover.index and \
                        (sp["green"] is None or cover.index < sp["green"].index):
                    sp["pairs"] += 1
                    sp["prs"].append(pr.number)
    escapes = [pr for pr in prs if verdicts[pr.number].cls in ("escape", "non-hermetic")]
    out = []
    for sp in spans:
        brought = [pr for pr in escapes if row_at(pr) <= sp["red"].ms and sp["test"] in verdicts[pr.number].missed]
        e = brought[-1] if brought else None
        out.append({"repo": REPO_SLUG, "test": sp["test"], "red_head": hist.sha_main(sp["red"].index),
                    "red_at": fmt_z(sp["red"].ms),
                    "green_head": hist.sha_main(sp["green"].index) if sp["green"] else None,
                    "green_at": fmt_z(sp["green"].ms) if sp["green"] else None, "minutes": sp["minutes"],
                    "runs": sp["runs"], "inherited_pairs": sp["pairs"], "prs": sorted(set(sp["prs"])),
                    "escape_pr": e.number if e else None, "escape_head": e.head_sha if e else None})
    closed = [sp["minutes"] for sp in spans if sp["minutes"] is not None]
    main = {"runs": len(hist.main_runs),
            "inherited_pairs": sum(v.cls == "inherited" for v in verdicts.values()),
            "red_tests": sorted({t for v in verdicts.values() for t in v.inherited}),
            "escapes_base_unrun": sum(1 for pr in escapes if main_cover(hist, pr) is None),
            "red_minutes_mean": mean(closed), "red_spans": out}
    latent = [{"pr": pr.number, "head": pr.head_sha, "tests": verdicts[pr.number].latent}
              for pr in prs if verdicts[pr.number].latent]
    return main, {"pairs": len(latent), "tests": sum(len(x["tests"]) for x in latent), "list": latent}


def truth(hist):
    runs = [x for pr in hist.prs for x in pr.runs]
    heads, lat_shadow, lat_full, complete_full = [], [], [], []
    classes, verdicts = {}, {}
    for pr in sorted(hist.prs, key=lambda p: p.number):
        v = verdicts[pr.number] = classify(pr, main_cover(hist, pr))
        cls, missed, nh = v.cls, v.missed, v.nh
        classes[pr.number] = cls
        sh = [x for x in pr.runs if x.kind == "shadow"]
        fu = [x for x in pr.runs if x.kind == "full"]
        ls, lf = (sh[-1] if sh else None), (fu[-1] if fu else None)
        if ls:
            lat_shadow.append(ls)
        if lf:
            lat_full.append(lf)
        if lf and cls != "incomplete":
            complete_full.append((pr, lf))
        heads.append({"pr": pr.number, "head": pr.head_sha, "base": hist.sha_main(pr.base), "class": cls,
                      "missed": sorted(missed), "non_hermetic": sorted(nh), "inherited": v.inherited,
                      "changed": sorted(pr.changed, key=lambda c: c["path"]),
                      "diff_coverage": diff_coverage(ls) if ls else None,
                      "affected_fraction": affected(ls) if ls else None,
                      "decision": pr.selection["decision"] if ls else None,
                      "reasons": list(pr.selection["reasons"]) if ls else None,
                      "shadow_wall_clock_s": ls.wall if ls else None, "full_wall_clock_s": lf.wall if lf else None})
    pairs = sum(1 for pr in hist.prs if {x.kind for x in pr.runs} == {"shadow", "full"})
    runs += hist.main_runs  # the store holds main's runs too
    status = {"runs": {"shadow": sum(x.kind == "shadow" for x in runs), "full": sum(x.kind == "full" for x in runs)},
              "pairs": pairs, "tests": sum(len(x.cases) for x in runs),
              "failures": sum(len(x.failed) if x.failed is not None else
                              sum(st in ("fail", "error") for _, st, _, _ in x.cases) for x in runs),
              "sources": len(runs), "first": fmt_z(min(x.ms for x in runs)), "last": fmt_z(max(x.ms for x in runs))}
    status["identity"] = identity(runs, [x for x in runs if x.kind == "shadow"], runs)
    af = [affected(x) for x in lat_shadow]
    dc = [d for d in (diff_coverage(x) for x in lat_shadow) if d is not None]
    ff = [x for x in lat_shadow if x.pr.selection["decision"] == "run_all"]
    by_reason = {}
    for x in ff:
        for reason in x.pr.selection["reasons"]:
            by_reason[reason] = by_reason.get(reason, 0) + 1
    esc = sorted(n for n, c in classes.items() if c in ("escape", "non-hermetic"))
    report = {"window": {"since": fmt_z(WEEK_START * 1000), "until": fmt_z(WEEK_END * 1000)},
              "shadow_runs": status["runs"]["shadow"], "full_runs": status["runs"]["full"] - len(hist.main_runs),
              "pairs": pairs,
              "affected_fraction": {"p50": pct(af, 0.5), "p95": pct(af, 0.95), "mean": mean(af),
                                    "narrowed_p50": pct([affected(x) for x in lat_shadow
                                                         if x.pr.selection["decision"] == "selected"], 0.5)},
              "wall_clock_s": {"shadow": {"p50": pct([x.wall for x in lat_shadow], 0.5),
                                          "p95": pct([x.wall for x in lat_shadow], 0.95)},
                               "full": {"p50": pct([x.wall for x in lat_full], 0.5),
                                        "p95": pct([x.wall for x in lat_full], 0.95)}},
              "force_full": {"count": len(ff), "rate": len(ff) / len(lat_shadow), "by_reason": by_reason},
              "escapes": {"count": len(esc), "rate": len(esc) / pairs, "prs": esc},
              "over_strict": {"count": sum(c == "over-strict" for c in classes.values())},
              "flaky": {"count": sum(c == "flaky" for c in classes.values())},
              "diff_coverage": {"p50": pct(dc, 0.5), "mean": mean(dc), "below_threshold": sum(d < 0.7 for d in dc),
                                "threshold": 0.7}}
    report["blind_spots"] = blind_spots(hist.prs)
    report["classes"] = {c: sum(x == c for x in classes.values()) for c in CLASSES}
    report["main"], report["latent_misses"] = main_record(hist, verdicts)
    report["verifier_changed"] = {"count": 0}
    # The blind spots of the week's last four days: the window decides which selections count.
    late = (WEEK_START + 3 * 86400) * 1000
    head_ms = lambda pr: min([x.ms for x in pr.runs if x.kind == "shadow"] or [x.ms for x in pr.runs])
    blind_late = dict(blind_spots([pr for pr in hist.prs if head_ms(pr) >= late]), since=fmt_z(late))
    report["identity"] = identity([lf for pr, lf in complete_full], lat_shadow,
                                  [x for pr in hist.prs for x in pr.runs] + hist.main_runs)
    replay = []
    for i in range(len(hist.mains) - 1, hist.first_week - 1, -1):
        c = hist.mains[i]
        m = re.match(r"Merge pull request #(\d+) ", c["msg"]) or re.search(r"\(#(\d+)\)$", c["msg"].split("\n")[0])
        paths = sorted(c["changes"])
        replay.append({"commit": hist.sha_main(i), "pr": int(m.group(1)) if m else None,
                       "date": fmt_z(c["date"] * 1000), "changed": len(paths), "paths": paths})
    planted = {"escape_missed": [], "non_hermetic": [], "over_strict": [], "flaky": [], "flaky_mark": [],
               "quarantined_only": [],
               "agree_fail": [], "shadow_rerun": [], "incomplete": [], "error": [], "force_full": {}}
    for pr in sorted(hist.prs, key=lambda p: p.number):
        sc = pr.scenario
        if sc == "escape":
            planted["escape_missed"].append({"pr": pr.number, "kind": pr.kind,
                                             "cause": sorted(set(pr.cause.values())),
                                             "missed": sorted(t.id for t in pr.cause),
                                             "decision": pr.selection["decision"]})
        key = {"nonherm": "non_hermetic", "overstrict": "over_strict", "flaky_rerun": "flaky",
               "flaky_mark": "flaky_mark", "flaky_shadowfail": "over_strict",
               "quarantined_only": "quarantined_only",
               "broken": "agree_fail", "shadow_rerun": "shadow_rerun", "shadow_only": "incomplete",
               "full_only": "incomplete", "full_error": "incomplete"}.get(sc)
        if key:
            planted[key].append(pr.number)
        if sc in ("shadow_error", "full_error"):
            planted["error"].append(pr.number)
        if pr.selection["decision"] == "run_all" and any(x.kind == "shadow" for x in pr.runs):
            for reason in pr.selection["reasons"]:
                planted["force_full"].setdefault(reason, []).append(pr.number)
    expect = {"escape": "escape", "nonherm": "non-hermetic", "overstrict": "over-strict", "flaky_rerun": "flaky",
              "flaky_mark": "agree", "flaky_shadowfail": "over-strict", "quarantined_only": "agree", "broken": "agree",
              "shadow_rerun": "agree", "shadow_error": "agree", "full_error": "incomplete",
              "shadow_only": "incomplete", "full_only": "incomplete", "clean": "agree"}
    plan = hist.red_main
    on_red = sorted(pr.number for pr in hist.prs if carries_break(plan, pr))
    for pr in hist.prs:
        # A PR forked on the red main is inherited unless it fails something else too.
        if classes[pr.number] != expect[pr.scenario] and \
                not (pr.number in on_red and classes[pr.number] == "inherited"):
            raise SystemExit("make-week: PR #%d planted as %s but classifies as %s"
                             % (pr.number, pr.scenario, classes[pr.number]))
    span = report["main"]["red_spans"]
    planted["red_main"] = {"escape": plan["escape"].number, "test": plan["test"].id, "cause": plan["cause"],
                           "red_commit": hist.sha_main(plan["red"]), "green_commit": hist.sha_main(plan["green"]),
                           "fix": plan["fix"].number, "forked_on_red": on_red,
                           "inherited": sorted(n for n, c in classes.items() if c == "inherited")}
    if len(span) != 1 or span[0]["escape_pr"] != plan["escape"].number or \
            span[0]["red_head"] != planted["red_main"]["red_commit"] or \
            span[0]["green_head"] != planted["red_main"]["green_commit"]:
        raise SystemExit("make-week: the red span of main is not the one planted: %r" % span)
    main_runs = [{"commit": hist.sha_main(x.index), "base": hist.sha_main(x.index - 1), "started_at": fmt_z(x.ms),
                  "wall_clock_s": x.wall, "verdict": x.verdict,
                  "failed": sorted(s + "::" + c for s, c in run_failing(x))} for x in hist.main_runs]
    return {"now": fmt_z(WEEK_END * 1000), "window": report["window"], "status": status, "heads": heads,
            "main_runs": main_runs, "report": report, "replay": replay, "planted": planted,
            "blind_spots_late": blind_late}


# --------------------------------------------------------------- writers --

# Which runs' pytest.xml use pytest's default junit_family (xunit2): no `file`
# attribute, the dotted classname only, so tiadash resolves the suite key
# through the tree. Changes no random draw: the week is the same either way.
PYTEST_JUNIT = "mixed"


def pytest_xunit2(pr_number):
    return PYTEST_JUNIT == "xunit2" or (PYTEST_JUNIT == "mixed" and pr_number % 3 == 0)


def junit(lang, cases, r, stamp, xunit2=False):
    nf = sum(st == "fail" for _, st, _, _ in cases)
    ne = sum(st == "error" for _, st, _, _ in cases)
    ns = sum(st == "skip" for _, st, _, _ in cases)
    times = [r.uniform(0.001, 0.8) for _ in cases]

    def children(t, st, msg, body, ind):
        cdata = lang != "py" and r.random() < 0.5
        text = "<![CDATA[%s]]>" % body if cdata and body else esc(body or "")
        if st == "fail":
            return ['%s<failure message="%s" type="AssertionError">%s</failure>' % (ind, esc(msg, True), text)]
        if st == "error":
            return ['%s<error message="%s" type="%s">%s</error>' % (
                ind, esc(msg, True), {"py": "ImportError", "js": "Error", "c": "SIGSEGV"}[lang], text)]
        if st == "skip":
            return ['%s<skipped message="%s"/>' % (ind, esc(msg, True))] if lang != "py" else \
                ['%s<skipped type="pytest.skip" message="%s">%s:%d: %s</skipped>' % (
                    ind, esc(msg, True), t.file, t.line, esc(msg))]
        if st == "flaky":
            return ['%s<flakyFailure message="%s" type="TimeoutError">' % (ind, esc(msg, True)),
                    '%s  <stackTrace>%s</stackTrace>' % (ind, esc(body)),
                    '%s  <system-err>retry 1/2</system-err>' % ind, '%s</flakyFailure>' % ind]
        return []

    def case_xml(t, st, msg, body, tm, ind):
        if lang == "py" and xunit2:
            attrs = 'classname="%s" name="%s" time="%.3f"' % (
                t.file[:-3].replace("/", "."), esc(t.case, True), tm)
        elif lang == "py":
            attrs = 'classname="%s" name="%s" file="%s" line="%d" time="%.3f"' % (
                t.file[:-3].replace("/", "."), esc(t.case, True), t.file, t.line, tm)
        elif lang == "js":
            attrs = 'classname="" name="%s" time="%.3f"' % (esc(t.case, True), tm)
        else:
            attrs = 'classname="%s" name="%s" time="%.3f"' % (t.suite, t.case, tm)
        kids = children(t, st, msg, body, ind + "  ")
        if not kids:
            return ["%s<testcase %s/>" % (ind, attrs)]
        return ["%s<testcase %s>" % (ind, attrs)] + kids + ["%s</testcase>" % ind]

    if lang == "py":
        out = ['<?xml version="1.0" encoding="utf-8"?>', '<testsuites name="pytest tests">',
               '  <testsuite name="pytest" errors="%d" failures="%d" skipped="%d" tests="%d" time="%.3f" '
               'timestamp="%s" hostname="fv-az%d-%d">' % (ne, nf, ns, len(cases), sum(times), stamp,
                                                          r.randint(100, 999), r.randint(10, 99))]
        for (t, st, msg, body), tm in zip(cases, times):
            out += case_xml(t, st, msg, body, tm, "    ")
        return "\n".join(out + ["  </testsuite>", "</testsuites>", ""])
    name = "jest tests" if lang == "js" else "core"
    out = ['<?xml version="1.0" encoding="UTF-8"?>',
           '<testsuites name="%s" tests="%d" failures="%d" errors="%d" time="%.3f">' % (
               name, len(cases), nf, ne, sum(times))]
    groups = {}
    for c, tm in zip(cases, times):
        groups.setdefault(c[0].suite, []).append((c, tm))
    for suite, items in groups.items():
        sts = [c[1] for c, _ in items]
        out.append('  <testsuite name="%s" errors="%d" failures="%d" skipped="%d" timestamp="%s" time="%.3f" '
                   'tests="%d">' % (esc(suite, True), sts.count("error"), sts.count("fail"), sts.count("skip"),
                                    stamp, sum(tm for _, tm in items), len(items)))
        for (t, st, msg, body), tm in items:
            out += case_xml(t, st, msg, body, tm, "    ")
        out.append("  </testsuite>")
    return "\n".join(out + ["</testsuites>", ""])


def lcov(cov, lang, style):
    out = []
    if lang == "c" and style[2]:
        out += ["TN:", "SF:/usr/include/x86_64-linux-gnu/bits/stdio2.h", "DA:79,4", "DA:86,0", "LF:2", "LH:1",
                "end_of_record"]
    for p in sorted(cov):
        if cov_eligible(p) != lang:
            continue
        sf = p if lang == "js" and style[1] == "rel" else WORKSPACE + "/" + p
        lines = cov[p]
        out += ["TN:", "SF:" + sf] + ["DA:%d,%d" % (ln, h) for ln, h in sorted(lines.items())]
        out += ["LF:%d" % len(lines), "LH:%d" % sum(h > 0 for h in lines.values()), "end_of_record"]
    return "\n".join(out) + "\n"


def cobertura(cov, style, stamp_ms):
    pkg_root = style[0] == "pkg"
    files = [p for p in sorted(cov) if cov_eligible(p) == "py"]
    allv = [h for p in files for h in cov[p].values()]
    rate = lambda hs: "%.4g" % (sum(h > 0 for h in hs) / len(hs)) if hs else "1"
    out = ['<?xml version="1.0" ?>',
           '<coverage version="7.6.4" timestamp="%d" lines-valid="%d" lines-covered="%d" line-rate="%s" '
           'branches-covered="0" branches-valid="0" branch-rate="0" complexity="0">' % (
               stamp_ms, len(allv), sum(h > 0 for h in allv), rate(allv)),
           "\t<!-- Generated by coverage.py: https://coverage.readthedocs.io/en/7.6.4 -->",
           "\t<!-- Based on https://raw.githubusercontent.com/cobertura/web/master/htdocs/xml/coverage-04.dtd -->",
           "\t<sources>", "\t\t<source>%s</source>" % (WORKSPACE + ("/ledger" if pkg_root else "")), "\t</sources>",
           "\t<packages>"]
    pkgs = {}
    for p in files:
        rel = p[len("ledger/"):] if pkg_root else p
        pkgs.setdefault(rel.rsplit("/", 1)[0].replace("/", ".") if "/" in rel else ".", []).append((p, rel))
    for name, items in pkgs.items():
        hs = [h for p, _ in items for h in cov[p].values()]
        out += ['\t\t<package name="%s" line-rate="%s" branch-rate="0" complexity="0">' % (name, rate(hs)),
                "\t\t\t<classes>"]
        for p, rel in items:
            out += ['\t\t\t\t<class name="%s" filename="%s" complexity="0" line-rate="%s" branch-rate="0">' % (
                rel.rsplit("/", 1)[-1], rel, rate(list(cov[p].values()))), "\t\t\t\t\t<methods/>",
                    "\t\t\t\t\t<lines>"]
            out += ['\t\t\t\t\t\t<line number="%d" hits="%d"/>' % (ln, h) for ln, h in sorted(cov[p].items())]
            out += ["\t\t\t\t\t</lines>", "\t\t\t\t</class>"]
        out += ["\t\t\t</classes>", "\t\t</package>"]
    return "\n".join(out + ["\t</packages>", "</coverage>", ""])


def engine_answer(hist, pr):
    sel = pr.selection
    base, head, mb = hist.sha_main(pr.base), pr.head_sha, hist.sha_main(pr.fork)
    h = lambda *xs: __import__("hashlib").sha256("\0".join(xs).encode()).hexdigest()
    d = sel["decision"]
    because = {"activation": ["default"], "rules": [], "reasons": []}
    if d == "run_all":
        if "RULE_RUN_ALL" in sel["reasons"]:
            because = {"activation": ["default", "rule"], "rules": ["builtin:build"], "reasons": ["RULE_RUN_ALL"]}
        lane = {"lane": "unit", "decision": "run_all", "because": because, "suites": None, "runner_filter": None}
        totals = {"lanes": 1, "runnable_lanes": 1, "suites": None, "tests": None}
    elif d == "selected":
        because["reasons"] = ["CHANGED", "STATIC"]
        lane = {"lane": "unit", "decision": "selected", "because": because, "suites": sel["suites"],
                "runner_filter": {"encoding": "cbm-test-only-lines", "value": "".join(e + "\n" for e in sel["entries"])}}
        totals = {"lanes": 1, "runnable_lanes": 1, "suites": len(sel["suites"]), "tests": sel["totals_tests"]}
    else:
        because["reasons"] = ["NO_SELECTED_TESTS"]
        lane = {"lane": "unit", "decision": "skip", "because": because, "suites": [], "runner_filter": None}
        totals = {"lanes": 1, "runnable_lanes": 0, "suites": 0, "tests": 0}
    return {"schema": "cbm.test_impact.v0", "experimental": True, "decision": d,
            "run_all_reasons": sel["reasons"] if d == "run_all" else [], "lanes": [lane], "warnings": [],
            "totals": totals,
            "receipt": {"object_format": "sha1", "base": base, "head": head, "merge_base": mb,
                        "diff_sha256": h("diff", mb, head), "name_status_sha256": h("ns", mb, head),
                        "config_sha256": h("config"), "policy_sha256": h("policy"),
                        "graph": {"state": "certified", "commit": base, "generation": pr.base,
                                  "sha256": h("graph", base), "rejection_reasons": []},
                        "coverage": {"state": "unavailable", "rejection_reasons": ["PROVIDER_UNAVAILABLE"]},
                        "traversal": {"default_edges": ["ASYNC_CALLS", "CALLS", "CALL_REFERENCE", "READS", "USAGE"],
                                      "extensions": [], "direction": "inbound", "fixpoint": True, "lift": False,
                                      "include_low_confidence": True, "follow_routes": None},
                        "decision_sha256": h("decision", d, base, head)}}


def write_file(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write(text)


def write_results(d, run, r, stamp, xunit2):
    """run's JUnit, a file per language it ran, into d; their names."""
    results = []
    for lang, fname in (("py", "pytest.xml"), ("js", "jest-junit.xml"), ("c", "ctest.xml")):
        cases = [c for c in run.cases if c[0].lang == lang]
        if cases:
            write_file(os.path.join(d, fname), junit(lang, cases, r, stamp, xunit2))
            results.append(fname)
    return results


def write_main_runs(hist, art, r):
    """Main's post-merge runs (no PR; base: the commit before), each in main-SHA/full-1; their manifests."""
    index = []
    for run in hist.main_runs:
        sha = hist.sha_main(run.index)
        rel = "main-%s/full-1" % sha[:12]
        d = os.path.join(art, rel)
        stamp = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(run.ms // 1000 + 5))
        m = {"schema": "tiadash.run.v1", "repo": REPO_SLUG, "pr": None, "base": hist.sha_main(run.index - 1),
             "head": sha, "kind": "full", "attempt": 1, "started_at": fmt_z(run.ms), "wall_clock_s": run.wall,
             "verdict": run.verdict,
             "results": write_results(d, run, r, stamp, pytest_xunit2(run.index))}
        write_file(os.path.join(d, "tiadash-run.json"), json.dumps(m, indent=2) + "\n")
        index.append(rel + "/tiadash-run.json")
    return index


def write_artifacts(hist, out, r, main_r):
    art = os.path.join(out, "artifacts")
    index = []
    for pr in sorted(hist.prs, key=lambda p: p.number):
        sel = pr.selection
        for run in pr.runs:
            rel = "pr-%04d/%s-%d" % (pr.number, run.kind, run.attempt)
            d = os.path.join(art, rel)
            stamp = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(run.ms // 1000 + 5))
            m = {"schema": "tiadash.run.v1", "repo": REPO_SLUG, "pr": pr.number, "base": hist.sha_main(pr.base),
                 "head": pr.head_sha, "kind": run.kind, "attempt": run.attempt,
                 "started_at": fmt_started(run.ms, run.off, run.style), "wall_clock_s": run.wall,
                 "verdict": run.verdict}
            if run.kind == "shadow":
                s = {}
                if sel["form"] != "engine" or r.random() < 0.5:
                    s = {"decision": sel["decision"], "reasons": sel["reasons"]}
                s["total_tests"] = TOTAL_TESTS
                if run.sel_count is not None:
                    s["selected_count"] = run.sel_count
                if sel["form"] == "engine":
                    s["engine_file"] = "selection-engine.json"
                    write_file(os.path.join(d, "selection-engine.json"),
                               json.dumps(engine_answer(hist, pr), indent=2) + "\n")
                elif sel["decision"] != "run_all":
                    if sel["form"] == "inline":
                        s["selected"] = sel["entries"]
                    else:
                        s["selected_file"] = "test-only.txt"
                        text = "# test-only.txt: shadow selection for %s#%d\n# base %s head %s\n" % (
                            REPO_SLUG, pr.number, m["base"][:12], m["head"][:12])
                        text += ("\n" if r.random() < 0.5 else "") + "".join(e + "\n" for e in sel["entries"])
                        write_file(os.path.join(d, "test-only.txt"), text)
                m["selection"] = s
            results = write_results(d, run, r, stamp, pytest_xunit2(pr.number))
            if run.results_empty_file:
                write_file(os.path.join(d, "jest-junit.xml"),
                           '<?xml version="1.0" encoding="UTF-8"?>\n'
                           '<testsuites name="jest tests" tests="0" failures="0" errors="0" time="0">\n</testsuites>\n')
                results.append("jest-junit.xml")
            m["results"] = results
            if run.failed is not None:
                m["failed"] = run.failed
            if run.coverage:
                cov = []
                langs = {cov_eligible(p) for p in run.coverage}
                if "py" in langs:
                    write_file(os.path.join(d, "coverage.xml"), cobertura(run.coverage, run.cov_style, run.ms))
                    cov.append("coverage.xml")
                for lang, fname in (("js", "lcov-web.info"), ("c", "lcov-core.info")):
                    if lang in langs:
                        write_file(os.path.join(d, fname), lcov(run.coverage, lang, run.cov_style))
                        cov.append(fname)
                m["coverage"] = cov
            if run.quarantine:
                write_file(os.path.join(d, "quarantine.txt"),
                           "# muted in the merge gate, still run post-merge\n" +
                           "".join(q + "\n" for q in run.quarantine))
                m["quarantine"] = "quarantine.txt"
            write_file(os.path.join(d, "tiadash-run.json"), json.dumps(m, indent=2) + "\n")
            index.append(rel + "/tiadash-run.json")
    index += write_main_runs(hist, art, main_r)
    write_file(os.path.join(art, "index.json"),
               json.dumps({"schema": "tiadash.index.v1", "runs": sorted(index)}, indent=2) + "\n")


# ------------------------------------------------------------------- git --

def git_env(home):
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": home, "TZ": "UTC", "LC_ALL": "C",
           "GIT_CONFIG_NOSYSTEM": "1", "GIT_AUTHOR_NAME": "tiadash sampledata",
           "GIT_AUTHOR_EMAIL": "sampledata@acme.example", "GIT_COMMITTER_NAME": "tiadash sampledata",
           "GIT_COMMITTER_EMAIL": "sampledata@acme.example", "GIT_AUTHOR_DATE": "2026-11-08T00:00:00Z",
           "GIT_COMMITTER_DATE": "2026-11-08T00:00:00Z", "GIT_OPTIONAL_LOCKS": "0"}
    return env


def fast_import_stream(hist):
    buf, blobs, counter = [], {}, [0]

    def mark():
        counter[0] += 1
        return counter[0]

    def blob(lines):
        data = ("\n".join(lines) + "\n").encode()
        if data not in blobs:
            blobs[data] = mark()
            buf.append(b"blob\nmark :%d\ndata %d\n%s\n" % (blobs[data], len(data), data))
        return blobs[data]

    def ident(who, t):
        name, email, off = who
        return "%s <%s> %d %s%02d%02d" % (name, email, t, "+" if off >= 0 else "-", abs(off) // 60, abs(off) % 60)

    def commit(ref, author, ta, committer, tc, msg, parents, changes):
        files = [(p, None if lines is None else blob(lines)) for p, lines in sorted(changes.items())]
        mk = mark()
        msgb = (msg + "\n").encode()
        head = "commit %s\nmark :%d\nauthor %s\ncommitter %s\ndata %d\n" % (ref, mk, ident(author, ta),
                                                                          ident(committer, tc), len(msgb))
        body = "".join(("from :%d\n" if i == 0 else "merge :%d\n") % p for i, p in enumerate(parents))
        for p, bm in files:
            body += "D %s\n" % p if bm is None else "M %s :%d %s\n" % (
                "100755" if p.endswith(".sh") else "100644", bm, p)
        buf.append(head.encode() + msgb + body.encode() + b"\n")
        return mk

    hist.main_marks = []
    for i, c in enumerate(hist.mains):
        parents = [hist.main_marks[-1]] if hist.main_marks else []
        if c["type"] == "pr":
            pr = c["pr"]
            parent = hist.main_marks[pr.fork]
            for t, msg, ch in pr.commits:
                parent = commit("refs/pull/%d/head" % pr.number, pr.author, t, pr.author, t, msg, [parent], ch)
            pr.head_mark = parent
            if not pr.squash:
                parents.append(parent)
        hist.main_marks.append(commit("refs/heads/main", c["author"], c["date"], c["committer"], c["date"],
                                      c["msg"], parents, c["changes"]))
    return b"".join(buf)


def build_repo(hist, out, tmp):
    env = git_env(tmp)
    repo = os.path.join(out, "repo")
    subprocess.run(["git", "-c", "init.defaultBranch=main", "init", "-q", repo], env=env, check=True)
    marks = os.path.join(tmp, "marks")
    subprocess.run(["git", "-c", "core.logAllRefUpdates=false", "fast-import", "--quiet", "--export-marks=" + marks],
                   input=fast_import_stream(hist), cwd=repo, env=env, check=True)
    subprocess.run(["git", "pack-refs", "--all"], cwd=repo, env=env, check=True)
    sha = {}
    with open(marks) as f:
        for line in f:
            mk, s = line.split()
            sha[int(mk[1:])] = s
    hist.sha_main = lambda i: sha[hist.main_marks[i]]
    for pr in hist.prs:
        pr.head_sha = sha[pr.head_mark]
    for p, lines in hist.trees[-1].items():
        fp = os.path.join(repo, p)
        write_file(fp, "\n".join(lines) + "\n")
        if p.endswith(".sh"):
            os.chmod(fp, 0o755)
    subprocess.run(["git", "read-tree", "HEAD"], cwd=repo, env=env, check=True)  # index without stat data


# ---------------------------------------------------------------- verify --

def verify(hist, out, exp):
    repo = os.path.join(out, "repo")
    home = tempfile.mkdtemp()
    env = git_env(home)
    git = lambda *a: subprocess.run(("git",) + a, cwd=repo, env=env, check=True, capture_output=True,
                                    text=True).stdout
    problems, differ = [], 0
    letters = {"A": "added", "M": "modified", "D": "deleted", "R": "renamed"}
    for h in exp["heads"]:
        pr = [p for p in hist.prs if p.number == h["pr"]][0]
        got = []
        for line in git("diff", "--name-status", "-M", h["base"] + "..." + h["head"]).splitlines():
            f = line.split("\t")
            got.append({"path": f[-1], "status": letters[f[0][0]]})
        if sorted(got, key=lambda c: c["path"]) != h["changed"]:
            problems.append("PR %d changed: git %s model %s" % (h["pr"], got, h["changed"]))
        two = git("diff", "--name-only", h["base"], h["head"])
        differ += two != git("diff", "--name-only", h["base"] + "..." + h["head"])
        cur, added = None, {}
        for line in git("diff", "-U0", "-M", h["base"] + "..." + h["head"]).splitlines():
            if line.startswith("+++ "):
                cur = line[6:] if line != "+++ /dev/null" else None
                added.setdefault(cur, [])
            elif line.startswith("@@") and cur:
                m = re.search(r"\+(\d+)(?:,(\d+))?", line)
                start, n = int(m.group(1)), int(m.group(2) or 1)
                added[cur] += range(start, start + n)
        for p, lines in pr.added_lines.items():
            gl = [ln for ln in added.get(p, []) if is_exec(p, pr.head_tree[p][ln - 1])]
            if gl != lines:
                problems.append("PR %d %s added exec lines: git %s model %s" % (h["pr"], p, gl, lines))
    for row in exp["replay"]:
        paths = sorted(git("diff", "--name-only", "--no-renames", row["commit"] + "^1", row["commit"]).split())
        if paths != row["paths"]:
            problems.append("replay %s: git %s model %s" % (row["commit"], paths, row["paths"]))
    for pr in hist.prs:
        lo, hi = hist.mains[pr.base]["date"], hist.mains[pr.merge_index]["date"]
        if any(not lo <= x.t < hi or not WEEK_START <= x.t for x in pr.runs) or pr.commits[-1][0] > pr.t0:
            problems.append("PR %d: a run starts outside [base, merge) or before its head" % pr.number)
    prev = None
    for x in hist.main_runs:
        nxt = hist.mains[x.index + 1]["date"] if x.index + 1 < len(hist.mains) else WEEK_END
        if not hist.mains[x.index]["date"] < x.ms // 1000 <= nxt or \
                prev and x.ms < prev.ms + prev.wall * 1000:
            problems.append("main's run of %s: starts outside its commit's time or overlaps" % x.index)
        prev = x
    plan = hist.red_main
    # the escape's merge changes the file the test reads; the fix, that file or the test's
    for i, wants in ((plan["red"], {plan["cause"]}), (plan["green"], {plan["cause"], plan["test"].file})):
        c = hist.sha_main(i)
        if not wants & set(git("diff", "--name-only", c + "^1", c).split()):
            problems.append("the red span's commit %s changes none of %s" % (c, sorted(wants)))
    dates = [int(x) for x in git("log", "--first-parent", "--format=%ct", "main").split()]
    if dates != sorted(dates, reverse=True):
        problems.append("committer dates not monotonic on main's first-parent chain")
    if git("status", "--porcelain"):
        problems.append("work tree differs from HEAD")
    art = os.path.join(out, "artifacts")
    for rel in json.load(open(os.path.join(art, "index.json")))["runs"]:
        m = json.load(open(os.path.join(art, rel)))
        refs = m["results"] + m.get("coverage", []) + ([m["quarantine"]] if "quarantine" in m else [])
        s = m.get("selection", {})
        refs += [s[k] for k in ("selected_file", "engine_file") if k in s]
        for ref in refs:
            if not os.path.isfile(os.path.join(art, os.path.dirname(rel), ref)):
                problems.append("%s: missing %s" % (rel, ref))
    shutil.rmtree(home)
    classes = sorted({h["class"] for h in exp["heads"]})
    print("verify: %d heads, two-dot differs from three-dot for %d; classes %s" % (
        len(exp["heads"]), differ, classes), file=sys.stderr)
    for p in problems[:40]:
        print("verify: " + p, file=sys.stderr)
    return not problems


# ------------------------------------------------------------------ main --

def shift_week(ends):
    """The same week, every time moved so that it ends at `ends`."""
    global WEEK_START, WEEK_END, IMPORT_AT, QUARANTINE_V2_AT
    end = (int(time.time()) // 3600 + 1) * 3600 if ends == "now" else ep(ends)
    delta = end - WEEK_END
    WEEK_START, WEEK_END = WEEK_START + delta, WEEK_END + delta
    IMPORT_AT, QUARANTINE_V2_AT = IMPORT_AT + delta, QUARANTINE_V2_AT + delta


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", required=True, help="output directory (wiped and recreated)")
    ap.add_argument("--verify", action="store_true", help="cross-check the model against git afterwards")
    ap.add_argument("--pytest-junit", choices=("mixed", "xunit1", "xunit2"), default="mixed",
                    help="pytest's JUnit: legacy xunit1 (file attributes), its default xunit2 "
                         "(dotted classnames only), or mixed (default: a part of the runs in xunit2)")
    ap.add_argument("--ends", metavar="TIME",
                    help="date the week to end at TIME (RFC 3339, Z, or 'now': the next full hour, "
                         "so that `--since 7d` covers it all) instead of 2026-11-08T00:00:00Z; the "
                         "demo's week (the tests pin the default)")
    args = ap.parse_args()
    global PYTEST_JUNIT
    PYTEST_JUNIT = args.pytest_junit
    if args.ends:
        shift_week(args.ends)
    out = os.path.abspath(args.out)
    rng = random.Random(SEED)
    hist = History(rng, Gen(rng))
    hist.build(week_plan(rng))
    for pr in sorted(hist.prs, key=lambda p: p.number):
        pr.runs = build_runs(hist, pr, rng)
    main_rng = random.Random(MAIN_SEED)
    hist.red_main = red_main_plan(hist)
    plant_red_main(hist, hist.red_main, main_rng)
    hist.main_runs = post_merge_runs(hist, hist.red_main, main_rng)
    if os.path.exists(out):
        shutil.rmtree(out)
    os.makedirs(out)
    with tempfile.TemporaryDirectory() as tmp:
        build_repo(hist, out, tmp)
    write_artifacts(hist, out, rng, main_rng)
    exp = truth(hist)
    write_file(os.path.join(out, "expected.json"), json.dumps(exp, indent=2, sort_keys=True) + "\n")
    if args.verify and not verify(hist, out, exp):
        sys.exit(1)


if __name__ == "__main__":
    main()
