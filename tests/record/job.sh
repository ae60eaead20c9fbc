#!/bin/sh
# A fake CI job for the `tiadash record` tests (tests/t16*.sh): it prints a
# line on stdout and one on stderr, writes a JUnit report, and ends as told.
#
#   job.sh MODE [REPORT]      (REPORT defaults to reports/junit.xml)
#
#   pass       every case passes; exit 0
#   fail       tests/test_a.py::test_two fails; exit 1
#   exit-N     the report of `fail`; exit N
#   kill-SIG   the report of `fail`, then the job kills itself with SIG
#   broken     no report at all; exit 2 (the build broke before the tests)
#   wait       writes its pid to job.pid and waits to be killed
#
# JOB_ECHO_STDIN=1 copies stdin to stdout ("stdin: LINE"); JOB_FAILED_LIST=1
# writes .mq-failed-tests.txt as a merge-queue target may (seed 000).
mode=$1
report=${2:-reports/junit.xml}

echo "job: stdout"
echo "job: stderr" >&2
if [ "${JOB_ECHO_STDIN:-}" = 1 ]; then
	while IFS= read -r line; do
		echo "stdin: $line"
	done
fi

write_report() {
	mkdir -p "$(dirname "$report")"
	{
		echo '<?xml version="1.0" encoding="UTF-8"?>'
		echo '<testsuites><testsuite name="unit" tests="3">'
		echo '<testcase file="tests/test_a.py" classname="tests.test_a" name="test_one"/>'
		if [ "$1" = fail ]; then
			echo '<testcase file="tests/test_a.py" classname="tests.test_a" name="test_two"><failure message="assert 1 == 2"/></testcase>'
		else
			echo '<testcase file="tests/test_a.py" classname="tests.test_a" name="test_two"/>'
		fi
		echo '<testcase file="tests/test_b.py" classname="tests.test_b" name="test_three"/>'
		echo '</testsuite></testsuites>'
	} >"$report"
	if [ "$1" = fail ] && [ "${JOB_FAILED_LIST:-}" = 1 ]; then
		echo "tests/test_a.py::test_two" >.mq-failed-tests.txt
	fi
}

case "$mode" in
pass)
	write_report pass
	exit 0 ;;
fail)
	write_report fail
	exit 1 ;;
exit-*)
	write_report fail
	exit "${mode#exit-}" ;;
kill-*)
	write_report fail
	kill -s "${mode#kill-}" $$
	sleep 5
	exit 99 ;;
broken)
	exit 2 ;;
wait)
	echo $$ >job.pid.tmp && mv job.pid.tmp job.pid
	exec sleep 60 ;;
*)
	echo "job.sh: unknown mode '$mode'" >&2
	exit 64 ;;
esac
