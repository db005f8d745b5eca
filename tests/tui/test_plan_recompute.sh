#!/bin/sh
# The plan view tells every recompute flavour it ranks apart, as napkin plan prints them:
# full recompute over a part of each stage's layers is "full/8" (recompute_layers 8), not
# "full", which would read as every layer; in the 80-column form "f/8". Llama-3-8B at
# 8,192 tokens on 8 H100 with torchtitan: the search ranks full recompute every 4th block
# (32 layers ÷ 4 = 8 of them) among its first rows (torchtitan's flavours: docs/step-time.md).
. "$(dirname "$0")/lib.sh"
for size in "120 40" "80 24"; do
	start ${size% *} ${size#* } --model llama-3-8b --gpus 8 --stack torchtitan --seq 8192
	wait_for 'Memory per GPU' "$size: never drew"
	keys P
	wait_for 'Plan: ranked by' "$size: no plan view"
	if [ "${size% *}" = 120 ]; then
		wait_for ' full/[0-9]+ ' '120: a row of full recompute over some layers does not say how many'
	else
		wait_for ' f/[0-9]+ ' '80: a row of full recompute over some layers does not say how many'
	fi
	stop
done
exit 0
