#!/bin/sh
# napkin sweep, compare and plan (issue 13) as a person runs them: every figure they print
# is the figure `napkin report` prints for the same knobs, bad input is refused with what is
# allowed, and the planner ranks fitting layouts by predicted time.
#   sh tests/cli/tradeoffs.sh PATH/TO/napkin
set -u
NAPKIN=${1:?usage: $0 PATH/TO/napkin}
# the lines these checks read, whole, as a wide terminal shows them (tests/cli/width.sh checks
# the reports at 80 and 60 columns)
COLUMNS=200
export COLUMNS
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
fails=0

fail() {
	echo "FAIL: $*"
	fails=$((fails + 1))
}
run() {
	"$NAPKIN" "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
}
ok() { [ "$rc" -eq 0 ] || fail "$what: status $rc: $(head -c 400 "$tmp/err")"; }
refused() { [ "$rc" -eq 2 ] || fail "$what: status $rc, not 2 (refused): $(head -c 300 "$tmp/out")"; }
out_has() { grep -qF -- "$1" "$tmp/out" || fail "$what: stdout lacks '$1': $(head -c 600 "$tmp/out")"; }
err_has() { grep -qF -- "$1" "$tmp/err" || fail "$what: stderr lacks '$1': $(head -c 600 "$tmp/err")"; }
# py SCRIPT: runs python3 with the JSON on stdout as j and the napkin binary as N; the
# script raises (assert) on a failure
py() {
	command -v python3 >/dev/null 2>&1 || return 0
	python3 - "$tmp/out" "$NAPKIN" "$1" <<'EOF' || fail "$what: $(cat "$tmp/py.err" 2>/dev/null | tail -3)"
import json, subprocess, sys
j = json.load(open(sys.argv[1]))
N = sys.argv[2]
def report(*args):
    return json.loads(subprocess.run([N, "report", "--format", "json", *args], check=True,
                                     capture_output=True, text=True).stdout)
try:
    exec(sys.argv[3])
except Exception as e:
    import traceback
    open(sys.argv[1].rsplit("/", 1)[0] + "/py.err", "w").write(traceback.format_exc())
    sys.exit(1)
EOF
}

# ---- sweep: one row a point, each the report of the same knobs
what="sweep batch json"
run sweep batch=1..6 --model llama-2-13b --gpus 8 --tp 2 --format json
ok
py '
pts = j["points"]
assert [p["batch"] for p in pts] == [1, 2, 3, 4, 5, 6], pts
for p in pts:
    r = report("--model", "llama-2-13b", "--gpus", "8", "--tp", "2", "--batch", str(p["batch"]))
    assert p["memory.total"] == r["memory"]["total"], (p, r["memory"]["total"])
    assert p["memory.fits"] == r["memory"]["fits"]
    assert p["compute.step_seconds"] == r["compute"]["step_seconds"]
tot = [p["memory.total"] for p in pts]
assert tot == sorted(tot) and len(set(tot)) == len(tot), tot
mb = report("--model", "llama-2-13b", "--gpus", "8", "--tp", "2")["memory"]["max_batch"]
first = next(p["batch"] for p in pts if not p["memory.fits"])
assert first == mb + 1, (first, mb)
'

what="sweep seq: memory grows"
run sweep seq=512..32k --y memory.total,memory.activations --format json
ok
py '
for key in ("memory.total", "memory.activations"):
    v = [p[key] for p in j["points"]]
    assert all(b > a for a, b in zip(v, v[1:])), (key, v)
assert [p["seq"] for p in j["points"]][-1] == 32768
'

what="sweep heatmap cells"
run sweep batch=1..3 seq=1024..4096:x2 --format json
ok
py '
assert len(j["points"]) == 3 * 3
for p in j["points"]:
    r = report("--batch", str(int(p["batch"])), "--seq", str(int(p["seq"])))
    assert p["memory.total"] == r["memory"]["total"] and p["compute.step_seconds"] == r["compute"]["step_seconds"], p
'

what="sweep text: the curve, the capacity and the first point over"
run sweep batch=1..8
ok
out_has "capacity 79.65 GiB"
# the mark names the point after the largest micro-batch that fits
mb=$("$NAPKIN" report --format json | sed -n 's/.*"max_batch": \([0-9]*\).*/\1/p' | head -1)
out_has "▲ batch $((mb + 1)): the first point that does not fit (memory.max_batch: $mb)"
out_has "memory.total (total), per GPU"
out_has "┤"

what="sweep heatmap text"
run sweep batch=1..4 seq=512..8k:x2 --y memory.fits
ok
out_has "█ fits   ✗ does not fit   · invalid"

# every result's heatmap marks the layouts that do not fit ✗ (the report's memory.fits) and
# shades only those that fit: 70B on 64 H100s fits at tp 8 × pp 4 and 8 alone, where the
# unmarked chart painted a layout 69 GiB over as full as one that fits
what="sweep heatmap: cells that do not fit are marked, the shades span those that fit"
run sweep tp=1..8:x2 pp=1..8:x2 --model llama-2-70b --gpus 64 --y compute.mfu,memory.headroom
ok
if command -v python3 >/dev/null 2>&1; then
	python3 - "$tmp/out" "$NAPKIN" <<'PY' || fail "$what: $(head -c 1500 "$tmp/out")"
import json, subprocess, sys
text = open(sys.argv[1], encoding="utf-8").read().split("\n")
N = sys.argv[2]
fits, value = {}, {}
for tp in (1, 2, 4, 8):
    for pp in (1, 2, 4, 8):
        r = json.loads(subprocess.run([N, "report", "--format", "json", "--model", "llama-2-70b", "--gpus", "64",
                                       "--tp", str(tp), "--pp", str(pp)], check=True, capture_output=True,
                                      text=True).stdout)
        fits[tp, pp] = r["memory"]["fits"]
        value["compute.mfu", tp, pp] = r["compute"]["mfu"]
        value["memory.headroom", tp, pp] = r["memory"]["headroom"]
assert 0 < sum(fits.values()) < 16, fits
for key in ("compute.mfu", "memory.headroom"):
    at = next(i for i, l in enumerate(text) if l.startswith(key + " (rows: pp, columns: tp)"))
    cells = {}
    for row, pp in enumerate((1, 2, 4, 8)):
        glyphs = text[at + 1 + row].split("\u2502", 1)[1]
        assert len(glyphs) == 4, (key, text[at + 1 + row])
        for col, tp in enumerate((1, 2, 4, 8)):
            cells[tp, pp] = glyphs[col]
    for c, g in cells.items():
        assert (g == "\u2717") == (not fits[c]), (key, c, g, fits[c])
        assert fits[c] == (g in "\u2591\u2592\u2593\u2588"), (key, c, g)
    ok = [c for c in cells if fits[c]]
    best = max(ok, key=lambda c: value[key, c[0], c[1]])
    worst = min(ok, key=lambda c: value[key, c[0], c[1]])
    assert cells[best] == "\u2588" and cells[worst] == "\u2591", (key, cells, best, worst)
    legend = "\n".join(text[at + 6:at + 9])
    assert "\u2717 does not fit" in legend and "over the cells that fit" in legend, legend
    # the lowest shade is the lowest cell that fits: no headroom below zero
    assert "\u2591 -" not in legend, legend
PY
fi

what="sweep csv"
run sweep gpus=8..32:x2 --format csv
ok
[ "$(head -1 "$tmp/out")" = "gpus,memory.total,memory.fits,compute.step_seconds,error" ] || fail "$what: header $(head -1 "$tmp/out")"
[ "$(wc -l <"$tmp/out")" -eq 4 ] || fail "$what: $(wc -l <"$tmp/out") lines, not 4"

what="sweep invalid points say why"
run sweep tp=1..4 --format csv
ok
grep -q '^3,,,,"gpus (8) must be a multiple of tp' "$tmp/out" || fail "$what: $(cat "$tmp/out")"

for bad in "batch=8..1" "batch=1..8:x1" "batch=1..8:+0.5" "batch=1-8" "btach=1..8" "optimizer"; do
	what="sweep $bad"
	run sweep "$bad"
	refused
	grep -q "napkin sweep: " "$tmp/err" || fail "$what: $(cat "$tmp/err")"
done
what="sweep bad range lists the forms"
run sweep batch=8..1
err_has "KNOB=FROM..TO:xFACTOR"
what="sweep too many points"
run sweep batch=1..1000:+1 seq=1..1000:+1
refused
err_has "at most 65536"
what="sweep unknown result"
run sweep batch=1..4 --y memory.totl
refused
err_has "did you mean memory.total?"
err_has "results (--y): model.params_total"
what="sweep no range"
run sweep
refused
err_has "KNOB=FROM..TO"

# ---- --stack: the parts under the curve are the report's parts at the scenario's x (the
# scenario's own batch, from its file: a swept knob given as a flag too is refused)
what="sweep --stack memory parts"
printf 'batch: 2\n' >"$tmp/batch2.yaml"
run sweep batch=1..6 --y memory.total,compute.step_seconds --stack --model llama-2-7b --zero 3 --scenario "$tmp/batch2.yaml"
ok
out_has "memory.total stacked by part"
out_has "compute.step_seconds stacked by part"
out_has "at batch 2:"
if command -v python3 >/dev/null 2>&1; then
	python3 - "$tmp/out" "$NAPKIN" <<'EOF2' || fail "$what: the stacked legend is not napkin report's parts"
import json, re, subprocess, sys
out = open(sys.argv[1]).read()
r = json.loads(subprocess.run([sys.argv[2], "report", "--format", "json", "--model", "llama-2-7b", "--zero", "3",
                               "--batch", "2"], check=True, capture_output=True, text=True).stdout)
mult = {"B": 1, "KiB": 2**10, "MiB": 2**20, "GiB": 2**30, "TiB": 2**40, "s": 1, "ms": 1e-3, "µs": 1e-6}
def shown(name):
    m = re.search(r" %s ([0-9.,]+) (\S+)" % re.escape(name), out)
    assert m, name
    return float(m.group(1).replace(",", "")) * mult[m.group(2)]
for part, want in (("activations", r["memory"]["activations"]), ("optimizer", r["memory"]["optimizer"]),
                   ("matmul", r["compute"]["step_breakdown"]["matmul"])):
    got = shown(part)
    assert abs(got - want) <= 0.006 * want, (part, got, want)
EOF2
fi

what="sweep --stack in csv is refused"
run sweep batch=1..4 --stack --format csv
refused
err_has "--stack draws the parts under a curve in the text form"

# ---- compare: every column is the single report
what="compare gpus json"
run compare --model llama-2-13b --gpus 8 --gpu h100-sxm,h200-sxm,mi300x --format json
ok
py '
assert [c["gpu"]["id"] for c in j["columns"]] == ["h100-sxm", "h200-sxm", "mi300x"]
for c in j["columns"]:
    r = report("--model", "llama-2-13b", "--gpus", "8", "--gpu", c["gpu"]["id"])
    for sec in ("memory", "compute"):
        for k, v in r[sec].items():
            assert c[sec][k] == v, (c["gpu"]["id"], sec, k, c[sec][k], v)
'
what="compare a non-GPU knob, json"
run compare --model llama-2-7b --gpus 8 --tp 1,2,4 --format json
ok
py '
assert j["knob"] == "tp" and j["values"] == ["1", "2", "4"], (j["knob"], j["values"])
for v, c in zip(j["values"], j["columns"]):
    r = report("--model", "llama-2-7b", "--gpus", "8", "--tp", v)
    assert c["scenario"]["tp"] == int(v), c["scenario"]["tp"]
    for sec in ("memory", "compute"):
        for k, x in r[sec].items():
            assert c[sec][k] == x, (v, sec, k, c[sec][k], x)
'
what="compare any knob, text"
run compare --batch 1,2,4
ok
out_has "  total"
grep -q '^  total  .* +[0-9]*%' "$tmp/out" || fail "$what: no change against the first column: $(grep '^  total' "$tmp/out")"
out_has "* the best of a row"
what="compare without a list"
run compare --gpu h100-sxm
refused
err_has "--gpu h100-sxm,h200,mi300x"
what="compare a bad column"
run compare --gpu h100-sxm,nosuchgpu
refused

# ---- plan: the issue's command ranks fitting layouts by predicted time
what="plan 70B on 64 H100"
run plan --model llama-2-70b --gpu h100-sxm --gpus 64 --format json
ok
py '
assert j["searched"] > 1000 and 0 < j["fitting"] <= j["searched"], j["searched"]
c = j["candidates"]
assert len(c) == 10
t = [x["compute"]["train_seconds"] for x in c]
assert t == sorted(t), t
for x in c:
    assert x["memory"]["fits"] is True
    assert x["compute"]["mfu_source"] == "predicted"
    s = x["scenario"]
    assert s["gpus"] == 64
# the top row is what napkin report says of that layout
s = c[0]["scenario"]
flags = ["--model", "llama-2-70b", "--gpu", "h100-sxm"]
for k in ("gpus", "tp", "pp", "vpp", "cp", "ep", "zero", "batch", "grad_accum"):
    flags += ["--" + k, str(int(s[k]))]
flags += ["--recompute", s["recompute"]]
r = report(*flags)
assert r["memory"]["total"] == c[0]["memory"]["total"]
assert r["compute"]["train_seconds"] == c[0]["compute"]["train_seconds"]
# the default layout (tp 1) does not fit a 70B model
assert j["current_fits"] is False
'
what="plan 7B: no slower than the user's own layout"
run plan --gpus 16 --format json
ok
py '
assert j["current_fits"] is True
assert j["candidates"][0]["compute"]["train_seconds"] <= j["current"]["compute"]["train_seconds"]
'
what="plan text"
run plan --model llama-2-70b --gpus 64 --top 3
ok
out_has "searched"
out_has "  1     64"
out_has "your layout does not fit"
what="plan cost column"
run plan --goal cost --price 2 --top 2
ok
out_has "GPU-hours         cost"
what="plan goal gpus with a deadline"
run plan --goal gpus --deadline 400 --model llama-2-70b --format json
ok
py '
assert all(x["compute"]["train_days"] <= 400 for x in j["candidates"])
g = [x["scenario"]["gpus"] for x in j["candidates"]]
assert len(set(g)) == 1, g
'
for bad in "--goal fastest" "--top 0" "--deadline soon" "--format yaml"; do
	what="plan $bad"
	# shellcheck disable=SC2086
	run plan $bad
	refused
done
what="plan goal lists"
run plan --goal fastest
err_has "allowed: time, gpu-hours, cost, gpus"
what="plan inference"
run plan --mode infer
refused
err_has "training"

[ "$fails" -eq 0 ] || {
	echo "$fails failure(s)"
	exit 1
}
echo "tradeoffs: all passed"
