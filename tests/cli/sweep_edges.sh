#!/bin/sh
# napkin sweep at its edges: ranges refused by their true count in bounded time, a cost
# without a price said as the report says it, each point validated with its swept value,
# strong scaling (--strong) keeping the tokens of a step, a swept knob given twice refused,
# and a measurement far past the peak said in words.
#   sh tests/cli/sweep_edges.sh PATH/TO/napkin
# run ARGS: napkin under a 20 s clock (a range that spins fails as status 124)
RUN_TIMEOUT=20
. "$(dirname "$0")/../scripts/cli_lib.sh"

py() {
	command -v python3 >/dev/null 2>&1 || return 0
	python3 - "$tmp/out" "$NAPKIN" "$1" <<'PY' || fail "$what: $(tail -3 "$tmp/py.err" 2>/dev/null)"
import csv, io, json, subprocess, sys
text = open(sys.argv[1]).read()
N = sys.argv[2]
def report(*args):
    return json.loads(subprocess.run([N, "report", "--format", "json", *args], check=True,
                                     capture_output=True, text=True).stdout)
try:
    exec(sys.argv[3])
except Exception:
    import traceback
    open(sys.argv[1].rsplit("/", 1)[0] + "/py.err", "w").write(traceback.format_exc())
    sys.exit(1)
PY
}

# --- ranges whose step cannot move the value: refused at once, with the reason
what="a step below the resolution"
run sweep mfu=0.5..1:+1e-30
refused
err_has "the step 1e-30 is below the resolution of 0.5"
what="a size step below the resolution"
run sweep gpu_memory=1GB..2GB:+1e-20B
refused
err_has "below the resolution of 1000000000"
what="a factor that rounds a whole-number knob onto every whole number"
for f in text csv json; do
	run sweep seq=1..100000000:x1.000000000000001 --format $f
	refused
	err_has "100000000 points, at most 1024"
done
what="a slow factor on batch: 1 to 8, each whole number once, at once"
run sweep batch=1..8:x1.00000001 --format csv --y memory.total
ok
[ "$(grep -c '^[1-8],' "$tmp/out")" = 8 ] || fail "$what: not the 8 points 1..8: $(cat "$tmp/out")"
what="the true count of a long range"
run sweep seq=1..200000:+1
refused
err_has "200000 points, at most 1024"

# --- cost without a price: as the report (null in JSON), empty in CSV, "no price" in text
what="cost without a price, JSON"
run sweep batch=1..3 --y compute.cost --format json
ok
py '
j = json.loads(text)
assert report("--batch", "1")["compute"]["cost"] is None
assert [p["compute.cost"] for p in j["points"]] == [None, None, None], j["points"]
'
what="cost without a price, CSV"
run sweep batch=1..3 --y compute.cost --format csv
ok
py '
rows = list(csv.DictReader(io.StringIO(text)))
assert [r["compute.cost"] for r in rows] == ["", "", ""], rows
'
what="cost without a price, text"
run sweep batch=1..3 --y compute.cost
ok
out_has "no price"
what="cost with a price is the report's"
run sweep batch=1..2 --y compute.cost --price 2.5 --format json
ok
py '
j = json.loads(text)
for p in j["points"]:
    r = report("--batch", str(int(p["batch"])), "--price", "2.5")["compute"]
    assert abs(p["compute.cost"] - r["cost"]) <= 1e-9 * r["cost"], (p, r["cost"])
    assert abs(r["cost"] - 2.5 * r["gpu_hours"]) <= 1e-9 * r["cost"]
'

# --- each point validated with its swept value (the default 8 GPUs are not tp 4 x pp 4)
what="gpus swept past the base's layout"
run sweep gpus=64..1024:x2 --model llama-2-70b --tp 4 --pp 4 --vpp 5 --y compute.step_seconds --format json
ok
py '
j = json.loads(text)
assert [p["gpus"] for p in j["points"]] == [64, 128, 256, 512, 1024], j["points"]
for p in j["points"]:
    assert "error" not in p, p
    r = report("--model", "llama-2-70b", "--tp", "4", "--pp", "4", "--vpp", "5", "--gpus", str(int(p["gpus"])))
    assert p["compute.step_seconds"] == r["compute"]["step_seconds"], (p, r["compute"]["step_seconds"])
'
what="an invalid point stays a row with its reason"
run sweep gpus=8..32:x2 --model llama-2-70b --tp 4 --pp 4 --format csv
ok
py '
rows = list(csv.DictReader(io.StringIO(text)))
assert "must be a multiple of tp" in rows[0]["error"], rows[0]
assert rows[1]["error"] == "" and rows[2]["error"] == "", rows
'

# --- strong scaling: the tokens of a step kept, the step shrinking
what="--strong keeps the global batch"
run sweep gpus=64..1024:x2 --model llama-2-70b --tp 4 --pp 4 --strong \
	--y compute.tokens_per_step,compute.global_batch,compute.step_seconds --format json
ok
py '
j = json.loads(text)
pts = j["points"]
assert len(pts) == 5 and all("error" not in p for p in pts), pts
# the first valid point (64 GPUs: dp 4, batch 1, grad_accum 16) sets it: 64 sequences of 4096
base = report("--model", "llama-2-70b", "--tp", "4", "--pp", "4", "--gpus", "64")["compute"]
assert base["global_batch"] == 64 and base["tokens_per_step"] == 64 * 4096, base["global_batch"]
for p in pts:
    assert p["compute.tokens_per_step"] == base["tokens_per_step"], p
    assert p["compute.global_batch"] == 64, p
    # the point is the report with grad_accum 64 / dp
    dp = p["gpus"] // 16
    r = report("--model", "llama-2-70b", "--tp", "4", "--pp", "4", "--gpus", str(int(p["gpus"])),
               "--grad-accum", str(int(64 // dp)))["compute"]
    assert p["compute.step_seconds"] == r["step_seconds"], (p, r["step_seconds"])
steps = [p["compute.step_seconds"] for p in pts]
assert all(b < a for a, b in zip(steps, steps[1:])), steps
assert j["strong_global_batch"] == 64
'
what="without --strong the global batch grows with the GPUs"
run sweep gpus=64..128:x2 --model llama-2-70b --tp 4 --pp 4 --y compute.global_batch --format csv
ok
py '
rows = list(csv.DictReader(io.StringIO(text)))
assert [float(r["compute.global_batch"]) for r in rows] == [64.0, 128.0], rows
'
what="--strong where no whole grad_accum keeps it"
run sweep gpus=16..64:x2 --model llama-2-70b --tp 4 --pp 4 --grad-accum 6 --strong --format csv
ok
py '
rows = list(csv.DictReader(io.StringIO(text)))
assert rows[0]["error"] == "" and rows[1]["error"] == "", rows
assert "no whole grad_accum" in rows[2]["error"], rows[2]
'
what="--strong and a grad_accum sweep"
run sweep grad_accum=1..8 --strong
refused
err_has "--strong sets grad_accum"
what="--strong in the help"
run sweep --help
ok
out_has "--strong"

# --- a swept knob given as a flag too: refused, as a knob given twice is
what="batch swept and given"
run sweep batch=1..2 --batch 5
refused
err_has "batch is swept ('batch=1..2') and given as --batch '5'"
what="pp swept and given"
run sweep pp=1..8:x2 --pp 2
refused
err_has "given as --pp '2'"

# --- a measurement far past the peak is said in words, not inf%
what="step_time 1e-300"
run report --step-time 1e-300
refused
err_has "more than 1000 times the GPUs' peak"
err_lacks "inf"

[ "$fails" -eq 0 ] || { echo "$fails failure(s)"; exit 1; }
echo "sweep_edges: ok"
