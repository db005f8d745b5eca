#!/bin/sh
# The GPU probe and the live panel in Chinese (docs/i18n.md), against the fake NVIDIA
# libraries at 80×24: the footer note of a good probe, the live panel's title, rows and
# figures, its footer's words measured against the screen; a probe with no driver explains
# itself in Chinese, and so do the probe's own words (src/probe, through the translator on
# its options): the step while it runs, a timeout, a CUDA error's meaning, a note about a
# missing library, the live panel's NVML error. dlerror's text stays the system's. Not
# named test_*.sh: it takes the fakes' paths after the binary.
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

# joined TITLE: the text of the overlay whose frame begins "┌ TITLE", its lines joined and
# its spaces dropped (a message wraps where a long path or a CJK character makes it)
joined() {
	screen | python3 -c '
import sys, unicodedata
w = lambda c: 2 if unicodedata.east_asian_width(c) in "WF" else 1
lines, box, out = sys.stdin.read().split("\n"), None, []
for l in lines:
    cols, x = [], 0
    for c in l:
        cols.append((x, c))
        x += w(c)
    if box is None and "┌ " + sys.argv[1] in l:
        a = sum(w(c) for c in l[:l.index("┌ " + sys.argv[1])])
        box = (a, next(x for x, c in cols if c == "┐" and x > a))
        continue
    if box:
        if any(c == "└" and x == box[0] for x, c in cols):
            break
        out.append("".join(c for x, c in cols if box[0] < x < box[1]).strip())
print("".join(out).replace(" ", ""))' "$1"
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
keys Escape Q
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
# the overlay is as tall as the text wrapped at its own width: the last line is there
wait_for 'NAPKIN_LIBCUDA 指定库的完整路径。' 'the explanation is cut: the overlay is shorter than its text'
# the probe's own words: its message and its note, with the loader's (English) text inside
wait_for '│ 没有 NVIDIA 驱动：无法加载 /nonexistent/libcuda.so.1 ' "the probe's message is not Chinese"
wait_for '^ 没有 NVIDIA 驱动：无法加载 /nonexistent/libcuda.so.1（/nonexistent/libcuda' \
	"the probe's message is not Chinese in the footer"
wait_for '说明：缺少 NVML（/nonexistent/libnvidia-ml.so.1：' "the probe's note is not Chinese"
screen | grep -Eq 'no NVIDIA driver|cannot be loaded|NVML missing|are not known' && fail "the probe's words are English"
whole_lines 80
# the live panel without NVML says why in Chinese
keys Escape M
wait_for '没有实时数据：缺少 NVML（/nonexistent/libnvidia-ml.so.1：' "the live panel's NVML error is not Chinese"
screen | grep -q 'NVML missing' && fail "the live panel's NVML error is English"
whole_lines 80
keys Escape Q
[ "$(wait_exit)" = 0 ] || fail 'exit status'
stop

# a driver that hangs: the step in the overlay, then the timeout, in Chinese
tm set-option -g remain-on-exit on \; new-session -d -s app -x 80 -y 24 \
	"env NAPKIN_LIBCUDA=$CUDA NAPKIN_LIBNVML=$NVML NAPKIN_LIBCUBLASLT=$CUBLASLT \
	 NAPKIN_LIBCUBLAS=/nonexistent/libcublas.so.12 FAKE_CUDA_HANG=cuEventSynchronize \
	 $NAPKIN explore --lang zh --probe-timeout 3" || fail "tmux did not start"
wait_for 'napkin' 'the explorer never drew'
keys G
wait_for '正在探测本机的 GPU' 'the probe overlay did not open'
wait_for '│ 设备到设备拷贝 1\.00 GiB ' "the probe's step is not Chinese"
screen | grep -q 'device-to-device' && fail "the probe's step is English"
whole_lines 80
wait_for 'GPU 探测：超时' 'no timeout overlay'
wait_for '探测没有在 3 s 内完成，当时正在设备到设备拷贝 1\.00 GiB，已被停止' "the timeout is not Chinese"
screen | grep -Eq 'did not finish|was stopped' && fail 'the timeout is English'
whole_lines 80
keys Escape Q
[ "$(wait_exit)" = 0 ] || fail 'exit status'
stop

# a driver that fails to start: the CUDA error's meaning in Chinese, its name as cuda.h's
tm set-option -g remain-on-exit on \; new-session -d -s app -x 120 -y 40 \
	"env NAPKIN_LIBCUDA=$CUDA NAPKIN_LIBNVML=$NVML FAKE_CUDA_INIT_ERROR=999 $NAPKIN explore --lang zh" ||
	fail "tmux did not start"
wait_for 'napkin' 'the explorer never drew'
keys G
wait_for 'GPU 探测：驱动无法运行' "the failure overlay's title is not Chinese"
wait_for 'cuInit 返回 999' "the probe's message is not Chinese"
command -v python3 >/dev/null 2>&1 && { joined 'GPU 探测' | grep -q '初始化失败：cuInit返回999(CUDA_ERROR_UNKNOWN:未知错误（nvidia内核模块加载了吗？/dev/nvidia\*可以访问吗？）)' ||
	fail "the CUDA error's meaning is not Chinese"; }
screen | grep -q 'an unknown error' && fail "the CUDA error's meaning is English"
whole_lines 120
keys Escape Q
[ "$(wait_exit)" = 0 ] || fail 'exit status'
stop

# cuBLAS missing: the probe's note in the live panel, in Chinese
tm set-option -g remain-on-exit on \; new-session -d -s app -x 120 -y 40 \
	"env NAPKIN_LIBCUDA=$CUDA NAPKIN_LIBNVML=$NVML NAPKIN_LIBCUBLASLT=/nonexistent/libcublasLt.so.12 \
	 NAPKIN_LIBCUBLAS=/nonexistent/libcublas.so.12 $NAPKIN explore --lang zh" || fail "tmux did not start"
wait_for 'napkin' 'the explorer never drew'
keys G
wait_for '测量完成：已选 h100-sxm-measured' 'the probe without cuBLAS did not finish'
keys M
wait_for '上一次探测：' "the live panel does not show the probe's notes"
wait_for '说明：缺少 cuBLAS（/nonexistent/libcublasLt.so.12：' "the probe's note is not Chinese"
command -v python3 >/dev/null 2>&1 && { joined 'GPU 实时' | grep -q '）：未测量矩阵乘法吞吐量' ||
	fail "the probe's note is not Chinese to its end"; }
screen | grep -q 'cuBLAS missing' && fail "the probe's note is English"
whole_lines 120
keys Escape Q
[ "$(wait_exit)" = 0 ] || fail 'exit status'
stop
echo "ok: the GPU probe and the live panel in Chinese"
