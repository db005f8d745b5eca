#!/bin/sh
# Every figure says whose it is. Decoding Llama-2-7B (bf16) over TP 2 reads each weight once a
# step: 2 B x (6.738 B params - the 32,000 x 4,096 embedding table, which a step reads one
# row of) = 13.21 GB, plus the KV cache at batch 1 (512 KiB/token x ~769 tokens = 0.40 GB):
# 13.62 GB for the replica, half of it on each of the 2 GPUs. On 8 GPUs without TP the
# tokens/s are the job's: 8 replicas, each at its own rate.
. "$(dirname "$0")/lib.sh"
start 120 40 --mode infer --gpus 2 --tp 2
wait_for 'reads 13\.6[0-9] GB/step, +[0-9.]+ GB/GPU' 'the decode reads do not say per step and per GPU'
tot=$(screen | sed -n 's/.*reads \([0-9.]*\) GB\/step.*/\1/p' | head -1)
per=$(screen | sed -n 's/.* \([0-9.]*\) GB\/GPU.*/\1/p' | head -1)
awk -v p="$per" -v t="$tot" 'BEGIN { exit !(p > 0 && (p * 2 - t) < 0.02 && (t - p * 2) < 0.02) }' ||
	fail "per GPU $per GB is not half of $tot GB"
wait_for 'tokens/s +[0-9,]+ for the job' 'tokens/s does not say whose it is'
keys q
wait_exit >/dev/null
stop
start 120 40 --mode infer --gpus 8
wait_for 'reads 13\.6[0-9] GB/step' 'one GPU per replica: the reads are not the whole step'
wait_for '\(one GPU\)' 'one GPU per replica: not said'
wait_for 'tokens/s +[0-9,]+ for the job' 'tokens/s on 8 replicas does not say it is the job'
wait_for 'per replica \(8\)' 'the replicas are not counted'
keys q
[ "$(wait_exit)" = 0 ] || fail 'exit status'
echo "ok: whose"
