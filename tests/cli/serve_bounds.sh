#!/bin/sh
# The serving report's bounds as a person reads them: a bound (100% of peak and bandwidth,
# nothing else in the way) never reads above what napkin predicts for the same thing, and
# says at what it is taken.
#  - DeepSeek-V3 over 16 H100 with expert parallelism (ep 16, SGLang, 64 users): a GPU holds
#    16 of the 256 routed experts, so the TPOT bound reads about its 56 GiB of weights, not
#    every expert the batch reaches (it read 177.7 ms over a predicted ITL of 108.9 ms).
#  - An open load that decodes about one sequence at a time: the TPOT bound is at the batch
#    knob and says so beside the load's own mean.
#  - An engine that finds no room for one sequence's KV blocks (DeepSeek-V3's 671 GB of fp8
#    weights on 8 A100 80GB: 84 GB a GPU, over 90% of the card) says it admits none, and the
#    capacity reads no sequence, with no error band.
#  - One output token a request: there is no gap between tokens to time, so no "ITL 0 s".
set -u
NAPKIN=${1:?usage: $0 PATH/TO/napkin}
fail() { echo "FAIL: $*"; exit 1; }
command -v python3 >/dev/null 2>&1 || { echo "SKIP: no python3"; exit 0; }
export COLUMNS=400 LC_ALL=C LANG=C
tmp=$(mktemp -d) || fail "mktemp"
trap 'rm -rf "$tmp"' EXIT

EP="--model deepseek-v3 --gpus 16 --mode infer --engine sglang --ep 16 --prompt 2000 --generate 500 --batch 64"
OPEN="--model gpt-oss-120b --gpu l40s --gpus 4 --tp 4 --mode infer --engine tgi --prompt 128 --generate 16 --batch 64 --rate 1"
NONE="--model deepseek-v3 --gpu a100-80gb-sxm --gpus 8 --tp 8 --mode infer --engine tgi --prompt 16 --generate 1000 --batch 1"
"$NAPKIN" report $EP --format json >"$tmp/ep.json" 2>/dev/null || fail "ep json exits $?"
"$NAPKIN" report $EP >"$tmp/ep.txt" 2>/dev/null || fail "ep report exits $?"
"$NAPKIN" report $OPEN --format json >"$tmp/open.json" || fail "open json exits $?"
"$NAPKIN" report $OPEN >"$tmp/open.txt" || fail "open report exits $?"
"$NAPKIN" report $NONE --format json >"$tmp/none.json" 2>/dev/null || fail "none json exits $?"
"$NAPKIN" report $NONE >"$tmp/none.txt" 2>/dev/null || fail "none report exits $?"
ONE="--model llama-3-8b --gpus 1 --mode infer --prompt 1000 --generate 1"
"$NAPKIN" report $ONE --engine vllm --batch 16 >"$tmp/one.txt" || fail "one token exits $?"
"$NAPKIN" report $ONE --engine sglang --batch 16 >>"$tmp/one.txt" || fail "one token sglang exits $?"
"$NAPKIN" report $ONE --engine vllm --rate 5 >>"$tmp/one.txt" || fail "one token open exits $?"
python3 - "$tmp" <<'PY' || exit 1
import json, re, sys
d = sys.argv[1]
def fail(m):
    print("FAIL:", m); sys.exit(1)
ep = json.load(open(d + "/ep.json"))
i, s, m = ep["inference"], ep["serving"], ep["memory"]
# the bound reads at most what a GPU holds (its weights and the batch's KV) at 3.35 TB/s
held = m["weights"]
if not i["tpot_seconds"] <= s["itl_seconds"]:
    fail("ep 16: TPOT bound %.4g s over the predicted ITL %.4g s" % (i["tpot_seconds"], s["itl_seconds"]))
if not i["tpot_seconds"] < 1.2 * held / 3.35e12:
    fail("ep 16: TPOT bound %.4g s, more than a GPU's %.3g GB of weights take at 3.35 TB/s" % (i["tpot_seconds"], held / 1e9))
if not i["ttft_seconds"] <= s["ttft_seconds"]:
    fail("ep 16: TTFT bound %.4g s over the predicted %.4g s" % (i["ttft_seconds"], s["ttft_seconds"]))
t = open(d + "/ep.txt").read()
b = re.search(r"TPOT ≥ ([0-9.]+) ms", t)
if not b or abs(float(b.group(1)) - 1e3 * i["tpot_seconds"]) > 0.01:
    fail("ep 16: the report's TPOT bound %s is not JSON's %.2f ms" % (b and b.group(1), 1e3 * i["tpot_seconds"]))

o = json.load(open(d + "/open.json"))
t = re.sub(r"\s+", " ", open(d + "/open.txt").read())
b = re.search(r"TPOT ≥ [0-9.]+ ms with 64 sequences decoding in one step, where this load decodes ([0-9.]+) at a time", t)
if not b:
    fail("open load: the TPOT bound does not say it takes the batch knob's 64 sequences: " + t[t.find("bounds"):][:300])
if not 0.5 < float(b.group(1)) < 3:
    fail("open load at 1 request/s: decodes %s at a time, not about one" % b.group(1))

n = json.load(open(d + "/none.json"))
if not n["memory"]["fits"] or n["inference"]["max_concurrent"] != 0:
    fail("DeepSeek-V3 on 8 A100: fits %r, max_concurrent %r (want napkin's count to fit, TGI to admit none)"
         % (n["memory"]["fits"], n["inference"]["max_concurrent"]))
if not any("admits no sequence" in w for w in n["warnings"]):
    fail("no note that TGI admits no sequence: %r" % n["warnings"])
t = re.sub(r"\s+", " ", open(d + "/none.txt").read())
if "capacity no sequence of 1016 tokens fits as TGI admits them" not in t:
    fail("the capacity line: " + t[t.find("capacity"):][:200])
if "none fits ±" in t:
    fail("a band on no sequence")

t = re.sub(r"\s+", " ", open(d + "/one.txt").read())
if t.count("no ITL (one output token a request)") != 3:
    fail("one output token: the steady lines do not say there is no ITL: " + t[:400])
for bad in ("ITL 0 s", "decode only", "TPOT p99 0 s", "× ITL"):
    if bad in t:
        fail("one output token: %r in the report" % bad)
PY
echo "ok"
