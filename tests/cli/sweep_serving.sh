#!/bin/sh
# napkin sweep over a serving replica's users: the throughput-vs-latency table and figure
# say what the report says at each number of users, and the SLA targets are drawn where
# given: the ITL target on the ITL chart and as the latency line of the throughput-latency
# panel, the TTFT target on the TTFT chart; the SLA concurrency the sweep prints is the
# report's, and a row is marked within the targets exactly when both hold.
set -u
NAPKIN=${1:?usage: $0 PATH/TO/napkin}
fail() { echo "FAIL: $*"; exit 1; }
command -v python3 >/dev/null 2>&1 || { echo "SKIP: no python3"; exit 0; }
export COLUMNS=120 LC_ALL=C LANG=C
ARGS="--model llama-3-70b --gpus 2 --tp 2 --mode infer --engine vllm --weight-format fp8 --prompt 5000 --generate 500"
SLO="--ttft-slo 1s --tpot-slo 50ms"
tmp=${TMPDIR:-/tmp}/napkin-sweep-serving-$$
mkdir -p "$tmp" || fail "no temporary directory"
trap 'rm -rf "$tmp"' EXIT

"$NAPKIN" sweep batch=1..256:x2 $ARGS $SLO >"$tmp/text" || fail "sweep exits $?"
"$NAPKIN" report $ARGS --batch 1 $SLO --format json >"$tmp/sla.json" || fail "report exits $?"
for b in 8 32 64; do
	"$NAPKIN" report $ARGS --batch $b --format json >"$tmp/r$b.json" || fail "report --batch $b exits $?"
done
python3 - "$tmp" <<'PY' || exit 1
import json, re, sys
d = sys.argv[1]
t = open(d + "/text").read()
def fail(m):
    print("FAIL:", m); sys.exit(1)
def secs(s):
    v, u = s.split()
    return float(v.replace(",", "")) * {"s": 1, "ms": 1e-3, "µs": 1e-6, "min": 60, "h": 3600}[u]
if "throughput against latency" not in t: fail("no throughput-vs-latency table:\n" + t[-2000:])
rows = {}
for m in re.finditer(r"^ +(\d+) +([\d.,]+ (?:ms|s|µs|min)) +([\d.,]+ (?:ms|s|µs|min)) +([\d.,k]+) +([✓✗])$", t, re.M):
    rows[int(m[1])] = (secs(m[2]), secs(m[3]), m[4], m[5])
if sorted(rows) != [1, 2, 4, 8, 16, 32, 64, 128, 256]: fail("rows for %s" % sorted(rows))
for b in (8, 32, 64):
    s = json.load(open("%s/r%d.json" % (d, b)))["serving"]
    itl, ttft, _, mark = rows[b]
    if abs(itl - s["itl_seconds"]) > 0.006 * s["itl_seconds"]: fail("batch %d: ITL %g, the report %g" % (b, itl, s["itl_seconds"]))
    if abs(ttft - s["ttft_seconds"]) > 0.006 * s["ttft_seconds"]: fail("batch %d: TTFT %g, the report %g" % (b, ttft, s["ttft_seconds"]))
    ok = s["itl_seconds"] <= 0.05 and s["ttft_seconds"] <= 1.0
    if (mark == "✓") != ok: fail("batch %d marked %s, within the targets: %s" % (b, mark, ok))
sla = json.load(open(d + "/sla.json"))["serving"]["sla_concurrency"]
m = re.search(r"SLA .*at most (\d+) concurrent users", t)
if not m or int(m[1]) != int(sla): fail("the sweep's SLA concurrency %s, the report's %g" % (m and m[1], sla))
if "ITL target 50.00 ms" not in t or "TTFT target 1.00 s" not in t: fail("the targets are not drawn on the charts")
PY

"$NAPKIN" sweep batch=1..256:x2 $ARGS $SLO --format svg >"$tmp/f.svg" || fail "sweep --format svg exits $?"
python3 - "$tmp/f.svg" "$tmp/r32.json" <<'PY' || exit 1
import json, re, sys
svg = open(sys.argv[1]).read()
s32 = json.load(open(sys.argv[2]))["serving"]
def fail(m):
    print("FAIL:", m); sys.exit(1)
limits = sorted(float(v) for v in re.findall(r'<g class="limit" data-v="([^"]+)"', svg))
if limits != [0.05, 0.05, 1.0]: fail("limit lines %s: the ITL target twice (its chart, the front) and TTFT once" % limits)
m = re.search(r'<g class="pareto" data-x-key="serving.itl_seconds" data-y-key="serving.tokens_per_s_gpu">(.*?)</g>', svg, re.S)
if not m: fail("no throughput-vs-latency panel")
pts = {float(u): (float(x), float(y)) for u, x, y in re.findall(r'data-users="([^"]+)" data-x="([^"]+)" data-y="([^"]+)"', m[1])}
if 32.0 not in pts: fail("no point at 32 users")
x, y = pts[32.0]
if abs(x - s32["itl_seconds"]) > 1e-9 * x or abs(y - s32["tokens_per_s_gpu"]) > 1e-9 * y:
    fail("32 users at (%g, %g), the report (%g, %g)" % (x, y, s32["itl_seconds"], s32["tokens_per_s_gpu"]))
PY
# without targets: the table, no target lines
"$NAPKIN" sweep batch=1..64:x4 $ARGS --format svg | grep -q 'class="limit"' && fail "a target line without a target"
# with an engine the first point past capacity is past the sequences the engine runs at once
# (its memory share, less than memory.max_batch's whole card, over what each holds: vLLM
# books blocks as they fill), the report's serving.running_max, more than the whole contexts
# of inference.max_concurrent
E8="--model llama-3-8b --gpus 1 --mode infer --engine vllm --prompt 2000 --generate 500"
adm=$("$NAPKIN" report $E8 --batch 1 --format json | python3 -c '
import json, sys
r = json.load(sys.stdin)
if not r["serving"]["running_max"] > r["inference"]["max_concurrent"]: sys.exit(1)
print(int(r["serving"]["running_max"]))') ||
	fail "report $E8: no running_max above max_concurrent"
lo=$((adm - 1)); hi=$((adm + 1))
out=$("$NAPKIN" sweep batch=$lo..$hi:+1 $E8 --y serving.itl_seconds) || fail "sweep $E8 exits $?"
echo "$out" | grep -q "batch $hi: the first point past what the engine runs at once" ||
	fail "the sweep's first point past capacity is not $hi (the engine runs $adm):
$out"
echo "$out" | grep -Eq "^ *$adm .*✗" && fail "the engine's own capacity $adm is marked:
$out"
echo "$out" | grep -Eq "^ *$hi .*✗ beyond capacity" || fail "$hi users are not marked beyond capacity:
$out"
# along the arrival rate (mode infer: serving's results by default): beyond what the replica
# completes there is no steady state, so its times are no value ("-", null), never a 0 s that
# reads as the best latency; the rates below it keep theirs, TTFT rising towards it
max=$("$NAPKIN" report $ARGS --rate 1 --format json | python3 -c 'import json, sys; print(json.load(sys.stdin)["serving"]["rate_max"])') ||
	fail "report --rate 1 exits"
"$NAPKIN" sweep "rate=0.5..2:+0.25" $ARGS --format json >"$tmp/rate.json" || fail "rate sweep exits $?"
"$NAPKIN" sweep "rate=0.5..2:+0.25" $ARGS >"$tmp/rate.txt" || fail "rate sweep (text) exits $?"
"$NAPKIN" sweep "rate=0.5..2:+0.25" $ARGS --y serving.tokens_per_s_user --format json >"$tmp/user.json" ||
	fail "rate sweep (per user) exits $?"
python3 - "$tmp" "$max" <<'PY' || exit 1
import json, sys
d, top = sys.argv[1], float(sys.argv[2])
def fail(m):
    print("FAIL:", m); sys.exit(1)
j = json.load(open(d + "/rate.json"))
if j["results"][:3] != ["serving.tokens_per_s_gpu", "serving.itl_seconds", "serving.ttft_seconds"]:
    fail("a rate sweep in mode infer shows %s" % j["results"])
last = None
for p in j["points"]:
    sat = p["rate"] >= top
    for k in ("serving.itl_seconds", "serving.ttft_seconds"):
        if sat and p[k] is not None: fail("rate %g beyond the replica's %g: %s = %s" % (p["rate"], top, k, p[k]))
        if not sat and not (p[k] and p[k] > 0): fail("rate %g: %s = %s" % (p["rate"], k, p[k]))
    if not sat:
        if last is not None and not p["serving.ttft_seconds"] > last: fail("TTFT does not rise with the rate")
        last = p["serving.ttft_seconds"]
if not any(p["rate"] >= top for p in j["points"]) or last is None: fail("the sweep does not cross %g" % top)
# a user's tokens/s too: the report prints "-" there, the sweep no value, not 0
for p in json.load(open(d + "/user.json"))["points"]:
    v = p["serving.tokens_per_s_user"]
    if (p["rate"] >= top) != (v is None): fail("rate %g: tokens/s per user %s (the replica's most %g)" % (p["rate"], v, top))
rows = [l for l in open(d + "/rate.txt").read().splitlines() if l.strip().startswith("2 ")]
if not rows or " 0 s" in rows[0] or "-" not in rows[0]: fail("the saturated row reads %r" % rows)
PY
echo "ok"
