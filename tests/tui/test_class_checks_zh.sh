#!/bin/sh
# The class trial's checks, in the explorer and in Chinese (teach_lessons holds the
# conditions; this holds what a student sees when typing the answers):
#   W2  lesson 3 step 2 takes amp-bf16 (PyTorch's autocast), a BF16 recipe that needs no loss
#       scaling, as answered;
#   W5  lesson 3 step 3 is answered by TF32 matmuls (matmul_dtype tf32), not by BF16;
#   W4  lesson 4 step 5 takes 1474 H100s, the exact minimum (99.988 days), and says it is
#       just below the bound (略低于);
#   M8  with an assumed MFU, the warning about exposed communication says the time leaves it
#       out (当前 MFU 为假定值，训练时间未计入).
. "$(dirname "$0")/lib.sh"

# type VALUE into the knob the step's question is about (the cursor is on it)
type_value() {
	keys Enter
	wait_for '^│ *> ' 'Enter did not open the input box'
	keys C-u
	tm send-keys -t app -l "$1"
	keys Enter
}

start_lesson 140 45 3 --step 2 --lang zh
wait_for '第 2 步（共 4 步）' 'lesson 3 did not open at step 2'
wait_for '还没有答出 · 目标：' 'step 2 does not start unanswered'
type_value amp-bf16
wait_for '✓ 已答出：精度为 amp-bf16、mixed-bf16、bf16 之一（现在 amp-bf16）' \
	"W2: amp-bf16 does not answer step 2: $(line_of '答出')"
stop

start_lesson 140 45 3 --step 3 --lang zh
wait_for '第 3 步（共 4 步）' 'lesson 3 did not open at step 3'
wait_for '还没有答出' 'step 3 does not start unanswered'
type_value tf32
wait_for '✓ 已答出：' "W5: TF32 matmuls do not answer step 3: $(line_of '答出')"
screen | grep -q '✓ 已答出：.*矩阵乘法为 tf32' || fail "W5: the answer is not the matmul dtype: $(line_of '答出')"
stop

start_lesson 140 45 4 --step 5 --lang zh
wait_for '第 5 步（共 5 步）' 'lesson 4 did not open at step 5'
type_value 1474
wait_for '✓ 已答出：训练天数低于 100.0 天（现在 100.0 天，略低于）' "W4: 1474 GPUs: $(line_of '答出')"
stop

start_lesson 140 45 4 --step 3 --lang zh
wait_for '第 3 步（共 5 步）' 'lesson 4 did not open at step 3'
wait_for '⚠ 未被计算掩盖的数据并行通信.*（当前 MFU 为假定值，训练时间未计入）' \
	"M8: the warning does not say the assumed MFU leaves it out: $(line_of '⚠')"
echo "ok: the class trial's checks in the explorer, in Chinese (W2, W4, W5, M8)"
