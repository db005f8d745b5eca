#!/bin/sh
# napkin plan ranks only what the stack runs and keeps one global batch (issue 22's
# Done-when: `napkin plan --model llama-2-70b --goal gpus --deadline 90` ranks no layout
# Megatron would refuse and keeps the global batch it states):
#  - every candidate's scenario loads back into `napkin report` (the same validation), under
#    the default stack and under --stack megatron, where none is ZeRO-2 (Megatron-Core has
#    none: its distributed optimizer is ZeRO-1, Megatron FSDP ZeRO-3);
#  - interleaving only with a multiple of pp micro-batches and 80 layers in pp x vpp equal
#    chunks (Megatron-LM's schedules.py and arguments.py);
#  - TP within a node of 8 unless --allow-tp-across-nodes;
#  - the global batch Llama 2 trained at, 4M tokens (Touvron et al. 2023, §2.2): 1,024
#    sequences of 4,096, stated in the header and kept by every candidate, whatever its DP;
#  - rows that differ by one setting that changes nothing are one row ("same as vpp 16");
#  - the global_batch knob: sequences or tokens, a bare "4M" refused as ambiguous, a
#    grad_accum that contradicts it refused naming both.
#   sh tests/cli/plan_rules.sh PATH/TO/napkin
. "$(dirname "$0")/../scripts/cli_lib.sh"
export COLUMNS=200

for stack in hf megatron; do
	what="plan llama-2-70b, goal gpus, deadline 90, stack $stack"
	run plan --model llama-2-70b --goal gpus --deadline 90 --stack $stack --top 20 --format json
	ok
	cp "$tmp/out" "$tmp/plan-$stack.json"
	if have_py; then
		python3 - "$tmp/out" "$stack" "$NAPKIN" "$tmp" <<'PY' || fail "$what"
import json, subprocess, sys
d = json.load(open(sys.argv[1]))
stack, napkin, tmp = sys.argv[2], sys.argv[3], sys.argv[4]
bad = []
assert d["global_batch"] == 1024, d["global_batch"]
assert d["global_batch_tokens"] == 4194304, d["global_batch_tokens"]
assert d["global_batch_from"] == "default", d["global_batch_from"]
assert len(d["candidates"]) >= 3, len(d["candidates"])  # 256 H100 at their sustained GEMM rate, the slowest of 256 (the straggler factor, x1.058): 3 layouts within 90 days under hf (5 without it)
for c in d["candidates"]:
    s = c["scenario"]
    r = c["rank"]
    if s["stack"] != stack:
        bad.append("%d: stack %s" % (r, s["stack"]))
    if stack == "megatron" and s["zero"] == 2:
        bad.append("%d: zero 2 under megatron" % r)
    if s["vpp"] > 1 and (s["grad_accum"] % s["pp"] or 80 % (s["pp"] * s["vpp"])):
        bad.append("%d: vpp %d pp %d accum %d" % (r, s["vpp"], s["pp"], s["grad_accum"]))
    if s["tp"] > 8:
        bad.append("%d: tp %d across nodes" % (r, s["tp"]))
    if c["compute"]["global_batch"] != 1024:
        bad.append("%d: global batch %s" % (r, c["compute"]["global_batch"]))
    path = "%s/cand.json" % tmp
    json.dump(s, open(path, "w"))
    p = subprocess.run([napkin, "report", "--scenario", path, "--format", "json"], capture_output=True, text=True)
    if p.returncode != 0:
        bad.append("%d: refused by report: %s" % (r, p.stderr.strip()[:200]))
if bad:
    print("\n".join(bad[:10]))
    sys.exit(1)
PY
	fi
	what="plan header, stack $stack"
	run plan --model llama-2-70b --goal gpus --deadline 90 --stack $stack --top 3
	ok
	out_has "the global batch of 1,024 sequences (4M tokens: Llama 2's 4M tokens from 7B to 70B; --global-batch to change)"
done

what="a global batch given is kept, in tokens"
run plan --model llama-2-70b --goal gpus --deadline 90 --stack megatron --global-batch "8M tokens" --top 5 --format json
ok
if have_py; then
	python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["global_batch"] == 2048 and d["global_batch_from"] == "global_batch", (d["global_batch"], d["global_batch_from"])
for c in d["candidates"]:
    assert c["compute"]["global_batch"] == 2048, c["compute"]["global_batch"]
' "$tmp/out" || fail "$what"
fi

what="TP within the node unless asked"
# half the memory kept free: fewer than 1,000 layouts fit, every one a row
run plan --gpus 16 --global-batch 16 --top 1000 --memory-margin 50% --format json
ok
if have_py; then
	python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["fitting"] < 1000
assert max(c["scenario"]["tp"] for c in d["candidates"]) == 8
assert d["tp_across_nodes"] is False
' "$tmp/out" || fail "$what"
fi
run plan --gpus 16 --global-batch 16 --top 1000 --memory-margin 50% --allow-tp-across-nodes --format json
ok
if have_py; then
	python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert max(c["scenario"]["tp"] for c in d["candidates"]) == 16
' "$tmp/out" || fail "$what: no tp 16 with --allow-tp-across-nodes"
fi

what="twins merged"
run plan --gpus 8 --global-batch 64 --top 200
ok
out_has "same as vpp"
grep -Eq '^    \(#[0-9]+: same as vpp [0-9]+: the same memory and step within 0.1%; [0-9]+ such merged\)$' "$tmp/out" ||
	fail "$what: no line says which row stands for which: $(grep 'same as' "$tmp/out" | head -2)"

what="global_batch 4M is ambiguous"
run report --global-batch 4M
refused
err_has "is ambiguous: say sequences (1024, 1024 seq) or tokens (4M tokens)"
what="global_batch and grad_accum that disagree"
run report --global-batch 1024 --grad-accum 4
refused
err_has "grad_accum (4) contradicts global_batch (1,024 sequences)"
what="global_batch that batch x dp does not divide"
run report --global-batch 1001
refused
err_has "must be a multiple of batch × dp = 1 × 8 = 8"
what="global_batch in tokens"
run report --global-batch "4M tokens" --format json
ok
if have_py; then
	python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["compute"]["global_batch"] == 1024 and d["scenario"]["grad_accum"] == 128
assert d["scenario"]["global_batch"] == "4M tokens", d["scenario"]["global_batch"]
' "$tmp/out" || fail "$what"
fi
err_has "grad_accum 16 → 128: global_batch 1,024 sequences ÷ (batch 1 × dp 8)"

finish "ok: plan rules"
