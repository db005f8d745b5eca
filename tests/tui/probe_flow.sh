#!/bin/sh
# The GPU probe and the live panel in the real explorer, against the fake NVIDIA libraries
# (tests/fake): G measures the fake H100, selects "H100 SXM (measured)" and the roofline
# says measured beside datasheet; the picker offers it; M samples NVML; every failure shows
# its reason (no driver, no device, cuBLAS missing, NVML missing, a crash), a hanging driver
# is stopped at the deadline and the explorer still answers; Esc cancels a probe.
# usage: probe_flow.sh NAPKIN FAKE_LIBCUDA FAKE_LIBNVML FAKE_LIBCUBLASLT
. "$(dirname "$0")/lib.sh"
CUDA=${2:?usage: $0 NAPKIN FAKE_LIBCUDA FAKE_LIBNVML FAKE_LIBCUBLASLT} NVML=${3:?} CUBLASLT=${4:?}
unset FAKE_CUDA_HANG FAKE_CUDA_CRASH FAKE_CUDA_DEVICES FAKE_CUDA_INIT_ERROR CUDA_VISIBLE_DEVICES

# run_with "ENV=VALUE ..." ARGS...: a fresh explorer at 120x40 with the fakes and ENV, on a
# server of its own (a socket reused at once after kill-server can lose the race)
SOCK_BASE=$SOCK
run_n=0
run_with() {
	env_extra=$1
	shift
	tm kill-server 2>/dev/null
	rm -f "/tmp/tmux-$(id -u)/$SOCK"
	run_n=$((run_n + 1))
	SOCK=$SOCK_BASE-$run_n
	tm set-option -g remain-on-exit on \; set-option -g history-limit 2000 \; \
		new-session -d -s app -x 120 -y 40 \
		"env NAPKIN_LIBCUDA=$CUDA NAPKIN_LIBNVML=$NVML NAPKIN_LIBCUBLASLT=$CUBLASLT \
		 NAPKIN_LIBCUBLAS=/nonexistent/libcublas.so.12 $env_extra $NAPKIN explore $*" || fail "tmux did not start"
	wait_for 'Memory per GPU' 'the explorer never drew'
}

quit_ok() {
	keys Q
	st=$(wait_exit)
	[ "$st" = 0 ] || fail "$1: exit status $st"
}

# 1. a good probe: the measured GPU is selected, the roofline compares it with the datasheet
run_with ""
keys G
wait_for 'measured in [0-9.]+ s: h100-sxm-measured selected \(datasheet h100-sxm\); M: live panel' \
	'no footer note after the probe'
screen | grep -q 'Probing the GPU' && fail 'the probe overlay stayed open'
screen | grep -q 'on 8 × H100 SXM (measured)' || fail 'the header does not name the measured GPU'
# Tab Tab: from the micro-batch to the GPU & cluster group, the GPU knob in view
keys Tab Tab
wait_for 'GPU +H100 SXM \(measured\)' 'the GPU knob does not show the measured GPU'
screen | grep -Eq '━ measured +┄ datasheet' || fail 'the roofline has no measured/datasheet legend'
screen | grep -q '700T' || fail 'the roofline does not show the measured bf16 roof'
screen | grep -q 'of 700 TFLOP/s' || fail 'MFU is not against the measured peak'
# the picker offers it
keys g
wait_for 'Pick a GPU' 'the GPU picker did not open'
screen | grep -Eq 'h100-sxm-measured +[0-9.]+ GB · 3 TB/s · 700 TFLOP/s bf16 \(measured\)' ||
	fail 'the picker does not list the measured GPU'
keys Escape
wait_gone 'Pick a GPU'
# the live panel: NVML's figures beside napkin's prediction
keys M
wait_for 'GPU live: NVIDIA H100 80GB HBM3' 'the live panel did not open'
wait_for 'sample [2-9][0-9]* at' 'the live panel never refreshed'
screen | grep -q 'used 1.00 GiB · reserved by the driver 512.0 MiB · total 79.65 GiB' || fail 'no memory figures'
screen | grep -q 'predicts 62.03 GiB per GPU' || fail "no napkin prediction beside the memory used"
screen | grep -q 'W of 700 W (limit)' || fail 'no power figures'
keys Escape
wait_gone 'GPU live'
quit_ok 'after a good probe'
echo "ok: probe succeeds, measured GPU selected, roofline legend, picker, live panel"

# 2. no driver: the loader's words, in the overlay and the footer
run_with "NAPKIN_LIBCUDA=/nonexistent/libcuda.so.1 NAPKIN_LIBNVML=/nonexistent/libnvidia-ml.so.1"
keys G
wait_for 'GPU probe: no NVIDIA driver' 'no failure overlay without a driver'
screen | grep -q 'no NVIDIA driver: /nonexistent/libcuda.so.1 cannot be loaded' || fail 'no reason given'
screen | grep -q 'cannot open shared object' || fail 'the dlerror text is missing'
screen | grep -q 'note: NVML missing' || fail 'NVML missing is not noted'
keys Enter
wait_gone 'GPU probe: no NVIDIA driver'
# the live panel says why it has nothing
keys M
wait_for 'no live figures: NVML missing' 'the live panel does not say NVML is missing'
keys Escape
wait_gone 'GPU live'
quit_ok 'without a driver'
echo "ok: no driver, NVML missing"

# 3. a driver but no device
run_with "FAKE_CUDA_DEVICES=0"
keys G
wait_for 'GPU probe: no GPU device' 'no failure overlay without a device'
screen | grep -q 'sees no GPU' || fail 'no reason given for no device'
keys Escape
quit_ok 'without a device'
echo "ok: no device"

# 4. cuBLAS missing: measured all the same, matmul skipped
run_with "NAPKIN_LIBCUBLASLT=/nonexistent/libcublasLt.so.12"
keys G
wait_for 'h100-sxm-measured selected.*; cuBLAS missing: matmul skipped' 'cuBLAS missing is not said'
quit_ok 'without cuBLAS'
echo "ok: cuBLAS missing"

# 5. a hanging driver: stopped at the deadline, and the explorer still answers
run_with "FAKE_CUDA_HANG=cuInit" --probe-timeout 2
keys G
wait_for 'Probing the GPU in this machine' 'no progress overlay'
wait_for 'initialising the CUDA driver' 'the step is not shown'
wait_for 'GPU probe: timed out' 'a hanging probe was never stopped'
screen | grep -q 'the probe did not finish within 2 s while initialising the CUDA driver and was stopped' ||
	fail 'no timeout message'
keys Escape
wait_gone 'GPU probe: timed out'
keys t
wait_for '· infer ·' 'the explorer does not answer after a hung probe'
quit_ok 'after a hung probe'
echo "ok: hanging driver stopped, the explorer answers"

# 6. a crashing driver
run_with "FAKE_CUDA_CRASH=cuInit"
keys G
wait_for 'GPU probe: the driver crashed' 'no overlay after a crash'
screen | grep -q 'died of signal' || fail 'the signal is not named'
keys Escape
quit_ok 'after a crash'
echo "ok: crashing driver"

# 7. Esc cancels a probe that is running
run_with "FAKE_CUDA_HANG=cuInit"
keys G
wait_for 'Probing the GPU in this machine'
keys Escape
wait_for 'GPU probe cancelled' 'Esc did not cancel the probe'
screen | grep -q 'Probing the GPU' && fail 'the overlay stayed'
quit_ok 'after cancelling'
echo "ok: Esc cancels"
