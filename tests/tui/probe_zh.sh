#!/bin/sh
# The GPU probe and the live panel in Chinese (docs/i18n.md), against the fake NVIDIA
# libraries at 80×24: the footer note of a good probe, the live panel's title, rows and
# figures, its footer's words measured against the screen; a probe with no driver explains
# itself in Chinese. Not named test_*.sh: it takes the fakes' paths after the binary.
#   sh tests/tui/probe_zh.sh NAPKIN FAKE_LIBCUDA FAKE_LIBNVML FAKE_LIBCUBLASLT
. "$(dirname "$0")/lib.sh"
CUDA=${2:?usage: $0 NAPKIN FAKE_LIBCUDA FAKE_LIBNVML FAKE_LIBCUBLASLT} NVML=${3:?} CUBLASLT=${4:?}
unset FAKE_CUDA_HANG FAKE_CUDA_CRASH FAKE_CUDA_DEVICES FAKE_CUDA_INIT_ERROR CUDA_VISIBLE_DEVICES

# whole_lines W: no line of the screen is wider than W columns (wc -L counts display columns)
whole_lines() {
	screen >"$TUI_TMP/screen"
	while IFS= read -r l; do
		[ "$(printf '%s' "$l" | wc -L)" -le "$1" ] || fail "a line is wider than $1 columns: $l"
	done <"$TUI_TMP/screen"
}

tm set-option -g remain-on-exit on \; new-session -d -s app -x 80 -y 24 \
	"env NAPKIN_LIBCUDA=$CUDA NAPKIN_LIBNVML=$NVML NAPKIN_LIBCUBLASLT=$CUBLASLT \
	 NAPKIN_LIBCUBLAS=/nonexistent/libcublas.so.12 $NAPKIN explore --lang zh" || fail "tmux did not start"
wait_for 'napkin' 'the explorer never drew'
keys G
wait_for '测量完成：已选 h100-sxm-measured（数据手册 h100-sxm）；M：实时面板' 'the probe note is not Chinese'
screen | grep -q 'measured in' && fail 'the probe note is in English'
keys M
wait_for 'GPU 实时：NVIDIA H100 80GB HBM3' "the live panel's title is not Chinese"
wait_for '第 [2-9][0-9]* 次采样' 'the live panel never refreshed (or its sampling line is English)'
wait_for '已用 1\.00 GiB · 驱动保留 512\.0 MiB · 总计 79\.65 GiB' "the live panel's memory row is not Chinese"
wait_for '已用比预测少 ' "napkin's prediction beside it is not Chinese"
for row in 显存 利用率 频率 功耗 温度; do
	screen | grep -q "│ $row " || fail "the live panel has no row '$row'"
done
screen | grep -Eq 'reserved by the driver|utilisation|temperature' && fail 'English rows in the Chinese live panel'
whole_lines 80
keys Escape q
[ "$(wait_exit)" = 0 ] || fail 'exit status'
stop

# no driver: the failure overlay explains itself in Chinese
tm set-option -g remain-on-exit on \; new-session -d -s app -x 80 -y 24 \
	"env NAPKIN_LIBCUDA=/nonexistent/libcuda.so.1 NAPKIN_LIBNVML=/nonexistent/libnvidia-ml.so.1 \
	 $NAPKIN explore --lang zh" || fail "tmux did not start"
wait_for 'napkin' 'the explorer never drew'
keys G
wait_for 'GPU 探测：没有 NVIDIA 驱动' "the failure overlay's title is not Chinese"
wait_for 'Enter 或 Esc 关闭 · G 再探测一次' "the failure overlay's hint is not Chinese"
wait_for 'napkin 在运行时调用 NVIDIA 驱动' 'the explanation is not Chinese'
whole_lines 80
keys Escape q
[ "$(wait_exit)" = 0 ] || fail 'exit status'
stop
echo "ok: the GPU probe and the live panel in Chinese"
