#!/bin/sh
# The plan view's legend names the marks that are on screen: "you✗ … does not fit" only
# while the user's layout does not fit, "N= your layout, ranked N" with the N of the row so
# marked; and a short job's training time is in minutes, not "0.0" days: GPT-2 on 1B
# tokens with no global batch given keeps GPT-3's 0.5M tokens for a model of its size (Brown
# et al. 2020, table 2.1: 125M parameters), 512 sequences of 1,024 a step: 1e9 / 524,288 =
# 1,907 steps of the step time.
. "$(dirname "$0")/lib.sh"
start 120 40 --model gpt2 --gpu h100-sxm --gpus 8 --tokens 1B
wait_for 'Memory per GPU' 'never drew'
keys P
wait_for 'Plan: ranked by' 'no plan view'
wait_for '^ you +8 ' 'the own layout is not shown as fitting'
legend=$(line_of 'rcmp recompute')
case $legend in *'✗'*) fail "the legend says the fitting layout does not fit: $legend" ;; esac
# apply row 2 (the own layout is ranked where the search puts it): it is marked 2=
keys Down Enter
wait_for 'applied plan row 2'
wait_for '^ +2= ' 'row 2 is not marked as the own layout'
legend=$(line_of 'rcmp recompute')
echo "$legend" | grep -q ' you your layout · 2= your layout, ranked 2 · rcmp recompute' ||
	fail "the legend does not name the marks on screen: $legend"
echo "$legend" | grep -q '3=' && fail "the legend names a row 3 that is not marked: $legend"
# the training time in minutes, = steps × the step time
row=$(line_of '^ +2= ')
echo "$row" | grep -Eq ' [0-9.]+ min$' || fail "a 5-minute job is not in minutes: $row"
echo "$row" | awk '{ step = $(NF - 3); min = $(NF - 1); want = 1e9 / (512 * 1024) * step / 1000 / 60;
	if ($(NF - 2) != "ms" || min < want * 0.98 || min > want * 1.02) exit 1 }' ||
	fail "the training time is not 1,907 steps of the step time: $row"
grep -q 'global batch 512 sequences' <<EOT || fail 'the global batch is not 512 sequences'
$(screen)
EOT
stop
# a layout that does not fit: you✗, and no row marked
start 120 40 --model llama-2-70b --gpu h100-sxm --gpus 64
wait_for 'Memory per GPU' 'never drew'
keys P
wait_for '^you✗ ' 'the own layout is not marked as not fitting'
legend=$(line_of 'rcmp recompute')
echo "$legend" | grep -q 'you✗ your layout, does not fit · rcmp recompute' ||
	fail "the legend of a layout that does not fit: $legend"
screen | grep -Eq '^ +[0-9]+= ' && fail 'a row is marked as the own layout'
echo "ok: plan legend"
