#!/bin/sh
# napkin probe, the command, against the fake NVIDIA libraries: exit statuses (0 a GPU,
# 3 no GPU, 1 a probe that hangs, 2 bad usage), the messages, JSON, --save and loading the
# saved preset back.
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
	"$napkin" probe "$@" >"$tmp/out" 2>"$tmp/err"
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

[ "$fails" -eq 0 ] || { echo "$fails check(s) failed"; exit 1; }
echo "all checks passed"
