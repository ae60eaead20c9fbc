/* JSON printed in pieces (core/json.c): nodes made on two threads print as the whole tree. */
#include "core/tiadash.h"
#include "core/json.h"
#include "core/sanitize.h"

#include <setjmp.h>
#include <cmocka.h>

/* The i-th node: an object whose strings carry what the terminal must not see raw. */
static cJSON *make_node(size_t i, void *data)
{
	cJSON *o = cJSON_CreateObject(), *list = cJSON_CreateArray();
	char name[64];

	UNUSED(data);
	snprintf(name, sizeof(name), "test %zu \x7f \xc2\x9b[31m \xe2\x80\xae", i);
	json_add_int(o, "i", (int64_t)i);
	json_add_string(o, "name", name);
	for (size_t k = 0; k < i % 3; k++)
		json_push_string(list, "a\nb");
	cJSON_AddItemToObject(o, "list", list);
	return o;
}

/* {"outer": {"count": n, "list": SLOT or the nodes}}, the slot at depth 2. */
static cJSON *tree(size_t n, bool slot)
{
	cJSON *root = cJSON_CreateObject(), *outer = cJSON_CreateObject(), *list;

	json_add_int(outer, "count", (int64_t)n);
	if (slot) {
		list = json_stream_slot();
	} else {
		list = cJSON_CreateArray();
		for (size_t i = 0; i < n; i++)
			cJSON_AddItemToArray(list, make_node(i, NULL));
	}
	cJSON_AddItemToObject(outer, "list", list);
	cJSON_AddItemToObject(root, "outer", outer);
	return root;
}

static char *printed(cJSON *root, size_t n, bool slot)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	if (slot)
		json_print_nodes(root, f, n, make_node, NULL);
	else
		json_print_free(root, f);
	assert_int_equal(fclose(f), 0);
	return buf;
}

/* Every count around the threads' chunks (128 nodes): the text of the whole tree. */
static void nodes_print_as_the_tree(void **state)
{
	static const size_t counts[] = { 0, 1, 2, 127, 128, 129, 256, 257, 1000 };

	UNUSED(state);
	for (size_t c = 0; c < ARRAY_SIZE(counts); c++) {
		char *want = printed(tree(counts[c], false), counts[c], false);
		char *got = printed(tree(counts[c], true), counts[c], true);

		assert_string_equal(got, want);
		free(want);
		free(got);
	}
}

/* The exact text, DEL, C1 and bidi controls escaped, the nodes at the slot's depth. */
static void nodes_exact_text(void **state)
{
	char *got;

	UNUSED(state);
	got = printed(tree(2, true), 2, true);
	assert_string_equal(got,
		"{\n\t\"outer\":\t{\n\t\t\"count\":\t2,\n\t\t\"list\":\t[{\n"
		"\t\t\t\t\"i\":\t0,\n"
		"\t\t\t\t\"name\":\t\"test 0 \\u007f \\u009b[31m \\u202e\",\n"
		"\t\t\t\t\"list\":\t[]\n"
		"\t\t\t}, {\n"
		"\t\t\t\t\"i\":\t1,\n"
		"\t\t\t\t\"name\":\t\"test 1 \\u007f \\u009b[31m \\u202e\",\n"
		"\t\t\t\t\"list\":\t[\"a\\nb\"]\n"
		"\t\t\t}]\n\t}\n}\n");
	free(got);
}

/* json_text_add escapes as json_text_write does. */
static void text_add_as_write(void **state)
{
	const char s[] = "ok \x7f \xc2\x85 \xc2\xa0 \xe2\x80\xae" "evil\xe2\x80\xac \xff end";
	struct strbuf sb = STRBUF_INIT;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	UNUSED(state);
	assert_non_null(f);
	json_text_write(f, s, sizeof(s) - 1);
	assert_int_equal(fclose(f), 0);
	json_text_add(&sb, s, sizeof(s) - 1);
	assert_string_equal(sb.buf, buf);
	assert_string_equal(sb.buf, "ok \\u007f \\u0085 \xc2\xa0 \\u202eevil\\u202c \xff end");
	strbuf_release(&sb);
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(nodes_print_as_the_tree),
		cmocka_unit_test(nodes_exact_text),
		cmocka_unit_test(text_add_as_write),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
