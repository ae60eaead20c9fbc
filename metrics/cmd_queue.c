/* `tiadash queue`: the merge queue the window's pairs would have made with each gate. */
#include "core/tiadash.h"
#include "core/textfit.h"
#include "core/commands.h"
#include "core/json.h"
#include "metrics/common.h"
#include "metrics/queue.h"

enum {
	OPT_BATCH = MOPT_FIRST_PRIVATE,
	OPT_RUNNERS,
};

/* One line of the gates' table: a label and each gate's value as text. */
typedef void (*queue_cell)(struct strbuf *sb, const struct queue_result *q);

static void cell_throughput(struct strbuf *sb, const struct queue_result *q)
{
	metrics_fmt(sb, "%.1f", q->throughput_per_hour);
}

static void cell_wait_p50(struct strbuf *sb, const struct queue_result *q)
{
	metrics_fmt_secs(sb, q->wait_p50_s);
}

static void cell_wait_p95(struct strbuf *sb, const struct queue_result *q)
{
	metrics_fmt_secs(sb, q->wait_p95_s);
}

static void cell_max_queue(struct strbuf *sb, const struct queue_result *q)
{
	strbuf_addf(sb, "%" PRId64, q->max_queue);
}

static void cell_batches(struct strbuf *sb, const struct queue_result *q)
{
	strbuf_addf(sb, "%" PRId64, q->batches);
}

static void cell_stretched(struct strbuf *sb, const struct queue_result *q)
{
	if (q->batches_stretched_by_force_full < 0)
		strbuf_addstr(sb, "n/a");
	else
		strbuf_addf(sb, "%" PRId64, q->batches_stretched_by_force_full);
}

static const struct {
	const char *label;
	queue_cell cell;
} queue_lines[] = {
	{ "PRs merged per hour (saturated)", cell_throughput },
	{ "time in queue p50", cell_wait_p50 },
	{ "time in queue p95", cell_wait_p95 },
	{ "longest queue (PRs)", cell_max_queue },
	{ "batches", cell_batches },
	{ "batches a force-full stretched", cell_stretched },
};

static void fmt_setup(struct strbuf *sb, const struct queue_result *q)
{
	strbuf_addf(sb, "%" PRId64 " PR%s with both wall-clocks, batches of up to %d, "
		    "%d runner%s", q->prs, q->prs == 1 ? "" : "s", q->batch, q->runners,
		    q->runners == 1 ? "" : "s");
}

static void print_table(const struct metrics *m, const struct queue_result *cheap,
			const struct queue_result *full, bool md)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addstr(&sb, md ? "## Merge queue: " : "queue: ");
	metrics_fmt_window(&sb, m, md);
	strbuf_addstr(&sb, md ? "\n\n" : "\n");
	fmt_setup(&sb, cheap);
	strbuf_addstr(&sb, md ? "\n\n| | cheap gate | full gate |\n|---|---:|---:|\n"
			      : "\n\n                                  cheap gate   full gate\n");
	for (size_t i = 0; i < ARRAY_SIZE(queue_lines); i++) {
		struct strbuf c = STRBUF_INIT, f = STRBUF_INIT;

		queue_lines[i].cell(&c, cheap);
		queue_lines[i].cell(&f, full);
		if (md)
			strbuf_addf(&sb, "| %s | %s | %s |\n", queue_lines[i].label, c.buf, f.buf);
		else
			strbuf_addf(&sb, "%-32s %12s %11s\n", queue_lines[i].label, c.buf, f.buf);
		strbuf_release(&c);
		strbuf_release(&f);
	}
	metrics_flush(&sb);
}

static void print_csv(const struct queue_result *cheap, const struct queue_result *full)
{
	struct strbuf sb = STRBUF_INIT;
	const struct queue_result *q[2] = { cheap, full };

	strbuf_addstr(&sb, "gate,prs,batch,runners,throughput_per_hour,wait_p50_s,wait_p95_s,"
		      "max_queue,batches,batches_stretched_by_force_full\n");
	for (int i = 0; i < 2; i++) {
		strbuf_addf(&sb, "%s,%" PRId64 ",%d,%d", i ? "full" : "cheap", q[i]->prs,
			    q[i]->batch, q[i]->runners);
		metrics_csv_number(&sb, q[i]->throughput_per_hour);
		metrics_csv_number(&sb, q[i]->wait_p50_s);
		metrics_csv_number(&sb, q[i]->wait_p95_s);
		strbuf_addf(&sb, ",%" PRId64 ",%" PRId64 ",", q[i]->max_queue, q[i]->batches);
		if (q[i]->batches_stretched_by_force_full >= 0)
			strbuf_addf(&sb, "%" PRId64, q[i]->batches_stretched_by_force_full);
		strbuf_addch(&sb, '\n');
	}
	metrics_flush(&sb);
}

static void print_json(const struct metrics *m, const struct queue_result *cheap,
		       const struct queue_result *full)
{
	cJSON *root = cJSON_CreateObject();

	cJSON_AddItemToObject(root, "cheap", queue_json(cheap));
	cJSON_AddItemToObject(root, "full", queue_json(full));
	metrics_json_window(root, m);
	json_print_free(root, stdout);
}

static bool parse_count(const char *s, int max, int *out)
{
	int64_t v;

	if (!parse_int64(s, &v) || v < 1 || v > max)
		return false;
	*out = (int)v;
	return true;
}

static const struct option queue_options[] = {
	METRICS_WINDOW_OPTIONS,
	{ "batch", required_argument, NULL, OPT_BATCH },
	{ "runners", required_argument, NULL, OPT_RUNNERS },
	{ NULL, 0, NULL, 0 },
};

static int run_queue(int argc, char **argv, struct cmd_context *ctx)
{
	struct queue_result cheap, full;
	struct metrics_args a;
	struct metrics m;
	int c, rc, batch = 1, runners = 1;

	metrics_args_init(&a, &cmd_queue, FORMAT_TEXT | FORMAT_MD | FORMAT_JSON | FORMAT_CSV);
	optind = 0;
	while ((c = getopt_long(argc, argv, METRICS_SHORTOPTS, queue_options, NULL)) != -1) {
		if (c == OPT_BATCH || c == OPT_RUNNERS) {
			if (!parse_count(optarg, c == OPT_BATCH ? QUEUE_MAX_BATCH : QUEUE_MAX_RUNNERS,
					 c == OPT_BATCH ? &batch : &runners))
				return usage_error(&cmd_queue, "bad value '%s' for --%s (1 to %d)",
						   optarg, c == OPT_BATCH ? "batch" : "runners",
						   c == OPT_BATCH ? QUEUE_MAX_BATCH : QUEUE_MAX_RUNNERS);
			continue;
		}
		if ((rc = metrics_args_option(&a, c, optarg, ctx->now)) == 1)
			return usage_error(&cmd_queue, "unknown option");
		if (rc)
			return rc;
	}
	if (optind < argc)
		return usage_error(&cmd_queue, "unexpected argument '%s'", argv[optind]);
	if ((rc = metrics_args_check(&a)))
		return rc;
	if (metrics_load_args(ctx, &a, &m) < 0) {
		metrics_release(&m);
		return EXIT_INPUT_ERROR;
	}
	queue_of_metrics(&m, batch, runners, &cheap, &full);
	switch (a.format) {
	case FORMAT_JSON: print_json(&m, &cheap, &full); break;
	case FORMAT_CSV: print_csv(&cheap, &full); break;
	case FORMAT_MD: print_table(&m, &cheap, &full, true); break;
	default: text_fit_stdout(); print_table(&m, &cheap, &full, false); break;
	}
	metrics_release(&m);
	return EXIT_OKAY;
}

const struct cmd cmd_queue = {
	.name = "queue",
	.fn = run_queue,
	.flags = NEED_DB_RO | WANT_REPO,
	.usage = "tiadash queue [--since WHEN] [--until WHEN] [--project NAME] [--batch N] "
		 "[--runners K] [--format text|md|json|csv] [-o FILE]",
	.summary = "The merge queue with the cheap gate and with the full gate.",
	.help = "Window (default: all time):\n"
		"  --since WHEN     window start, inclusive: 1y, 7d, 24h, 90m, a date\n"
		"                   (00:00 UTC) or an RFC 3339 time\n"
		"  --until WHEN     window end, exclusive\n"
		"  --project NAME   only heads of this repository name (the manifests'\n"
		"                   \"repo\", e.g. acme/ledger)\n"
		"The queue:\n"
		"  --batch N        PRs a batch takes at most (default 1)\n"
		"  --runners K      batches run at once (default 1)\n"
		"Output:\n"
		"  --format F       text (default), md, json or csv\n"
		"  -o FILE          write to FILE (atomically) instead of standard output\n"
		"\nThe pairs replay in the order their shadow runs started, at those\n"
		"times, FIFO; a batch takes as long as its slowest member's gate; no\n"
		"ejections, retries or bisection (`tiadash help queue`).\n",
	.options = queue_options,
	.shortopts = METRICS_SHORTOPTS,
};
