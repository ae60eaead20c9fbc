/*
 * The anchor of the ingest bench: a bare prepared-statement insert of the
 * same (run, test id) rows tiadash ingests, in one transaction, WAL, with
 * synchronous=NORMAL. Usage: anchor_insert DB ROWS-FILE (lines "run<TAB>id").
 */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
	sqlite3 *db;
	sqlite3_stmt *st;
	FILE *f;
	char line[4096];
	long n = 0;

	if (argc != 3 || !(f = fopen(argv[2], "r")) || sqlite3_open(argv[1], &db) != SQLITE_OK)
		return 2;
	sqlite3_exec(db, "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;"
		     "CREATE TABLE entry (run INTEGER NOT NULL, test TEXT NOT NULL);"
		     "BEGIN", NULL, NULL, NULL);
	sqlite3_prepare_v2(db, "INSERT INTO entry (run, test) VALUES (?1, ?2)", -1, &st, NULL);
	while (fgets(line, sizeof(line), f)) {
		char *tab = strchr(line, '\t');
		size_t len = strlen(line);

		if (!tab)
			continue;
		if (line[len - 1] == '\n')
			line[--len] = '\0';
		sqlite3_bind_int64(st, 1, atol(line));
		sqlite3_bind_text(st, 2, tab + 1, -1, SQLITE_STATIC);
		if (sqlite3_step(st) != SQLITE_DONE)
			return 1;
		sqlite3_reset(st);
		n++;
	}
	sqlite3_finalize(st);
	sqlite3_exec(db, "COMMIT", NULL, NULL, NULL);
	sqlite3_close(db);
	fclose(f);
	printf("%ld\n", n);
	return 0;
}
