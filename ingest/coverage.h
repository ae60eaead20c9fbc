/*
 * Coverage reports: lcov tracefiles (SF:/DA: records) and Cobertura XML
 * (<class filename> <line number hits>, with <source> roots). Both stream
 * and report every measured line as (candidate paths, line, hits); which
 * repository file a report path means is the ingest's business, since it
 * depends on the tree at the run's head.
 */
#ifndef TIADASH_INGEST_COVERAGE_H
#define TIADASH_INGEST_COVERAGE_H

#include "core/tiadash.h"
#include "core/input.h"

/*
 * A measured line. `paths` are the report's candidate paths for the file,
 * most specific first (Cobertura: each <source> joined with the filename,
 * then the filename itself; lcov: the SF path), with backslashes turned
 * into slashes. They stay the same pointer while one file's lines come.
 */
struct cov_line {
	const char *const *paths;
	size_t nr_paths;
	uint32_t line;
	bool hit;
};
typedef int (*cov_line_fn)(const struct cov_line *l, void *data);

int lcov_parse(struct input *in, cov_line_fn fn, void *data);
int cobertura_parse(struct input *in, cov_line_fn fn, void *data);

bool lcov_sniff(const char *head, size_t len);
bool cobertura_sniff(const char *head, size_t len);

#endif
