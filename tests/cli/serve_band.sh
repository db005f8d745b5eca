#!/bin/sh
# Serving's error bands (src/engine/serve_band.c, docs/serving-validation.md "Error bands") as
# a person reads them: for Llama-3-70B FP8 on 2 x H100 with vLLM the report's TTFT, ITL,
# tokens/s a replica and capacity carry the ± that JSON's serving.*_band gives, the bands line
# says each band's words as JSON does, low and high are the figure ÷ (1 ± q), --explain says
# the same band with its source; SGLang's TTFT (fewer than 5 cases of its own) takes every
# engine's cases and says so; without an engine, and at a rate the replica does not
# complete, there is no band and the words say "no validation"; a sustained open load keeps
# its TTFT's and ITL's bands, taken from the cases at a like load (under half the most
# requests/s the replica completes, or half and more: the heavier load's are wider), and its
# output (the rate × the tokens) has none.
set -u
NAPKIN=${1:?usage: $0 PATH/TO/napkin}
fail() { echo "FAIL: $*"; exit 1; }
command -v python3 >/dev/null 2>&1 || { echo "SKIP: no python3"; exit 0; }
export COLUMNS=400 LC_ALL=C LANG=C
ARGS="--model llama-3-70b --gpus 2 --tp 2 --mode infer --weight-format fp8 --prompt 5000 --generate 500 --batch 50"
tmp=$(mktemp -d) || fail "mktemp"
trap 'rm -rf "$tmp"' EXIT

"$NAPKIN" report $ARGS --engine vllm --explain >"$tmp/vllm.txt" || fail "report --explain exits $?"
"$NAPKIN" report $ARGS --engine vllm --format json >"$tmp/vllm.json" || fail "report --format json exits $?"
"$NAPKIN" report $ARGS --engine sglang --format json >"$tmp/sglang.json" || fail "sglang json exits $?"
"$NAPKIN" report $ARGS --engine none --format json >"$tmp/none.json" || fail "engine none json exits $?"
"$NAPKIN" report $ARGS --engine none >"$tmp/none.txt" || fail "engine none exits $?"
"$NAPKIN" report $ARGS --engine vllm --rate 1000 --format json >"$tmp/sat.json" || fail "rate 1000 json exits $?"
"$NAPKIN" report $ARGS --engine vllm --rate 0.5 --format json >"$tmp/open.json" || fail "rate 0.5 json exits $?"
"$NAPKIN" report $ARGS --engine vllm --rate 1.2 --format json >"$tmp/heavy.json" || fail "rate 1.2 json exits $?"
"$NAPKIN" report $ARGS --engine vllm --rate 1.2 >"$tmp/heavy.txt" || fail "rate 1.2 exits $?"
python3 - "$tmp" <<'PY' || exit 1
import json, re, sys
d = sys.argv[1]
def fail(m):
    print("FAIL:", m); sys.exit(1)
t = open(d + "/vllm.txt").read()
j = json.load(open(d + "/vllm.json"))
s = j["serving"]
B = {k: s[k + "_band"] for k in ("ttft", "itl", "tokens_per_s", "capacity")}
for k, b in B.items():
    if b["from"] != "group" or b["group"] != "vllm" or not b["count"] >= 5:
        fail("%s_band: not vLLM's own cases: %s" % (k, b))
    if not 0 < b["relative"] < 1 or b["quantile"] != "p80_abs_error" or not 0 <= b["median"] <= b["relative"]:
        fail("%s_band: %s" % (k, b))
    name = {"ttft": "TTFT", "itl": "ITL", "tokens_per_s": "throughput", "capacity": "capacity"}[k]
    want = "±%.0f%% from %d vLLM %s cases (median |error| %.0f%%)" % (100 * b["relative"], b["count"], name, 100 * b["median"])
    if b["text"] != want: fail("%s_band text %r, expected %r" % (k, b["text"], want))
# low and high: the figure ÷ (1 + q) and ÷ (1 − q), as the step band's
fig = {"ttft": s["ttft_seconds"], "itl": s["itl_seconds"], "tokens_per_s": s["tokens_per_s_replica"],
       "capacity": j["inference"]["max_concurrent"]}
for k, f in fig.items():
    b = B[k]
    if abs(b["low"] - f / (1 + b["relative"])) > 1e-9 * f or abs(b["high"] - f / (1 - b["relative"])) > 1e-9 * f:
        fail("%s_band low %g high %g, the figure %g ±%g" % (k, b["low"], b["high"], f, b["relative"]))
pm = {k: "±%.0f%%" % (100 * b["relative"]) for k, b in B.items()}
# the report: each figure with its ±, and the bands line in JSON's words
if not re.search(r"steady +50 users: TTFT [\d.,]+ \S+ %s \(of it" % pm["ttft"], t): fail("the steady line's TTFT has no " + pm["ttft"])
if not re.search(r"· ITL [\d.,]+ \S+ %s \(median" % pm["itl"], t): fail("the steady line's ITL has no " + pm["itl"])
if not re.search(r"output +tokens/s [\d.,]+ per user · [\d.,]+ %s per replica" % pm["tokens_per_s"], t):
    fail("the output line's tokens/s a replica has no " + pm["tokens_per_s"])
if not re.search(r"capacity +%d %s concurrent sequences" % (fig["capacity"], pm["capacity"]), t):
    fail("the capacity line has no " + pm["capacity"])
line = " · ".join(B[k]["text"] for k in ("ttft", "itl", "tokens_per_s", "capacity"))
if "  bands    " + line + " (±: the 80th percentile of |predicted ÷ published − 1| in napkin's serving validation)" not in t:
    fail("the bands line is not JSON's words:\n" + "\n".join(l for l in t.splitlines() if "bands" in l))
# --explain: a band line with the same words, its low and high, and its source
for key, k in (("serving.ttft_seconds", "ttft"), ("serving.itl_seconds", "itl"),
               ("serving.tokens_per_s_replica", "tokens_per_s"), ("inference.max_concurrent", "capacity")):
    m = re.search(r"\n" + re.escape(key) + r": (.*?)\n\n", t, re.S)
    if not m: fail("no explanation of " + key)
    bl = re.search(r"\n  band +(.*)", m[1])
    if not bl or (": " + B[k]["text"] + ", signed median") not in bl[1] or "serving validation" not in bl[1]:
        fail("%s: the band line is not JSON's band: %s" % (key, bl and bl[1]))
# SGLang: fewer than 5 TTFT cases of its own, every engine's instead; its ITL has 8
g = json.load(open(d + "/sglang.json"))["serving"]
b = g["ttft_band"]
if b["from"] != "all" or b["group"] != "any" or "SGLang: fewer than 5" not in b["text"] or "from all %d TTFT cases" % b["count"] not in b["text"]:
    fail("SGLang's TTFT band: %s" % b)
if g["itl_band"]["from"] != "group" or g["itl_band"]["group"] != "sglang": fail("SGLang's ITL band: %s" % g["itl_band"])
# no engine: no validation, no width
for k, b in ((k, json.load(open(d + "/none.json"))["serving"][k + "_band"]) for k in B):
    if b["from"] != "none" or b["low"] is not None or b["relative"] is not None or b["count"] != 0 or "no validation" not in b["text"]:
        fail("engine none, %s_band: %s" % (k, b))
if "±" in open(d + "/none.txt").read().split("Inference", 1)[1].split("Roofline", 1)[0] or "  bands  " in open(d + "/none.txt").read():
    fail("engine none: a serving band in the report")
# an open load beyond the replica: no steady state, no band on its times and rate; capacity keeps one
st = json.load(open(d + "/sat.json"))["serving"]
if not st["rate_saturated"]: fail("rate 1000 is not saturated")
for k in ("ttft", "itl", "tokens_per_s"):
    if st[k + "_band"]["from"] != "none" or "beyond the rate the replica completes" not in st[k + "_band"]["text"]:
        fail("saturated, %s_band: %s" % (k, st[k + "_band"]))
if st["capacity_band"]["from"] != "group": fail("saturated, the capacity band: %s" % st["capacity_band"])
# a sustained open load: its TTFT and ITL keep their bands; its output is the rate x the tokens, no band
op = json.load(open(d + "/open.json"))["serving"]
if op["rate_saturated"] or op["ttft_band"]["from"] != "group" or op["itl_band"]["from"] != "group":
    fail("rate 0.5: %s %s" % (op["ttft_band"], op["itl_band"]))
if abs(op["ttft_band"]["low"] - op["ttft_seconds"] / (1 + op["ttft_band"]["relative"])) > 1e-9 * op["ttft_seconds"]:
    fail("rate 0.5: the TTFT band is not the open load's TTFT's")
if op["tokens_per_s_band"]["from"] != "none" or "its rate" not in op["tokens_per_s_band"]["text"]:
    fail("rate 0.5, tokens_per_s_band: %s" % op["tokens_per_s_band"])
# the load picks the cases: rate ÷ rate_max under half at 0.5/s, above it at 1.2/s; a closed
# loop (the batch above) takes every load's
hv = json.load(open(d + "/heavy.json"))["serving"]
for name, x, want in (("rate 0.5", op, "under_half"), ("rate 1.2", hv, "half_or_more")):
    if x["rate_saturated"]: fail("%s saturates: %s" % (name, x["rate_max"]))
    u = x["rate"] / x["rate_max"]
    if (u < 0.5) != (want == "under_half"): fail("%s: the load %.3f is not %s" % (name, u, want))
    for k in ("ttft", "itl"):
        b = x[k + "_band"]
        if b["load"] != want or abs(b["utilization"] - u) > 1e-9 or "this load %.0f%%" % (100 * u) not in b["text"]:
            fail("%s, %s_band: %s" % (name, k, b))
    if x["capacity_band"]["load"] != "any" or x["capacity_band"]["utilization"] is not None:
        fail("%s, capacity_band: %s" % (name, x["capacity_band"]))
for k in ("ttft", "itl"):
    if not op[k + "_band"]["relative"] < hv[k + "_band"]["relative"]:
        fail("%s: the light load's band %s is not narrower than the heavy one's %s" % (k, op[k + "_band"], hv[k + "_band"]))
    if s[k + "_band"]["load"] != "any" or s[k + "_band"]["utilization"] is not None:
        fail("a closed loop's %s_band: %s" % (k, s[k + "_band"]))
if "vLLM TTFT cases at half their replica's most requests/s or more" not in " ".join(open(d + "/heavy.txt").read().split()):
    fail("the report does not say the heavy load's cases")
PY
echo "ok"
