#!/bin/sh
# The compute pane shows the predicted step as a bar of its parts (issue 11), and `e` on it
# explains each part with its time, share and formula.
. "$(dirname "$0")/lib.sh"
start 120 40 --model llama-2-70b --gpus 64 --tp 8 --pp 2
wait_for 'step model +\[M+' 'no step bar in the compute pane'
screen | grep -Eq 'predicted by the step model' || fail "the MFU does not say it is predicted"
screen | grep -Eq 'M [0-9]+% .*T [0-9]+%' || fail "the bar's legend lacks matmul and TP comm"
# move into the results (l), then down the compute pane until e explains the step
keys l
found=0
i=0
while [ $i -lt 30 ]; do
	keys e
	# wait for the explanation to open (slow under valgrind), then read whose it is
	j=0
	until screen | grep -q 'Explain: ' || [ $j -gt $((DEADLINE * 20)) ]; do
		sleep 0.05
		j=$((j + 1))
	done
	if screen | grep -q 'compute.step_breakdown'; then
		found=1
		break
	fi
	keys Escape Down
	j=0
	while screen | grep -q 'Explain: ' && [ $j -le $((DEADLINE * 20)) ]; do
		sleep 0.05
		j=$((j + 1))
	done
	i=$((i + 1))
done
[ $found = 1 ] || fail "e never explained the step bar"
wait_for 'TP comm .*all-reduces' 'the explanation lacks the TP part'
screen | grep -Eq 'bubble .*\(pp − 1\)' || fail "the explanation lacks the bubble"
keys Escape q
st=$(wait_exit)
[ "$st" = 0 ] || fail "exit status $st"
echo "ok: step bar"
