#!/bin/sh
# Fine-tuning and offload in the explorer (issue 14): QLoRA Llama-3-8B on one RTX 4090 fits
# and the memory pane says what is trained; the knobs are in the Training group; offload
# shows the host memory (and NVMe with offload nvme); the techniques table has the LoRA, QLoRA and offload rows.
. "$(dirname "$0")/lib.sh"
start 170 120 --model llama-3-8b --gpu rtx-4090 --gpus 1 --finetune qlora --seq 1024 --tokens 10M
wait_for 'fits' 'QLoRA Llama-3-8B does not fit one RTX 4090'
wait_for 'fine-tune +QLoRA r 8' 'the memory pane does not say what is trained'
screen | grep -Eq 'fine-tuning +qlora' || fail "the finetune knob is not in the knob panes"
screen | grep -Eq 'LoRA targets +q,v' || fail "lora_targets is not shown as q,v"
screen | grep -Eq 'QLoRA \(NF4 base\)' || fail "the techniques table lacks QLoRA"
screen | grep -Eq 'offload \(ZeRO-Offload\)' || fail "the techniques table lacks offload"
keys q
st=$(wait_exit)
[ "$st" = 0 ] || fail "exit status $st"
stop
start 170 60 --model llama-2-13b --gpu v100-sxm2-32gb --gpus 1 --offload optimizer --recompute full --seq 1024
wait_for 'host mem +[0-9.]+ GiB on the host' 'the memory pane lacks the host memory'
keys q
st=$(wait_exit)
[ "$st" = 0 ] || fail "exit status $st"
stop
# ZeRO-Infinity's NVMe tier: the host keeps the gradients and staging, NVMe the states
start 170 60 --model llama-2-13b --gpu v100-sxm2-32gb --gpus 1 --offload nvme --recompute full --seq 1024
wait_for 'host mem +[0-9.]+ GiB on the host, [0-9.]+ GiB on NVMe' 'the memory pane lacks the NVMe bytes'
keys q
st=$(wait_exit)
[ "$st" = 0 ] || fail "exit status $st"
echo "ok: fine-tuning and offload in the explorer"
