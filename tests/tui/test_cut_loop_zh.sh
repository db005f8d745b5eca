#!/bin/sh
# At 120×40, a projector's size, the compute pane shows the training loop of the chapter's
# section 3.5 (load → forward → backward → update) in Chinese as in English: the pane leaves
# out notes that e explains (the step's "= batch × accum × DP", FlashAttention's "HFU only")
# before the loop scrolls out of sight; the MFU still says it is predicted. The MFU row keeps
# the GPU's peak, H100 SXM's dense BF16 989.5 TFLOP/s (NVIDIA's datasheet: 1,979 with sparsity).
. "$(dirname "$0")/lib.sh"
for lang in zh en; do
	stop
	start 120 40 --lang "$lang"
	if [ "$lang" = zh ]; then
		wait_for '计算量与时间' 'zh: no compute pane'
		loop='训练流程 +加载 → 前向 [0-9.]+ (s|ms) →' back='反向 [0-9.]+ (s|ms) → 更新' mfu='MFU / HFU +[0-9.]+% / [0-9.]+% 峰值 989\.5 TFLOP/s'
	else
		wait_for 'Compute and time' 'en: no compute pane'
		loop='loop +load → forward [0-9.]+ (s|ms) →' back='backward [0-9.]+ (s|ms) → update' mfu='MFU / HFU +[0-9.]+% / [0-9.]+% of 989\.5 TFLOP/s'
	fi
	screen | grep -Eq -- "$loop" || fail "$lang 120x40: the training loop's first line is not on screen"
	screen | grep -Eq -- "$back" || fail "$lang 120x40: the training loop's second line is not on screen"
	screen | grep -Eq -- "$mfu" || fail "$lang 120x40: the MFU row lost the GPU's peak"
	screen | grep -Eq -- '(（步时模型）|\(predicted by the step model\))' || fail "$lang 120x40: the MFU does not say it is predicted"
done
# where there is room (160×60) the notes stay
stop
start 160 60 --lang zh
wait_for '计算量与时间' 'zh 160x60: no compute pane'
screen | grep -q '（只计入 HFU）' || fail 'zh 160x60: the (HFU only) note is gone where there is room'
screen | grep -q '数据加载' || fail 'zh 160x60: no data loading row'
exit 0
