#!/bin/sh
# napkin probe, the command, against the fake NVIDIA libraries: exit statuses (0 a GPU,
# 3 no GPU, 1 a probe that hangs, 2 bad usage), the messages, JSON, --save and loading the
# saved preset back; then all of it with --lang zh: the text, errors and help in Chinese, the
# table's columns by display width, JSON and the saved preset the same bytes in both languages.
# usage: check_cli.sh NAPKIN FAKE_LIBCUDA FAKE_LIBNVML FAKE_LIBCUBLASLT
set -u
napkin=$1 cuda=$2 nvml=$3 cublaslt=$4
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
fails=0

unset FAKE_CUDA_HANG FAKE_CUDA_CRASH FAKE_CUDA_INIT_ERROR FAKE_CUDA_DEVICES CUDA_VISIBLE_DEVICES NAPKIN_LIBCUBLAS
fakes() {
	export NAPKIN_LIBCUDA="$cuda" NAPKIN_LIBNVML="$nvml" NAPKIN_LIBCUBLASLT="$cublaslt"
	export NAPKIN_LIBCUBLAS=/nonexistent/libcublas.so.12
}

# run NAME WANT_STATUS ARGS...: runs napkin probe, keeps stdout and stderr
run() {
	name=$1 want=$2
	shift 2
	# its messages whole on one line each (they break at the width: tests/cli/width_more.sh)
	COLUMNS=1000 "$napkin" probe "$@" >"$tmp/out" 2>"$tmp/err"
	got=$?
	if [ "$got" -ne "$want" ]; then
		echo "FAIL $name: exit status $got, wanted $want"
		sed 's/^/  out: /' "$tmp/out"
		sed 's/^/  err: /' "$tmp/err"
		fails=$((fails + 1))
		return 1
	fi
	echo "ok   $name"
}

# has NAME FILE TEXT: FILE (out or err) contains TEXT
has() {
	if ! grep -qF -- "$3" "$tmp/$2"; then
		echo "FAIL $1: $2 lacks: $3"
		sed "s/^/  $2: /" "$tmp/$2"
		fails=$((fails + 1))
	fi
}

hasnt() {
	if grep -qF -- "$3" "$tmp/$2"; then
		echo "FAIL $1: $2 has: $3"
		fails=$((fails + 1))
	fi
}

# no driver at all: exit 3 and what is missing, in words
fakes
NAPKIN_LIBCUDA=/nonexistent/libcuda.so.1 NAPKIN_LIBNVML=/nonexistent/libnvidia-ml.so.1 \
	run no-driver 3 && {
	has no-driver err "napkin probe: no NVIDIA driver: /nonexistent/libcuda.so.1 cannot be loaded (/nonexistent/libcuda.so.1: cannot open shared object file"
	has no-driver err "note: NVML missing"
	hasnt no-driver out "matmul"
}
NAPKIN_LIBCUDA=/nonexistent/libcuda.so.1 run no-driver-json 3 --format json && {
	has no-driver-json out '"schema": 1'
	has no-driver-json out '"status": "no_driver"'
	has no-driver-json out '"profile": null'
}
NAPKIN_LIBCUDA=/nonexistent/libcuda.so.1 run no-driver-save 3 --save "$tmp/none.yaml" && {
	has no-driver-save err "--save: nothing written"
	[ ! -e "$tmp/none.yaml" ] || { echo "FAIL no-driver-save: the file was written"; fails=$((fails + 1)); }
}

# NVIDIA's stub (a CUDA toolkit without a driver), where installed
stub=/usr/local/cuda/lib64/stubs/libcuda.so
if [ -r "$stub" ]; then
	NAPKIN_LIBCUDA=$stub run stub 3 && has stub err "cuInit returned 34 (CUDA_ERROR_STUB_LIBRARY"
else
	echo "skip stub: no $stub here"
fi

# a driver but no device
FAKE_CUDA_DEVICES=0 run no-device 3 && has no-device err "sees no GPU: cuDeviceGetCount is 0"
FAKE_CUDA_INIT_ERROR=999 run init-error 3 && {
	has init-error err "cuInit returned 999 (CUDA_ERROR_UNKNOWN"
	has init-error out "seen by NVML: NVIDIA H100 80GB HBM3"
}

# the fake H100, measured
run text 0 && {
	has text out "NVIDIA H100 80GB HBM3 (device 0 of 1)"
	has text out "datasheet: h100-sxm (H100 SXM), matched by name"
	has text out "700 TFLOP/s"
	has text out "profile: h100-sxm-measured"
	has text out "matmul by size"   # the step model's GEMM curve
}
run json 0 --format json && {
	has json out '"schema": 1'
	has json out '"status": "ok"'
	has json out '"match": "name"'
	has json out '"id": "h100-sxm-measured"'
	has json out '"d2d_bandwidth": {'
	has json out '"matmul_curve": ['
}
run quick 0 --quick && {
	has quick out "compute capability 9.0, 132 SMs"
	hasnt quick out "matmul"
}
run given 0 --quick --datasheet h100-pcie && has given out "datasheet: h100-pcie (H100 PCIe), as given"
NAPKIN_LIBCUBLASLT=/nonexistent/libcublasLt.so.12 run no-cublas 0 && {
	has no-cublas out "note: cuBLAS missing (/nonexistent/libcublasLt.so.12"
	has no-cublas out "skipped: no cuBLASLt or cuBLAS library"
}
run save 0 --save "$tmp/gpu.yaml" && {
	cp "$tmp/gpu.yaml" "$tmp/out"
	has save out "name: H100 SXM"
	has save out "memory_bandwidth: 3.35 TB/s"
	has save out "measured:"
	has save out "  memory_bandwidth: 3 TB/s"
	has save out "    bf16: 700 TFLOP/s"
}
# the saved preset loads back, anywhere, as the GPU measured
if "$napkin" report --gpu "$tmp/gpu.yaml" --gpus 1 --zero 0 --format json >"$tmp/out" 2>"$tmp/err"; then
	echo "ok   load"
	has load out '"bandwidth_bytes_per_s": 3000000000000'
	has load out '"measured": true'
	has load out '"name": "H100 SXM (measured)"'
else
	echo "FAIL load: napkin report --gpu on the saved preset"
	sed 's/^/  err: /' "$tmp/err"
	fails=$((fails + 1))
fi

# a driver that hangs: the deadline, exit 1, what was running
FAKE_CUDA_HANG=cuEventSynchronize run hang 1 --timeout 1 && {
	has hang err "the probe did not finish within 1 s while device-to-device copies"
	has hang out "NVIDIA H100 80GB HBM3"
}
FAKE_CUDA_CRASH=cublasLtMatmul run crash 1 && has crash err "the probe process died of signal 11"

# bad usage
run bad-format 2 --format xml && has bad-format err "--format: 'xml' is not a format; allowed: text, json"
run bad-device 2 --device x && has bad-device err "--device: 'x' is not a number"
run bad-option 2 --fast && has bad-option err "unknown option --fast"
run bad-datasheet 2 --datasheet no-such-gpu
run quick-save 2 --quick --save "$tmp/x.yaml"
run help 0 --help && has help out "usage: napkin probe"

# ---------------------------------------------------------------- in Chinese (docs/i18n.md)
# The probe's words (message, notes, each measurement's note, the CUDA error's meaning, the
# progress step) come through the translator on the probe's options; dlerror's and
# strsignal's texts stay as the system gives them; JSON and the saved preset are English.

# same_json NAME ARGS...: --format json is the same bytes with --lang zh and --lang en, but
# for what differs between any two runs, in one language too: "elapsed" (the probe's run
# time) and how many batches a measurement timed before its share of the time budget ran out
# ("runs", and the "median of N batches" of its note; the fake driver's clock is fake, the
# budget's is the machine's)
same_json() {
	name=$1
	shift
	"$napkin" probe --format json --lang zh "$@" >"$tmp/zh.json" 2>"$tmp/zh.err"
	zs=$?
	"$napkin" probe --format json --lang en "$@" >"$tmp/en.json" 2>"$tmp/en.err"
	es=$?
	for l in zh en; do
		grep -v '^  "elapsed": ' "$tmp/$l.json" |
			sed -e 's/"runs": [0-9]*/"runs": N/' -e 's/median of [0-9]* batches/median of N batches/' >"$tmp/$l.cmp"
	done
	if [ "$zs" -ne "$es" ] || ! cmp -s "$tmp/zh.cmp" "$tmp/en.cmp" || [ "$(wc -l <"$tmp/zh.json")" -lt 10 ] ||
		[ "$(grep -c '"elapsed": ' "$tmp/zh.json")" -ne 1 ]; then
		echo "FAIL $name: --format json differs between --lang zh and --lang en (status $zs, $es)"
		diff "$tmp/en.cmp" "$tmp/zh.cmp" | head -20
		fails=$((fails + 1))
	elif LC_ALL=C grep -q "$(printf '[\344-\351]')" "$tmp/zh.json"; then
		echo "FAIL $name: Chinese in the JSON"
		fails=$((fails + 1))
	else
		echo "ok   $name"
	fi
}

fakes
NAPKIN_LIBCUDA=/nonexistent/libcuda.so.1 NAPKIN_LIBNVML=/nonexistent/libnvidia-ml.so.1 \
	run zh-no-driver 3 --lang zh && {
	has zh-no-driver err "napkin probe：没有 NVIDIA 驱动：无法加载 /nonexistent/libcuda.so.1（/nonexistent/libcuda.so.1: cannot open shared object file"
	has zh-no-driver err "napkin probe：说明：缺少 NVML（/nonexistent/libnvidia-ml.so.1："
	has zh-no-driver err "：已用显存、PCIe 链路、频率、功耗上限和 MIG 模式未知"
	hasnt zh-no-driver err "no NVIDIA driver"
}
NAPKIN_LIBCUDA=/nonexistent/libcuda.so.1 NAPKIN_LIBNVML=/nonexistent/libnvidia-ml.so.1 same_json zh-json-no-driver
# no override at all: whatever this machine has (no driver here; a real one on a GPU host)
(
	unset NAPKIN_LIBCUDA NAPKIN_LIBNVML NAPKIN_LIBCUBLASLT NAPKIN_LIBCUBLAS
	before=$fails
	same_json zh-json-this-machine --quick
	[ "$fails" -eq "$before" ]
) || fails=$((fails + 1))
same_json zh-json-fake
same_json zh-json-fake-quick --quick
FAKE_CUDA_INIT_ERROR=999 run zh-init-error 3 --lang zh && {
	has zh-init-error err "CUDA 驱动（$cuda）初始化失败：cuInit 返回 999 (CUDA_ERROR_UNKNOWN: 未知错误（nvidia 内核模块加载了吗？"
	has zh-init-error out "NVML 看到：NVIDIA H100 80GB HBM3"
}
FAKE_CUDA_DEVICES=0 run zh-no-device 3 --lang zh && has zh-no-device err "看不到 GPU：cuDeviceGetCount 为 0"
run zh-text 0 --lang zh && {
	has zh-text out "NVIDIA H100 80GB HBM3（设备 0，共 1 个）"
	has zh-text out "  计算能力 9.0，132 个 SM，MIG 关"
	has zh-text out "  显存 79.65 GiB：已用 1.00 GiB，驱动保留 512.0 MiB"
	has zh-text out "  显存总线 5120 位，2619 MHz（理论带宽 3.352 TB/s）"
	has zh-text out "  PCIe 当前 gen 4 x16，最高 gen 5 x16（每个方向 63.01 GB/s），功耗上限 700 W"
	has zh-text out "  驱动 550.54.15，CUDA 12.4，cuBLASLt 12.4.5"
	has zh-text out "数据手册：h100-sxm（H100 SXM），按名称匹配；"
	has zh-text out "配置：h100-sxm-measured，用时 "
	has zh-text out "  矩阵乘法按尺寸           512³ 700 TFLOP/s、1024³ 700 TFLOP/s、"
	has zh-text out "  矩阵乘法 bf16            989.5 TFLOP/s      700 TFLOP/s         71%   8192x8192x8192"
	for w in "measured in" "datasheet:" "compute capability" "not measured" "memory bandwidth" "host to device" \
		"context overhead" "reserved by the driver"; do
		hasnt zh-text out "$w"
	done
	# the table's columns line up by display width (a CJK character takes two columns):
	# every row's figures start at the header's columns
	if command -v python3 >/dev/null 2>&1; then
		python3 - "$tmp/out" <<'PY' || { echo "FAIL zh-text: the table's columns do not line up"; fails=$((fails + 1)); }
import sys, unicodedata
w = lambda c: 2 if unicodedata.east_asian_width(c) in "WF" else 1
rows = [l.rstrip("\n") for l in open(sys.argv[1], encoding="utf-8")]
head = next(i for i, l in enumerate(rows) if "数据手册" in l and "实测" in l)

def at(l):
    """each display column of l: the character that starts there"""
    out, x = {}, 0
    for c in l:
        out[x] = c
        x += w(c)
    return out

h = at(rows[head])
cols = [x for x, c in h.items() if c != " " and h.get(x - 1) == " " and x > 4]
bad = 0
for l in rows[head + 1:head + 12]:
    if not l.strip() or "矩阵乘法按尺寸" in l:
        continue
    r = at(l)
    # a figure in each of the datasheet and measured columns, starting where its header does
    for x in cols[:2]:
        if r.get(x, " ") == " " or r.get(x - 1) != " ":
            print("misaligned at column %d: %s" % (x, l))
            bad += 1
sys.exit(1 if bad else 0 if len(cols) >= 4 else 1)
PY
	fi
}
run zh-quick 0 --quick --lang zh && hasnt zh-quick out "矩阵乘法"
NAPKIN_LIBCUBLASLT=/nonexistent/libcublasLt.so.12 run zh-no-cublas 0 --lang zh && {
	has zh-no-cublas out "说明：缺少 cuBLAS（/nonexistent/libcublasLt.so.12："
	has zh-no-cublas out "：未测量矩阵乘法吞吐量"
	has zh-no-cublas out "跳过：没有 cuBLASLt 或 cuBLAS 库"
}
FAKE_CUDA_HANG=cuEventSynchronize run zh-hang 1 --timeout 1 --lang zh &&
	has zh-hang err "napkin probe：探测没有在 1 s 内完成，当时正在设备到设备拷贝 "
FAKE_CUDA_CRASH=cublasLtMatmul run zh-crash 1 --lang zh && has zh-crash err "napkin probe：探测进程因信号 11（"
run zh-bad-format 2 --format xml --lang zh && has zh-bad-format err "napkin probe：--format：'xml' 不是一种格式；可用：text、json"
run zh-bad-device 2 --device x --lang zh && has zh-bad-device err "napkin probe：--device：'x' 不是 0 到 15 之间的数"
run zh-quick-save 2 --quick --save "$tmp/x.yaml" --lang zh && has zh-quick-save err "--save 需要测量结果：去掉 --quick"
run zh-help 0 --help --lang zh && {
	has zh-help out "用法：napkin probe [--format text|json]"
	has zh-help out "退出状态：0 读到了 GPU，3 没有 GPU，1 探测失败。"
}
# the saved preset is a file a program reads: the same in both languages (but its date)
run zh-save 0 --save "$tmp/zh.yaml" --lang zh && has zh-save out "已保存：$tmp/zh.yaml"
run en-save 0 --save "$tmp/en.yaml" --lang en && {
	grep -v '^  date: ' "$tmp/zh.yaml" >"$tmp/zh.cmp"
	grep -v '^  date: ' "$tmp/en.yaml" >"$tmp/en.cmp"
	if ! cmp -s "$tmp/zh.cmp" "$tmp/en.cmp" || ! grep -q '# device-to-device copy, read + write' "$tmp/zh.yaml"; then
		echo "FAIL zh-save: the saved preset differs between --lang zh and --lang en"
		diff "$tmp/en.cmp" "$tmp/zh.cmp" | head
		fails=$((fails + 1))
	fi
}

[ "$fails" -eq 0 ] || { echo "$fails check(s) failed"; exit 1; }
echo "all checks passed"
