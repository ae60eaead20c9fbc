/* `tiadash queue`: the merge queue the window's pairs would have made with each gate. */
#include "core/tiadash.h"
#include "core/textfit.h"
#include "core/commands.h"
#include "core/json.h"
#include "metrics/common.h"
#include "metrics/queue.h"


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
	.opts = queue_opts,
	.notes = "The pairs replay in the order their shadow runs started, at those\n"
		 "times, FIFO; a batch takes as long as its slowest member's gate; no\n"
		 "ejections, retries or bisection (`tiadash help queue`).\n",
};
