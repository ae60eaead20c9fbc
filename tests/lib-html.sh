# Helpers for the HTML page tests: headless Chromium (Debian's chromium)
# renders the page, and python3 (stdlib only) reads what it rendered.
# Source after lib.sh.

CHROMIUM=${CHROMIUM:-$(command -v chromium || command -v chromium-browser || true)}

# html_need_browser: without Chromium the whole file is one skipped test.
html_need_browser() {
	if [ -z "$CHROMIUM" ]; then
		echo "ok 1 # skip chromium is not installed (scripts/install-deps --tests)"
		echo "1..1"
		exit 0
	fi
}

# test_skip WHY: one skipped test.
test_skip() {
	test_count=$((test_count + 1))
	echo "ok $test_count # skip $1"
}

# chromium_run ARGS... URL: headless, as root (no sandbox), with nothing of
# its own on the network, in a fresh profile; its chatter goes to a log.
chromium_run() {
	local profile rc
	profile=$(mktemp -d "$TRASH/chromium.XXXXXX") || return 1
	timeout -k 5 90 "$CHROMIUM" --headless --no-sandbox --disable-gpu --disable-quic \
		--no-first-run --disable-background-networking --disable-component-update \
		--disable-sync --user-data-dir="$profile" "$@" 2>>"$TRASH/chromium.log"
	rc=$?
	rm -rf "$profile"
	return $rc
}

# chromium_doms URL WIDTH HEIGHT DOM PNG PDF [URL WIDTH HEIGHT DOM PNG PDF...]:
# the DOM of each URL, as --dump-dom prints it once the page has loaded,
# in DOM, and unless they are "-", its screenshot (as --hide-scrollbars
# --screenshot) in PNG and its print (as --no-pdf-header-footer
# --print-to-pdf) in PDF, from ONE Chromium start (as chromium_run's),
# each URL in a new window of WIDTHxHEIGHT. The browser is driven over
# --remote-debugging-pipe (the DevTools protocol, JSON messages ending in
# a NUL byte on fds 3 and 4). Compared with chromium_run's on the sample
# week's pages: the same DOM and PNG bytes, the same PDF but for its
# dates and the ids of its structure tree.
chromium_doms() {
	local profile rc
	profile=$(mktemp -d "$TRASH/chromium.XXXXXX") || return 1
	timeout -k 5 300 python3 - "$TRASH/chromium.log" "$CHROMIUM" --headless --no-sandbox \
		--disable-gpu --disable-quic --no-first-run --disable-background-networking \
		--disable-component-update --disable-sync --user-data-dir="$profile" -- "$@" <<-\PY
	import base64, fcntl, json, os, subprocess, sys
	args = sys.argv[1:]
	log = args.pop(0)
	sep = args.index("--")
	cmd, jobs = args[:sep], args[sep + 1:]
	to_r, to_w = os.pipe()
	from_r, from_w = os.pipe()

	def child():
	    a = fcntl.fcntl(to_r, fcntl.F_DUPFD, 10)
	    b = fcntl.fcntl(from_w, fcntl.F_DUPFD, 10)
	    os.dup2(a, 3)
	    os.dup2(b, 4)

	with open(log, "ab") as err:
	    p = subprocess.Popen(cmd + ["--remote-debugging-pipe"], stdin=subprocess.DEVNULL,
	                         stdout=subprocess.DEVNULL, stderr=err, preexec_fn=child,
	                         pass_fds=(3, 4))
	os.close(to_r)
	os.close(from_w)
	out = os.fdopen(to_w, "wb")
	inp = os.fdopen(from_r, "rb")
	buf, events, next_id = b"", [], 0

	def read_message():
	    global buf
	    while b"\0" not in buf:
	        chunk = inp.read1(1 << 16)
	        if not chunk:
	            sys.exit("chromium closed its pipe")
	        buf += chunk
	    msg, buf = buf.split(b"\0", 1)
	    return json.loads(msg)

	def send(method, session=None, **params):
	    global next_id
	    next_id += 1
	    msg = {"id": next_id, "method": method, "params": params}
	    if session:
	        msg["sessionId"] = session
	    out.write(json.dumps(msg).encode() + b"\0")
	    out.flush()
	    while True:
	        m = read_message()
	        if m.get("id") == next_id:
	            if "error" in m:
	                sys.exit("%s: %s" % (method, m["error"]))
	            return m["result"]
	        events.append(m)

	def wait_event(method, session):
	    while True:
	        for i, m in enumerate(events):
	            if m.get("method") == method and m.get("sessionId") == session:
	                del events[i]
	                return m
	        events.append(read_message())

	try:
	    for i in range(0, len(jobs), 6):
	        url, width, height, path, png, pdf = jobs[i:i + 6]
	        target = send("Target.createTarget", url="about:blank", newWindow=True,
	                      width=int(width), height=int(height))["targetId"]
	        session = send("Target.attachToTarget", targetId=target, flatten=True)["sessionId"]
	        send("Page.enable", session)
	        send("Page.navigate", session, url=url)
	        wait_event("Page.loadEventFired", session)
	        # As --dump-dom prints it: the doctype and the root element, a line each.
	        dom = send("Runtime.evaluate", session, returnByValue=True, expression=
	                   "(document.doctype ? new XMLSerializer().serializeToString(document.doctype)"
	                   " + '\\n' : '') + document.documentElement.outerHTML")["result"]["value"]
	        open(path, "w", encoding="utf-8").write(dom + "\n")
	        # As --hide-scrollbars --screenshot: the window's size, no scrollbar.
	        if png != "-":
	            send("Emulation.setScrollbarsHidden", session, hidden=True)
	            send("Emulation.setDeviceMetricsOverride", session, width=int(width),
	                 height=int(height), deviceScaleFactor=1, mobile=False)
	            data = send("Page.captureScreenshot", session, format="png")["data"]
	            open(png, "wb").write(base64.b64decode(data))
	            send("Emulation.clearDeviceMetricsOverride", session)
	        # As --no-pdf-header-footer --print-to-pdf: backgrounds, the page's size.
	        if pdf != "-":
	            data = send("Page.printToPDF", session, displayHeaderFooter=False,
	                        printBackground=True, preferCSSPageSize=True)["data"]
	            open(pdf, "wb").write(base64.b64decode(data))
	        send("Target.closeTarget", targetId=target)
	        events.clear()
	    send("Browser.close")
	finally:
	    out.close()
	    try:
	        p.wait(timeout=30)
	    except subprocess.TimeoutExpired:
	        p.kill()
	        p.wait()
	PY
	rc=$?
	rm -rf "$profile"
	return $rc
}

file_url() {
	echo "file://$(realpath "$1")"
}

# html_dom PAGE OUT: the DOM Chromium built from PAGE.
html_dom() {
	chromium_run --dump-dom "$(file_url "$1")" >"$2" && test -s "$2"
}

# html_doms PAGE DOM [PAGE DOM...]: html_dom of each PAGE, from one
# Chromium start (chromium_doms; a start is most of a page's cost).
html_doms() {
	local jobs=() i
	while [ $# -ge 2 ]; do
		jobs+=("$(file_url "$1")" 800 600 "$2" - -)
		shift 2
	done
	chromium_doms "${jobs[@]}" &&
	for ((i = 3; i < ${#jobs[@]}; i += 6)); do
		test -s "${jobs[i]}" || return 1
	done
}

# html_shot PAGE PNG: a 1280x800 screenshot (a projector's screen).
html_shot() {
	chromium_run --hide-scrollbars --window-size=1280,800 --screenshot="$2" \
		"$(file_url "$1")" >/dev/null && test -s "$2"
}

# html_pdf PAGE PDF: the page printed (its print CSS asks for A4).
html_pdf() {
	chromium_run --no-pdf-header-footer --print-to-pdf="$2" "$(file_url "$1")" >/dev/null &&
	test -s "$2"
}

# html_render PAGE DOM PNG [PDF]: html_dom, html_shot and (given PDF)
# html_pdf of PAGE from one Chromium run, which writes each output as its
# own run would (the DOM does not depend on the window, nor the print on
# it): a Chromium start is most of a page's cost.
html_render() {
	local pdf=()
	[ $# -lt 4 ] || pdf=(--no-pdf-header-footer --print-to-pdf="$4")
	rm -f "$3" ${4:+"$4"} &&
	chromium_run --hide-scrollbars --window-size=1280,800 --screenshot="$3" "${pdf[@]}" \
		--dump-dom "$(file_url "$1")" >"$2" &&
	test -s "$2" && test -s "$3" && { [ $# -lt 4 ] || test -s "$4"; }
}

# html_renders PRINTED PAGE...: html_render of each PAGE (NAME.html) into
# NAME.dom and NAME.png, and NAME.pdf if NAME is one of the words of
# PRINTED, from one Chromium start (chromium_doms).
html_renders() {
	local printed=" $1 " p n jobs=()
	shift
	for p in "$@"; do
		n=${p%.html}
		rm -f "$n.png" "$n.pdf" &&
		jobs+=("$(file_url "$p")" 1280 800 "$n.dom" "$n.png")
		case "$printed" in *" $n "*) jobs+=("$n.pdf") ;; *) jobs+=(-) ;; esac
	done
	chromium_doms "${jobs[@]}" &&
	for p in "$@"; do
		n=${p%.html}
		test -s "$n.dom" && test -s "$n.png" &&
		case "$printed" in *" $n "*) test -s "$n.pdf" ;; esac || return 1
	done
}

# pdf_pages PDF: how many pages it has.
pdf_pages() {
	python3 -c 'import re,sys; print(len(re.findall(rb"/Type\s*/Page(?![a-zA-Z])", open(sys.argv[1],"rb").read())))' "$1"
}

# png_not_blank PNG...: each is 1280x800 and shows text (dark pixels) and
# the charts' blue (#0072B2). A PNG decoder in the standard library's terms
# (zlib, and the five row filters of the PNG specification).
png_not_blank() {
	python3 - "$@" <<-\PY
	import itertools, struct, sys, zlib
	def rows_of(path):
	    data = open(path, "rb").read()
	    assert data[:8] == b"\x89PNG\r\n\x1a\n", "%s: not a PNG" % path
	    pos, idat, ihdr = 8, [], None
	    while pos < len(data):
	        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
	        if kind == b"IHDR":
	            ihdr = struct.unpack(">IIBBBBB", data[pos + 8:pos + 8 + n])
	        elif kind == b"IDAT":
	            idat.append(data[pos + 8:pos + 8 + n])
	        pos += 12 + n
	    w, h, depth, ctype, _, _, interlace = ihdr
	    assert depth == 8 and ctype in (2, 6) and not interlace, "%s: PNG type %r" % (path, ihdr)
	    bpp = 3 if ctype == 2 else 4
	    raw, stride = zlib.decompress(b"".join(idat)), w * bpp
	    prev, rows = bytes(stride), []
	    lo7 = int.from_bytes(b"\x7f" * stride, "big")
	    hi1 = int.from_bytes(b"\x80" * stride, "big")
	    for y in range(h):
	        f, line = raw[y * (stride + 1)], raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)]
	        if f == 1:     # Sub: a running sum per channel
	            out = bytearray(stride)
	            for c in range(bpp):
	                out[c::bpp] = bytes(map((255).__and__, itertools.accumulate(line[c::bpp])))
	            line = bytes(out)
	        elif f == 2:   # Up: bytewise sum with the row above, no carries (SWAR)
	            a, b = int.from_bytes(line, "big"), int.from_bytes(prev, "big")
	            line = (((a & lo7) + (b & lo7)) ^ ((a ^ b) & hi1)).to_bytes(stride, "big")
	        elif f in (3, 4):
	            out = bytearray(line)
	            for x in range(stride):
	                a = out[x - bpp] if x >= bpp else 0
	                b = prev[x]
	                if f == 3:
	                    out[x] = (out[x] + (a + b) // 2) & 255
	                else:
	                    c = prev[x - bpp] if x >= bpp else 0
	                    p = a + b - c
	                    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
	                    out[x] = (out[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
	            line = bytes(out)
	        rows.append(line)
	        prev = line
	    return w, h, bpp, rows
	bad = []
	for path in sys.argv[1:]:
	    w, h, bpp, rows = rows_of(path)
	    if (w, h) != (1280, 800):
	        bad.append("%s: %dx%d" % (path, w, h)); continue
	    ink = blue = seen = 0
	    for line in rows[::2]:          # every other row and pixel is plenty
	        for x in range(0, len(line), 2 * bpp):
	            r, g, b = line[x], line[x + 1], line[x + 2]
	            seen += 1
	            ink += r < 128 and g < 128 and b < 128
	            blue += abs(r - 0x00) < 24 and abs(g - 0x72) < 24 and abs(b - 0xB2) < 24
	    print("%s: dark pixels %.2f%%, chart blue %.2f%%" % (path, 100.0 * ink / seen, 100.0 * blue / seen))
	    if ink < seen * 0.005:
	        bad.append("%s: next to no text" % path)
	    if blue < seen * 0.002:
	        bad.append("%s: no chart colour on the first screen" % path)
	print("\n".join(bad))
	sys.exit(1 if bad else 0)
	PY
}

# html_self_contained FILE: nothing refers outside the file. No script,
# no element that loads anything, no URL in src/href/... other than a
# fragment (#id), no @import, no url() but url(#id).
html_self_contained() {
	python3 - "$1" <<-\PY
	import html.parser, re, sys
	bad = []
	LOADERS = {"script", "link", "img", "iframe", "frame", "object", "embed", "audio",
	           "video", "source", "track", "image", "use", "base", "form", "picture", "portal"}
	URL_ATTRS = {"src", "href", "xlink:href", "action", "formaction", "poster", "srcset",
	             "data", "background", "cite", "longdesc", "manifest", "ping", "codebase"}
	def css(text, where):
	    if re.search(r"@import", text, re.I):
	        bad.append("%s: @import" % where)
	    for u in re.findall(r"url\(\s*([^)]*)\)", text, re.I):
	        if not u.strip("'\" ").startswith("#"):
	            bad.append("%s: url(%s)" % (where, u))
	class P(html.parser.HTMLParser):
	    style = False
	    def handle_starttag(self, tag, attrs):
	        if tag in LOADERS:
	            bad.append("<%s> element" % tag)
	        self.style = tag == "style"
	        for k, v in attrs:
	            v = v or ""
	            if k in URL_ATTRS and not v.startswith("#"):
	                bad.append("<%s %s=%r>" % (tag, k, v))
	            if k.startswith("on"):
	                bad.append("<%s %s=...> (script)" % (tag, k))
	            if k == "style":
	                css(v, "style attribute")
	            if re.match(r"\s*(javascript|data|https?|ftp|file):|\s*//", v, re.I) and k != "content":
	                bad.append("<%s %s=%r>: a URL" % (tag, k, v))
	    def handle_data(self, d):
	        if self.style:
	            css(d, "<style>")
	    def handle_endtag(self, tag):
	        self.style = False
	P().feed(open(sys.argv[1], encoding="utf-8").read())
	print("\n".join(bad))
	sys.exit(1 if bad else 0)
	PY
}

# html_figures DOM JSON [NAME=JSON...] [--require KEY...]: every element of
# the DOM with a data-key holds the figure of that key in JSON (NAME:KEY
# in the JSON given as NAME=FILE): its data-value is the JSON's exact value
# ("null" for null, shown as n/a), and the text shown is that value as
# the text output formats it. Each --require KEY must be on the page.
html_figures() {
	python3 - "$@" <<-\PY
	import html.parser, json, math, re, sys
	args = sys.argv[1:]
	dom, sources, required = args[0], {"": json.load(open(args[1]))}, []
	rest = args[2:]
	while rest and rest[0] != "--require":
	    name, path = rest.pop(0).split("=", 1)
	    sources[name] = json.load(open(path))
	if rest:
	    required = rest[1:]
	VOID = {"br", "meta", "hr", "img", "input", "link", "wbr", "col", "area", "source"}
	class P(html.parser.HTMLParser):
	    def __init__(self):
	        super().__init__()
	        self.stack, self.figs = [], []
	    def handle_starttag(self, tag, attrs):
	        if tag in VOID:
	            self.handle_data("\n")
	            return
	        a = dict(attrs)
	        self.stack.append([tag, a.get("data-key"), a.get("data-value"), []])
	    def handle_endtag(self, tag):
	        while self.stack:
	            t, key, value, text = self.stack.pop()
	            s = "".join(text)
	            if key is not None:
	                self.figs.append((key, value, s))
	            if self.stack:
	                self.stack[-1][3].append(s)
	            if t == tag:
	                break
	    def handle_data(self, d):
	        if self.stack:
	            self.stack[-1][3].append(d)
	p = P()
	p.feed(open(dom, encoding="utf-8").read())
	def resolve(doc, path):
	    parts, cur = path.split("."), doc
	    i = 0
	    while i < len(parts):
	        for j in range(len(parts), i, -1):   # keys may hold dots
	            k = ".".join(parts[i:j])
	            if isinstance(cur, list) and k.isdigit() and int(k) < len(cur):
	                cur, i = cur[int(k)], j
	                break
	            if isinstance(cur, dict) and k in cur:
	                cur, i = cur[k], j
	                break
	        else:
	            raise KeyError(path)
	    return cur
	def shown_ok(text, v):
	    """text shows v as the text output would (to its printed precision)."""
	    m = re.search(r"([-+]?\d+(?:\.\d+)?)\s*(%|s\b|min\b)?", text)
	    if not m:
	        return False
	    num, unit = m.group(1), m.group(2)
	    decimals = len(num.split(".")[1]) if "." in num else 0
	    want = v * 100 if unit == "%" else v
	    return abs(float(num) - want) <= 0.5 * 10 ** -decimals + 1e-9
	bad, seen = [], set()
	for key, value, text in p.figs:
	    src, _, path = key.rpartition(":")
	    if src not in sources:
	        bad.append("%s: no JSON given for %r" % (key, src)); continue
	    try:
	        want = resolve(sources[src], path)
	    except KeyError:
	        bad.append("%s: not in the JSON" % key); continue
	    seen.add(key)
	    if want is None:
	        if value != "null" or "n/a" not in text:
	            bad.append("%s: JSON null, page %r %r" % (key, value, text))
	    elif isinstance(want, bool):
	        if value != ("true" if want else "false"):
	            bad.append("%s: JSON %r, page %r" % (key, want, value))
	    elif isinstance(want, (int, float)):
	        try:
	            got = float(value)
	        except (TypeError, ValueError):
	            bad.append("%s: data-value %r" % (key, value)); continue
	        if got != want:
	            bad.append("%s: JSON %r, data-value %r" % (key, want, value))
	        elif not shown_ok(text, want):
	            bad.append("%s: JSON %r, shown %r" % (key, want, text))
	    elif isinstance(want, str):
	        if value != want:
	            bad.append("%s: JSON %r, page %r" % (key, want, value))
	    else:
	        bad.append("%s: JSON %r is not a figure" % (key, want))
	for key in required:
	    if key not in seen:
	        bad.append("%s: not on the page" % key)
	print("%d figures checked" % len(p.figs))
	print("\n".join(bad))
	sys.exit(1 if bad else 0)
	PY
}

# html_text DOM: the text a reader sees (tags dropped, entities decoded).
html_text() {
	python3 -c '
import html.parser, sys
class P(html.parser.HTMLParser):
    out, skip = [], 0
    def handle_starttag(self, t, a):
        self.skip += t in ("style", "title", "head")
        if t == "br": self.out.append("\n")
    def handle_endtag(self, t):
        self.skip -= t in ("style", "title", "head")
        if t in ("p", "div", "tr", "li", "h1", "h2", "header", "text"): self.out.append("\n")
        elif t in ("td", "th", "dt", "dd", "span", "code"): self.out.append(" ")
    def handle_data(self, d):
        if not self.skip: self.out.append(d)
p = P(); p.feed(open(sys.argv[1], encoding="utf-8").read()); print("".join(p.out))' "$1"
}

# html_no_element DOM TAG...: no element named TAG and no on* handler: a
# tag from the data would have become one, had it not been escaped.
html_no_element() {
	python3 - "$@" <<-\PY
	import html.parser, sys
	tags, found = set(sys.argv[2:]), []
	class P(html.parser.HTMLParser):
	    def handle_starttag(self, t, a):
	        if t in tags:
	            found.append("<%s>" % t)
	        found.extend("<%s %s=...>" % (t, k) for k, _ in a if k.startswith("on"))
	P().feed(open(sys.argv[1], encoding="utf-8").read())
	print("\n".join(found))
	sys.exit(1 if found else 0)
	PY
}

# html_layout PAGE WIDTH OUT: the layout Chromium computes for PAGE in a
# window WIDTH pixels wide, as JSON in OUT: "breaks", every line break
# inside the text of an element ({"tag", "text", "at": the characters
# before the break in its box, "word": the run of letters it cut, or "" at
# a space, a "/", a "::", a hyphen of prose (p, li) or an element's edge,
# "fits": whether that run fits the element's box whole})
# and "svg", the boxes of every chart's text ({"chart": its id or index,
# "text", "x", "y", "w", "h"}). The page is measured from a copy
# with a script appended (the page itself runs none: its CSP forbids it).
html_layout() {
	layout_copy "$1" "$TRASH/layout.$$.html" &&
	chromium_run --window-size="$2",1000 --dump-dom "$(file_url "$TRASH/layout.$$.html")" \
		>"$3.dom" &&
	layout_extract "$3.dom" "$3"
}

# layout_copy PAGE COPY: PAGE with html_layout's measuring script appended
# (and its CSP, which would forbid it, dropped), written to COPY.
layout_copy() {
	python3 - "$1" "$2" <<-\PY
	import re, sys
	src = open(sys.argv[1], encoding="utf-8").read()
	src = re.sub(r'<meta http-equiv="Content-Security-Policy"[^>]*>', "", src)
	script = r"""<script>
	(function () {
	  var out = {breaks: [], svg: []};
	  var range = document.createRange();
	  function letter(c) { return /[\w\-.]/.test(c); }
	  function runWidth(node, a, b) {
	    range.setStart(node, a); range.setEnd(node, b);
	    return range.getBoundingClientRect().width;
	  }
	  var walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
	  var n, box = null, prevTop = null, seen = "";
	  while ((n = walker.nextNode())) {
	    var el = n.parentElement;
	    if (!el || el.closest("svg") || el.closest("style")) continue;
	    var s = n.data, here = el.closest("td,th,dd,dt,li,p,div,h1,h2") || el;
	    /* Text nodes of one box (split by <wbr>, <code>, ...) are one text. */
	    if (here !== box) {
	      box = here; prevTop = null; seen = "";
	    }
	    for (var i = 0; i < s.length; i++) {
	      range.setStart(n, i); range.setEnd(n, i + 1);
	      var rects = range.getClientRects();
	      var text = seen + s.slice(0, i);
	      if (rects.length && rects[0].width > 0) {
	        var top = rects[0].top;
	        if (prevTop !== null && top > prevTop + 2) {
	          var a = i, b = i, last = text.slice(-1), last2 = text.slice(-2);
	          while (a > 0 && letter(s[a - 1])) a--;
	          while (b < s.length && letter(s[b])) b++;
	          var prose = el.tagName === "P" || el.tagName === "LI";
	          /* Between two text nodes: at a <br>, a <wbr>, a block's edge. */
	          var clean = i === 0 || last === " " || s[i] === " " || last === "/" ||
	            last2 === "::" || (prose && last === "-");
	          out.breaks.push({tag: el.tagName.toLowerCase(), text: s, at: text,
	            word: clean ? "" : s.slice(a, b),
	            fits: clean || runWidth(n, a, b) <= box.getBoundingClientRect().width});
	        }
	        prevTop = top;
	      }
	    }
	    seen += s;
	  }
	  var charts = document.querySelectorAll("svg");
	  for (var c = 0; c < charts.length; c++) {
	    var texts = charts[c].querySelectorAll("text");
	    for (var t = 0; t < texts.length; t++) {
	      var r = texts[t].getBoundingClientRect();
	      out.svg.push({chart: charts[c].id || String(c),
	        text: texts[t].textContent, x: r.x, y: r.y, w: r.width, h: r.height});
	    }
	  }
	  var pre = document.createElement("pre");
	  pre.id = "tiadash-layout";
	  pre.textContent = JSON.stringify(out);
	  document.body.appendChild(pre);
	})();
	</script>"""
	src = src.replace("</body>", script + "\n</body>")
	open(sys.argv[2], "w", encoding="utf-8").write(src)
	PY
}

# layout_extract DOM OUT: the layout the script of layout_copy left in DOM.
layout_extract() {
	python3 -c '
import html, re, sys
m = re.search(r"<pre id=\"tiadash-layout\">(.*?)</pre>", open(sys.argv[1], encoding="utf-8").read(), re.S)
sys.exit("no layout in " + sys.argv[1]) if not m else open(sys.argv[2], "w").write(html.unescape(m.group(1)))' \
		"$1" "$2"
}

# html_layouts WIDTHS PAGE...: html_layout of each PAGE (NAME.html, in the
# current directory) at each of the WIDTHS into NAME.WIDTH.layout, but
# for those measured already, from one Chromium start (a start is most of
# a layout's cost): each page is loaded in a window of its own, WIDTH
# pixels wide (1000 high; the pages' layout does not depend on the height).
html_layouts() {
	local widths=$1 p w jobs=()
	shift
	for p in "$@"; do
		layout_copy "$p" "$TRASH/layout.${p%.html}.html" || return 1
		for w in $widths; do
			test -s "${p%.html}.$w.layout" ||
				jobs+=("$(file_url "$TRASH/layout.${p%.html}.html")" "$w" 1000 \
					"${p%.html}.$w.layout.dom" - -)
		done
	done
	[ ${#jobs[@]} -gt 0 ] || return 0
	chromium_doms "${jobs[@]}" &&
	for p in "$@"; do
		for w in $widths; do
			test -s "${p%.html}.$w.layout" ||
				layout_extract "${p%.html}.$w.layout.dom" "${p%.html}.$w.layout" || return 1
		done
	done
}

# html_layout_once PAGE WIDTH OUT: html_layout, unless an earlier case of
# the file measured the same page at the same width into OUT already.
html_layout_once() {
	test -s "$3" || html_layout "$@"
}

# layout_mid_word LAYOUT: the line breaks that cut a word which would fit
# whole (an id, a class name such as non-hermetic): none, or each listed.
layout_mid_word() {
	python3 -c '
import json, sys
bad = [b for b in json.load(open(sys.argv[1]))["breaks"] if b["word"] and b["fits"]]
for b in bad:
    print("%s: %r cut after %r" % (b["tag"], b["word"], b["at"][-30:]))
sys.exit(1 if bad else 0)' "$1"
}

# layout_overlaps LAYOUT: the charts' texts whose boxes overlap (but the
# two zeros where the axes meet): none, or each pair listed.
layout_overlaps() {
	python3 -c '
import json, sys
by = {}
for t in json.load(open(sys.argv[1]))["svg"]:
    by.setdefault(t["chart"], []).append(t)
bad = 0
for chart, texts in by.items():
    for i, a in enumerate(texts):
        for b in texts[i + 1:]:
            if a["text"].startswith("0") and b["text"].startswith("0"):
                continue
            if a["x"] < b["x"] + b["w"] and b["x"] < a["x"] + a["w"] and \
               a["y"] < b["y"] + b["h"] and b["y"] < a["y"] + a["h"]:
                print("%s: %r over %r" % (chart, a["text"], b["text"]))
                bad += 1
sys.exit(1 if bad else 0)' "$1"
}
