#!/bin/sh
# The chapter's missing ideas as lessons: lesson 11 (one matmul's 2·M·K·N and intensity,
# autograd's computation graph and loss.backward(), initialisation) and lesson 12 (the
# chapter's closing summary chain), listed, replayed against the engine by --check, and
# printed with their numbers in English and Chinese. Figures by hand: the backward of a
# token is twice its forward, 2 × 1.536e10 = 3.072e10 FLOPs (dX and dW per forward matmul);
# at the chapter's MFU of 50% the run takes 9.217e22 ÷ (8 × 989.5e12 × 0.5) s = 269.5 days.
NAPKIN=${1:?usage: $0 PATH/TO/napkin}
fail() {
	echo "FAIL: $*"
	exit 1
}
out=$("$NAPKIN" lesson </dev/null) || fail "napkin lesson: status $?"
echo "$out" | grep -q '^ 11  Matmul, autograd and initialisation' || fail "the list lacks lesson 11: $out"
echo "$out" | grep -q '^ 12  The chapter in one chain' || fail "the list lacks lesson 12: $out"
"$NAPKIN" lesson --check 11 12 >/dev/null || fail "--check of lessons 11 and 12"
out=$("$NAPKIN" lesson matmul-autograd --text) || fail "lesson 11 --text: status $?"
echo "$out" | grep -q 'Chapter 3.4, 3.5' || fail "lesson 11 does not cite its sections"
echo "$out" | grep -Eq '\(compute.flops_per_token_backward\) +30.72 GFLOP' || fail "lesson 11 lacks the backward's FLOPs: $out"
echo "$out" | grep -q 'dX = dY·Wᵀ' || fail "lesson 11 does not show the backward's two matmuls"
echo "$out" | grep -q ':init(xavier)' || fail "lesson 11 does not show the initialisation step"
"$NAPKIN" lesson 11 --text --lang zh | grep -q '计算图保存激活值' || fail "lesson 11 in Chinese"
out=$("$NAPKIN" lesson summary-chain --text) || fail "lesson 12 --text: status $?"
echo "$out" | grep -q "The chapter's summary" || fail "lesson 12 does not cite the summary"
echo "$out" | grep -Eq '\(compute.train_days\) +269.5 days' || fail "lesson 12 lacks 269.5 days"
for pane in compute tensors memory data roofline techniques; do
	echo "$out" | grep -q "\[$pane\]" || fail "lesson 12 never points at the $pane pane"
done
"$NAPKIN" lesson 12 --text --lang zh | grep -q '本章总结' || fail "lesson 12 in Chinese"
exit 0
