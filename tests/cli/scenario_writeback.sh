#!/bin/sh
# How a scenario is named, defaulted and written back, end to end with the real binary:
#  1. every `scenario` napkin writes (report's JSON and YAML, plan's candidates) loads back
#     to the identical report, for every built-in GPU in both modes;
#  2. a shape changed away from its preset is named for what it is, not for the preset;
#  3. a fine-tuning's tokens default to a fine-tuning's, with a note; --tokens is kept;
#  4. a shape from a size has real dims (ffn a multiple of 256);
#  5. the techniques rows that add GPUs say so; LoRA/QLoRA do not apply to a pretraining;
#  6. a path that is not a file is bad input (status 2) wherever it is given.
#   sh tests/cli/scenario_writeback.sh PATH/TO/napkin
. "$(dirname "$0")/../scripts/cli_lib.sh"


if ! command -v python3 >/dev/null 2>&1; then
	echo "SKIP: no python3 to read the JSON"
	exit 0
fi

# run ARGS...: napkin ARGS with stdout in $tmp/out, stderr in $tmp/err, status in $rc
out_lacks() { grep -qF -- "$1" "$tmp/out" && fail "$what: stdout has '$1': $(grep -F -m2 -- "$1" "$tmp/out")"; }
# the interpreter itself, not a version manager's shim (which costs a start each call)
PY=$(python3 -c 'import sys; print(sys.executable)')
# json PYTHON-EXPR: true of j, the JSON report on stdout
json() {
	"$PY" -c 'import json,sys; j=json.load(open(sys.argv[1])); sys.exit(0 if eval(sys.argv[2]) else 1)' \
		"$tmp/out" "$1" || fail "$what: JSON: not $1"
}

# ---- 1. round trip: report -> its scenario -> report again is the same report, byte for byte,
# for every built-in GPU in both modes (network_bw 0 is a GPU with no scale-out figure: PCIe
# cards and TPUs), from the JSON report and from the YAML one; the default (napkin's built-in
# model and GPU) and scenarios that are not presets; and plan's candidates (README:
# jq '.candidates[0].scenario'). One Python runs them all and prints a FAIL line for each miss.
"$PY" - "$NAPKIN" "$tmp" >"$tmp/rt" 2>&1 <<'PYEOF'
import json, os, subprocess, sys
napkin, tmp = sys.argv[1], sys.argv[2]
try:
    import yaml
except ImportError:
    yaml = None

def napkin_run(args):
    # a wide terminal: presets list one line a preset, its id first
    p = subprocess.run([napkin] + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=dict(os.environ, COLUMNS="200"))
    return p.returncode, p.stdout, p.stderr.decode(errors="replace")[:300]

def load_back(what, scenario, want):
    path = os.path.join(tmp, "s.yaml")
    with open(path, "w") as f:
        f.write(json.dumps(scenario))
    rc, out, err = napkin_run(["report", "--format", "json", "--scenario", path])
    if rc != 0:
        print("FAIL: %s: the scenario does not load back: %s" % (what, err))
    elif want is not None and out != want:
        a, b = want.decode().splitlines(), out.decode().splitlines()
        diff = [(x, y) for x, y in zip(a, b) if x != y][:3]
        print("FAIL: %s: another report (%d lines, then %d): %s" % (what, len(a), len(b), diff))

rc, out, _ = napkin_run(["presets", "list", "gpus"])
gpus = [l.split()[0] for l in out.decode().splitlines()[1:] if l.strip()]
if len(gpus) < 20:
    print("FAIL: presets list gpus lists %d GPUs" % len(gpus))
cases = [["--gpu", g, "--mode", m] for g in gpus for m in ("train", "infer")]
cases += [[], ["--params", "70B"], ["--layers", "80", "--hidden", "8192"],
          ["--finetune", "qlora", "--gpu", "rtx-4090", "--gpus", "1"], ["--finetune", "full"],
          ["--finetune", "lora", "--tokens", "10M", "--gpu", "t4", "--gpus", "1"], ["--network-bw", "0"]]
for args in cases:
    what = "round trip " + " ".join(args)
    rc, want, err = napkin_run(["report", "--format", "json"] + args)
    if rc != 0:
        print("FAIL: %s: report: %s" % (what, err))
        continue
    load_back(what, json.loads(want)["scenario"], want)
    if yaml is not None and args[:1] == ["--gpu"] and args[3] == "train":
        rc, y, err = napkin_run(["report", "--format", "yaml"] + args)
        load_back(what + " (YAML)", yaml.safe_load(y)["scenario"], want)
what = "plan --gpu rtx-4090: candidates[0].scenario"
rc, out, err = napkin_run(["plan", "--format", "json", "--gpu", "rtx-4090", "--gpus", "8", "--top", "2"])
if rc != 0:
    print("FAIL: %s: %s" % (what, err))
else:
    sc = json.loads(out)["candidates"][0]["scenario"]
    if sc.get("network_bw") != 0:
        print("FAIL: %s: network_bw %r, not 0 (the RTX 4090 has none)" % (what, sc.get("network_bw")))
    load_back(what, sc, None)
print("ran %d round trips" % len(cases))
PYEOF
grep '^FAIL' "$tmp/rt"
fails=$((fails + $(grep -c '^FAIL' "$tmp/rt")))
grep -q '^ran [0-9]* round trips' "$tmp/rt" || fail "the round trips did not run: $(tail -3 "$tmp/rt")"

# ---- 2. a changed shape is named for what it is. 80 layers of d 8192 on Llama-2-7B's other
# dims (32 heads of 128, ffn 11008): 80 × (4·8192·4096 + 3·8192·11008 + 2·8192)
# + 2 × 32000 × 8192 + 8192 = 32,905,633,792 parameters
what="--layers 80 --hidden 8192 (a 32.9 B shape on Llama-2-7B)"
run report --layers 80 --hidden 8192
ok
head -1 "$tmp/out" | grep -qF 'napkin · custom 32.91 B: 80 layers, d 8192 on ' ||
	fail "$what: title '$(head -1 "$tmp/out")'"
out_lacks 'Llama-2-7B'
run report --layers 80 --hidden 8192 --format json
json 'j["model"]["params_total"] == 32905633792 and j["model"]["name"] == "custom 32.91 B: 80 layers, d 8192"'
what="--params 70B --layers 40 (half the depth of the 70B shape)"
run report --params 70B --layers 40
ok
head -1 "$tmp/out" | grep -qE '^napkin · custom [0-9.]+ B: 40 layers, d 8192 on ' || fail "$what: title '$(head -1 "$tmp/out")'"
what="--layers 1 (one layer, said so)"
run report --layers 1
ok
head -1 "$tmp/out" | grep -qF 'custom 464.5 M: 1 layer, d 4096 on' || fail "$what: title '$(head -1 "$tmp/out")'"
# a small change keeps the preset's name, marked: a longer context (no parameters with RoPE),
# tied embeddings (-1.9%)
for args in "--max-positions 8192" "--tied-embeddings on"; do
	what="$args (the same model, changed)"
	# shellcheck disable=SC2086
	run report $args
	ok
	head -1 "$tmp/out" | grep -qF 'napkin · Llama-2-7B* on ' || fail "$what: title '$(head -1 "$tmp/out")'"
done
what="the preset itself"
run report --model llama-2-7b
ok
head -1 "$tmp/out" | grep -qF 'napkin · Llama-2-7B on ' || fail "$what: title '$(head -1 "$tmp/out")'"

# ---- 3. a fine-tuning's tokens: 100 M (Alpaca: 52,002 examples × 3 epochs × 512 tokens = 80 M),
# said in a note; never a pretraining's 2 T; an explicit --tokens is kept
for ft in lora qlora full; do
	what="--finetune $ft (tokens not given)"
	run report --finetune $ft --format json
	ok
	json 'j["scenario"]["tokens"] == 1e8'
	err_has "note: tokens 2 T → 100 M, a fine-tuning's default"
	# 100 M tokens at the predicted throughput
	json 'abs(j["compute"]["train_days"] - 1e8 / j["compute"]["tokens_per_s"] / 86400) < 1e-6 * j["compute"]["train_days"]'
	run report --finetune $ft
	ok
	grep -E '^  time ' "$tmp/out" | grep -q 'years' && fail "$what: $(grep -E '^  time ' "$tmp/out")"
done
what="--finetune lora --tokens 2T (explicit)"
run report --finetune lora --tokens 2T --format json
ok
json 'j["scenario"]["tokens"] == 2e12'
err_lacks 'note: tokens'
what="pretraining (no --finetune)"
run report --format json
ok
json 'j["scenario"]["tokens"] == 2e12 and "finetune" not in j["scenario"]'
err_lacks 'note: tokens'

# ---- 4. a shape from a size: Llama-2-70B's dims, ffn a multiple of 256, within 1% of 70e9
what="--params 70B"
run report --params 70B --format json
ok
json 'j["model"]["hidden"] == 8192 and j["model"]["layers"] == 80 and j["model"]["ffn"] % 256 == 0'
json 'abs(j["model"]["params_total"] / 70e9 - 1) < 0.01'

# ---- 5. techniques: rows on more GPUs say so; LoRA in a pretraining compares another job
# (wide, so that each row is one line: tests/cli/width.sh checks the narrow layout)
export COLUMNS=200
what="techniques (default: pretraining on 8 GPUs)"
run report
ok
grep -E '^ +TP on more GPUs +tp 1 -> 8, with 8× the GPUs \(8 -> 64\) ' "$tmp/out" >/dev/null ||
	fail "$what: TP row '$(grep -F 'tp 1 ->' "$tmp/out")'"
grep -E '^ +PP on more GPUs +pp 1 -> 4, with 4× the GPUs \(8 -> 32\) ' "$tmp/out" >/dev/null ||
	fail "$what: PP row '$(grep -F 'pp 1 ->' "$tmp/out")'"
for row in 'LoRA  ' 'QLoRA (NF4 base)'; do
	grep -F -- "$row" "$tmp/out" | grep -E 'fine-tuning only \(this is a pretraining\) +n/a$' >/dev/null ||
		fail "$what: '$row' row '$(grep -F -- "$row" "$tmp/out")'"
done
grep -E 'LoRA.*days' "$tmp/out" >/dev/null && fail "$what: a LoRA row has a time: $(grep -E 'LoRA.*days' "$tmp/out")"
run report --format json
json '[t["applies"] for t in j["techniques"] if t["name"] in ("lora", "qlora")] == [False, False]'
what="techniques (a full fine-tuning: LoRA is the same job, cheaper)"
run report --finetune full --format json
ok
json 'all(t["applies"] and t["delta_seconds"] < 0 and t["compare"].startswith("full -> ") for t in j["techniques"] if t["name"] in ("lora", "qlora"))'

# ---- 6. bad input is status 2, the same mistake the same status
mkdir "$tmp/dir"
printf 'model: /\n' >"$tmp/model-dir.yaml"
printf 'gpu: /\n' >"$tmp/gpu-dir.yaml"
for args in "--scenario $tmp/dir" "--scenario $tmp/model-dir.yaml" "--scenario $tmp/gpu-dir.yaml" "--model /" \
	"--gpu /" "--scenario $tmp/nothing.yaml"; do
	what="report $args"
	# shellcheck disable=SC2086
	run report $args
	[ "$rc" -eq 2 ] || fail "$what: status $rc, not 2 (bad input): $(head -c 200 "$tmp/err")"
	err_has 'napkin report: '
done

[ "$fails" -eq 0 ] || {
	echo "$fails check(s) failed"
	exit 1
}
echo "ok: scenarios are named, defaulted and written back"
