#!/bin/sh
# The recompute flavours the frameworks offer (issue 22, item 9), as a person types them:
#  - recompute selective under FlashAttention says that it saves next to nothing (Megatron's
#    selective recomputation drops the s x s scores, which FlashAttention never keeps), and
#    says nothing without FlashAttention, where it does drop them;
#  - selective-op (torchtitan's per-op policy) and recompute_layers (Megatron's
#    --recompute-method block --recompute-num-layers N; torchtitan's every k-th block) are
#    accepted; recompute_layers above the model's layers, or below 0, is refused naming the
#    knob; recompute_layers without recompute full says that it counts nothing; a flavour
#    the chosen stack does not have says so (Megatron has no per-op policy, Hugging Face's
#    checkpointing covers every layer);
#  - what each keeps lies where the frameworks put it: full < full over half the layers
#    < none, and full < selective-op < none (activations per GPU), and the extra forward
#    work follows the other way: none < selective-op < full (the recompute part of the step);
#  - recompute_method (block: the first N, Megatron; every: every k-th, torchtitan's default;
#    uniform: chunks of N, Megatron) set by the stack, said in its note, its choices checked;
#  - the planner offers each stack its own flavours: torchtitan selective-op and every
#    k-th block, Megatron selective and block, Hugging Face full only (it has no selective
#    recomputation).
#   sh tests/cli/recompute_flavours.sh PATH/TO/napkin
. "$(dirname "$0")/../scripts/cli_lib.sh"
export COLUMNS=200
M="--model llama-3-8b --gpus 8"

what="recompute selective under FlashAttention: a note"
run report $M --recompute selective
ok
err_has "recompute selective: FlashAttention keeps no s×s scores"

what="recompute selective without FlashAttention: no note"
run report $M --recompute selective --flash_attention off
ok
err_lacks "recompute selective: FlashAttention"

what="recompute selective-op accepted"
run report $M --recompute selective-op --stack torchtitan
ok
err_lacks "recompute selective: FlashAttention"

what="recompute_layers above the layers: refused"
run report $M --recompute full --recompute_layers 33
refused
err_has "recompute_layers (33) cannot exceed layers (32)"

what="recompute_layers below 0: refused"
run report $M --recompute full --recompute_layers -1
refused
err_has "recompute_layers"

what="recompute_layers without recompute full: a note"
run report $M --recompute_layers 8
ok
err_has "recompute_layers 8: counts the layers of recompute full only"

what="recompute_layers counts a stage's layers: a note when it covers them all"
run report $M --recompute full --recompute_layers 16 --pp 4
ok
err_has "recompute_layers 16 counts the layers of each pipeline stage, which has 8"

what="recompute_method: torchtitan's every k-th block said as the stack's default"
run report $M --stack torchtitan --recompute full --recompute_layers 16
ok
err_has "stack torchtitan: recompute_method every"

what="recompute_method: a choice that is none refused, naming the three"
run report $M --recompute_method sideways
refused
err_has "block, every, uniform"

what="a flavour the chosen stack does not have: a note"
run report $M --recompute selective-op --stack megatron
ok
err_has "stack megatron: it has no recompute selective-op"
run report $M --recompute full --recompute_layers 4 --stack hf
ok
err_has "stack hf: its checkpointing recomputes every layer, not recompute_layers 4"

run report $M --recompute selective --stack torchtitan
ok
err_has "stack torchtitan: its selective mode is selective-op"

what="a flavour of the default stack's choosing: no such note"
run report $M --recompute selective-op --stack torchtitan
ok
err_lacks "it has no recompute"

what="the explanation names torchtitan's policy"
run report $M --recompute selective-op --explain
ok
out_has "selective-op (torchtitan)"

if have_py; then
	for r in none full selective-op; do
		run report $M --stack torchtitan --recompute $r --format json
		cp "$tmp/out" "$tmp/$r.json"
	done
	run report $M --stack torchtitan --recompute full --recompute_layers 16 --format json
	cp "$tmp/out" "$tmp/half.json"
	run report $M --stack torchtitan --recompute full --recompute_layers 2 --recompute_method uniform --format json
	cp "$tmp/out" "$tmp/uniform.json"
	python3 - "$tmp" <<'PY' || fail "the flavours' order"
import json, sys
t = sys.argv[1]
a, rc, hw = {}, {}, {}
for k in ("none", "full", "selective-op", "half", "uniform"):
    d = json.load(open("%s/%s.json" % (t, k)))
    a[k] = d["memory"]["activations"]
    rc[k] = d["compute"]["step_breakdown"]["recompute"]
    hw[k] = d["compute"]["flops_per_token_hw"]
bad = []
# selective-op runs wk, wo and w3 again (every second mm of wq, wk, wv, wo, w1, w3, w2):
# 2 FLOPs per weight per token, Llama 3 8B's shapes (Meta's params.json: dim 4096, 32
# layers, 8 KV heads of 128, ffn 14336)
want = 2 * 32 * 4096 * (8 * 128 + 4096 + 14336)
if abs(hw["selective-op"] - hw["none"] - want) > 1e-6 * want:
    bad.append("selective-op adds %g FLOPs a token, wk + wo + w3 are %g" % (hw["selective-op"] - hw["none"], want))
if not a["full"] < a["half"] < a["none"]:
    bad.append("activations full %g < half %g < none %g" % (a["full"], a["half"], a["none"]))
if not a["full"] < a["selective-op"] < a["none"]:
    bad.append("activations full %g < selective-op %g < none %g" % (a["full"], a["selective-op"], a["none"]))
if not rc["none"] < rc["selective-op"] < rc["full"]:
    bad.append("recompute none %g < selective-op %g < full %g" % (rc["none"], rc["selective-op"], rc["full"]))
# Megatron's uniform method (chunks of 2) re-runs every layer, as full does
if not (a["uniform"] < a["none"] and abs(rc["uniform"] - rc["full"]) <= 1e-9 * rc["full"]):
    bad.append("uniform 2: activations %g (full %g), recompute %g (full %g)" % (a["uniform"], a["full"],
               rc["uniform"], rc["full"]))
if not 0.4 * rc["full"] < rc["half"] < 0.6 * rc["full"]:
    bad.append("recompute of half the layers %g, full %g" % (rc["half"], rc["full"]))
if bad:
    print("\n".join(bad))
    sys.exit(1)
PY

	for stack in torchtitan megatron hf; do
		what="plan's recompute flavours, stack $stack"
		run plan $M --seq 16384 --stack $stack --top 60 --format json
		ok
		python3 - "$tmp/out" "$stack" <<'PY' || fail "$what"
import json, sys
d = json.load(open(sys.argv[1]))
stack = sys.argv[2]
seen = {(c["scenario"]["recompute"], c["scenario"].get("recompute_layers", 0) > 0) for c in d["candidates"]}
offered = {"torchtitan": {"none", "selective-op", "full"}, "megatron": {"none", "selective", "full"},
           "hf": {"none", "full"}}[stack]
bad = sorted(r for r, _ in seen if r not in offered)
if bad:
    print("stack %s ranks %s" % (stack, ", ".join(bad)))
    sys.exit(1)
if stack == "torchtitan" and not {("selective-op", False), ("full", True)} <= seen:
    print("stack torchtitan: no selective-op or every k-th block row among %s" % sorted(seen))
    sys.exit(1)
if stack == "hf" and any(part for _, part in seen):
    print("stack hf: a recompute_layers row")
    sys.exit(1)
PY
	done
fi

what="the planner's apply line types recompute_layers as the report takes it"
run report $M --recompute full --recompute-layers 16
ok

finish "recompute flavours: the notes, the knobs, the order of what each keeps and re-runs, the planner's flavours per stack"
