#!/bin/bash
# TLS: certificates and host names are always verified (no option turns it
# off); TIADASH_HTTP_CA_BUNDLE names the CAs to trust instead of the
# system's; https never redirects down to http.
. "$(dirname "$0")/lib.sh"
. "$TEST_SRC/http/lib-http.sh"

make_week week >/dev/null || exit 2
cert() {
	openssl req -x509 -newkey rsa:2048 -nodes -keyout "$1.key" -out "$1.pem" -days 2 \
		-subj "/CN=tiadash test" -addext "subjectAltName=$2" 2>/dev/null
}
cert good "IP:127.0.0.1,DNS:localhost" && cert wrong "DNS:example.test" || exit 2
http_start tls "$PWD/week/artifacts" --tls good.pem good.key || exit 2
http_start tls2 "$PWD/week/artifacts" --tls wrong.pem wrong.key || exit 2
http_start plain "$PWD/week/artifacts" || exit 2
S=https://127.0.0.1:$tls_port
SQ="'"

test_expect_success 'a certificate no trusted CA signed: refused, named, nothing lands' '
	test_expect_code 2 tiadash --db a.db ingest "$S/index.json" >out 2>err &&
	test_grep "^tiadash: error: $S/index.json: SSL certificate problem: self.signed certificate$" err &&
	test "$(wc -l <err)" = 1 &&
	test_grep "^0 new runs, 0 unchanged, 1 failed$" out
'

test_expect_success 'trusted through TIADASH_HTTP_CA_BUNDLE: the week lands, the token goes along' '
	TIADASH_HTTP_CA_BUNDLE=$PWD/good.pem TIADASH_TOKEN=tls-token \
		tiadash --db b.db --repo week/repo ingest "$S/index.json" >out &&
	test_grep "^12 new runs, 0 unchanged$" out &&
	test "$(http_log tls | grep -c " auth=yes ")" = 48
'

test_expect_success 'a certificate for another host name is refused, even from a trusted CA' '
	TIADASH_HTTP_CA_BUNDLE=$PWD/wrong.pem test_expect_code 2 \
		tiadash --db c.db ingest "https://127.0.0.1:$tls2_port/index.json" >out 2>err &&
	echo "tiadash: error: https://127.0.0.1:$tls2_port/index.json: SSL: no alternative certificate subject name matches target host name ${SQ}127.0.0.1${SQ}" >expect &&
	test_cmp expect err
'

test_expect_success 'https does not redirect down to http' '
	http_rules tls "{\"/down.json\": {\"redirect\": \"http://127.0.0.1:$plain_port/index.json\"}}" &&
	TIADASH_HTTP_CA_BUNDLE=$PWD/good.pem test_expect_code 2 \
		tiadash --db d.db ingest "$S/down.json" >out 2>err &&
	echo "tiadash: error: $S/down.json: refusing a redirect from https to ${SQ}http://127.0.0.1:$plain_port/index.json${SQ}" >expect &&
	test_cmp expect err &&
	test "$(http_mark plain)" = 0
'

test_expect_success 'there is no switch to turn verification off' '
	test_expect_code 2 tiadash --db e.db ingest --insecure "$S/index.json" 2>err &&
	test_grep "unknown option" err &&
	test_expect_code 2 tiadash --db e.db ingest -k "$S/index.json" 2>err &&
	test_grep "unknown option" err
'

test_done
