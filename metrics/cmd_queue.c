/* `tiadash queue`: the merge queue the window's pairs would have made with each gate. */
#include "core/tiadash.h"
#include "core/textfit.h"
#include "core/commands.h"
#include "core/json.h"
#include "core/table.h"
#include "metrics/common.h"
#include "metrics/queue.h"


/*
 * A row per gate, its figures the columns: csv as rows, text and md turned
 * (a line a figure, a column a gate, as queue always showed them). A
 * figure added here shows in all three.
 */
static const struct table_column queue_columns[] = {
	{ .key = "gate", .type = CELL_TEXT, .formats = FORMAT_CSV },
	/* The gates' names over their columns; the labels' column 32 wide. */
	{ .key = "name", .head = "", .type = CELL_TEXT, .formats = FORMAT_TEXT | FORMAT_MD,
	  .text_width = 32, .gap = 3 },
	{ .key = "prs", .type = CELL_COUNT, .formats = FORMAT_CSV },
	{ .key = "batch", .type = CELL_COUNT, .formats = FORMAT_CSV },
	{ .key = "runners", .type = CELL_COUNT, .formats = FORMAT_CSV },
	/* PRs an hour, not a fraction: plain, "%.1f" (csv: %.17g, as every figure). */
	{ .key = "throughput_per_hour", .head = "PRs merged per hour (saturated)",
	  .type = CELL_RATE, .plain = true, .na = "n/a" },
	{ .key = "wait_p50_s", .head = "time in queue p50", .type = CELL_SECONDS, .na = "n/a" },
	{ .key = "wait_p95_s", .head = "time in queue p95", .type = CELL_SECONDS, .na = "n/a" },
	{ .key = "max_queue", .head = "longest queue (PRs)", .type = CELL_COUNT },
	{ .key = "batches", .type = CELL_COUNT },
	/* The full gate has no force-full to stretch a batch: n/a, empty in csv. */
	{ .key = "batches_stretched_by_force_full", .head = "batches a force-full stretched",
	  .type = CELL_COUNT, .na = "n/a" },
};

static void queue_row(struct table *t, const char *gate, const char *name,
		      const struct queue_result *q)
{
	table_row(t);
	table_str(t, gate);
	table_str(t, name);
	table_count(t, q->prs);
	table_count(t, q->batch);
	table_count(t, q->runners);
	table_number(t, q->throughput_per_hour);
	table_number(t, q->wait_p50_s);
	table_number(t, q->wait_p95_s);
	table_count(t, q->max_queue);
	table_count(t, q->batches);
	table_count_known(t, q->batches_stretched_by_force_full >= 0,
			  q->batches_stretched_by_force_full);
}

static void fmt_setup(struct strbuf *sb, const struct queue_result *q)
{
	strbuf_addf(sb, "%" PRId64 " PR%s with both wall-clocks, batches of up to %d, "
		    "%d runner%s", q->prs, q->prs == 1 ? "" : "s", q->batch, q->runners,
		    q->runners == 1 ? "" : "s");
}

/* The gates' table in f (text, md: with the window and the setup; csv: alone). */
static void print_table(const struct metrics *m, const struct queue_result *cheap,
			const struct queue_result *full, enum output_format f)
{
	struct strbuf sb = STRBUF_INIT;
	struct table t = TABLE_INIT(queue_columns);
	bool md = f == FORMAT_MD;

	t.transposed = true;
	queue_row(&t, "cheap", "cheap gate", cheap);
	queue_row(&t, "full", "full gate", full);
	if (f != FORMAT_CSV) {
		strbuf_addstr(&sb, md ? "## Merge queue: " : "queue: ");
		metrics_fmt_window(&sb, m, md);
		strbuf_addstr(&sb, md ? "\n\n" : "\n");
		fmt_setup(&sb, cheap);
		strbuf_addstr(&sb, "\n\n");
	}
	table_write(&t, f, &sb);
	table_release(&t);
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

static struct metrics_args queue_args;
static int queue_batch, queue_runners;

static const struct opt queue_opts[] = {
	OPT_GROUP("Window (default: all time):"),
	OPT_METRICS_WINDOW(&queue_args),
	OPT_GROUP("The queue:"),
	OPT_INT_BAD_VALUE(0, "batch", &queue_batch, "N", 1, QUEUE_MAX_BATCH, NULL,
			  "PRs a batch takes at most (default 1)"),
	OPT_INT_BAD_VALUE(0, "runners", &queue_runners, "K", 1, QUEUE_MAX_RUNNERS, NULL,
			  "batches run at once (default 1)"),
	OPT_GROUP("Output:"),
	OPT_METRICS_FORMAT(&queue_args, FORMAT_TEXT | FORMAT_MD | FORMAT_JSON | FORMAT_CSV),
	OPT_OUTPUT(),
	OPT_END(),
};

static int run_queue(int argc, char **argv, struct cmd_context *ctx)
{
	struct queue_result cheap, full;
	struct metrics_args a;
	struct metrics m;
	int argi, rc, batch, runners;

	metrics_args_init(&queue_args, &cmd_queue, FORMAT_TEXT | FORMAT_MD | FORMAT_JSON |
			  FORMAT_CSV);
	queue_batch = queue_runners = 1;
	if (parse_options(argc, argv, &cmd_queue, ctx, &argi))
		return EXIT_INPUT_ERROR;
	a = queue_args;
	batch = queue_batch;
	runners = queue_runners;
	if (argi < argc)
		return usage_error(&cmd_queue, "unexpected argument '%s'", argv[argi]);
	if ((rc = metrics_args_check(&a)))
		return rc;
	if (metrics_load_figures(ctx, &a, 0, &m) < 0) {
		metrics_release(&m);
		return EXIT_INPUT_ERROR;
	}
	queue_of_metrics(&m, batch, runners, &cheap, &full);
	switch (a.format) {
	case FORMAT_JSON: print_json(&m, &cheap, &full); break;
	case FORMAT_CSV:
	case FORMAT_MD: print_table(&m, &cheap, &full, a.format); break;
	default: text_fit_stdout(); print_table(&m, &cheap, &full, FORMAT_TEXT); break;
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
	.opts = queue_opts,
	.notes = "The pairs replay in the order their shadow runs started, at those\n"
		 "times, FIFO; a batch takes as long as its slowest member's gate; no\n"
		 "ejections, retries or bisection (`tiadash help queue`).\n",
};
