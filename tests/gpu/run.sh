#!/bin/sh
# On a machine with an NVIDIA GPU and PyTorch: builds napkin (unless given), probes the GPU,
# and checks napkin against PyTorch on the same GPU (compare.py):
#   - device-to-device copy bandwidth and bf16 matmul throughput, same sizes: within 10%;
#   - napkin's memory model against real training steps of the reference models of
#     tests/torch (nanoGPT's GPT-2, Hugging Face's eager Llama, the fused stand-ins; fp32,
#     amp-bf16, bf16; recompute none and full; MHA and GQA; two batch and sequence sizes):
#     torch.cuda.max_memory_allocated() against `napkin report` memory.peak - memory.overhead
#     with kernels eager or fused, within 5%. On CUDA the dropout masks are 1 byte and
#     autocast's softmax is fp32, as napkin models them.
# Results go to ${GPU_RESULTS:-./gpu-results}. Exit 0: every goal met; 1: a goal missed (the
# summary says which); 77: no GPU or no PyTorch here (ctest counts it as skipped).
# usage: tests/gpu/run.sh [NAPKIN_BINARY]     (ctest -L gpu passes the built one)
# Planned to take under 8 minutes (about 2 with a built napkin).
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
out=${GPU_RESULTS:-./gpu-results}
mkdir -p "$out" || exit 1
out=$(cd "$out" && pwd)
python=${PYTHON:-python3}
log="$out/run.log"
: >"$log"

say() { echo "$*" | tee -a "$log"; }

if ! "$python" -c 'import torch, sys; sys.exit(0 if torch.cuda.is_available() else 1)' 2>>"$log"; then
	say "skip: no PyTorch with CUDA here ($python); nothing measured"
	exit 77
fi

if [ $# -ge 1 ] && [ -x "$1" ]; then
	napkin=$1
else
	build=${NAPKIN_GPU_BUILD:-$out/build}
	say "== building napkin in $build"
	if ! cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DNAPKIN_TESTS=OFF >>"$log" 2>&1 ||
		! cmake --build "$build" -j "$(nproc 2>/dev/null || echo 4)" >>"$log" 2>&1; then
		say "FAIL: napkin does not build (see $log)"
		exit 1
	fi
	napkin=$build/napkin
fi

# The cuBLASLt PyTorch uses (a pip wheel keeps its own copy, off the loader's path): napkin
# then measures with the very library PyTorch calls.
if [ -z "${NAPKIN_LIBCUBLASLT:-}" ]; then
	lt=$("$python" - <<'EOF' 2>>"$log"
import glob, os, site, sys
dirs = list(site.getsitepackages()) + [site.getusersitepackages()] + sys.path
found = []
for d in dirs:
    for pat in ("nvidia/cublas/lib/libcublasLt.so.*", "nvidia/cu13/lib/libcublasLt.so.*", "torch/lib/libcublasLt.so.*"):
        found += glob.glob(os.path.join(d, pat))
found = sorted(set(f for f in found if os.path.isfile(f)))
print(found[-1] if found else "")
EOF
)
	if [ -n "$lt" ]; then
		export NAPKIN_LIBCUBLASLT="$lt"
		say "cuBLASLt: $lt (PyTorch's)"
	fi
fi

say "== napkin probe"
timeout 180 "$napkin" probe >"$out/probe.txt" 2>>"$log"
say "napkin probe (text): exit $?"
tee -a "$log" <"$out/probe.txt"
timeout 180 "$napkin" probe --format json --save "$out/gpu-measured.yaml" >"$out/probe.json" 2>>"$log"
rc=$?
say "napkin probe --format json: exit $rc"
if [ "$rc" -ne 0 ]; then
	say "FAIL: napkin probe found no usable GPU (exit $rc); see $log"
	exit 1
fi

say "== the PyTorch model against napkin's knobs (parameter counts)"
"$python" "$here/compare.py" --napkin "$napkin" --check-model 2>&1 | tee -a "$log"

say "== napkin against PyTorch"
rm -f "$out/status"
timeout 420 "$python" "$here/compare.py" --napkin "$napkin" --probe "$out/probe.json" --out "$out" 2>&1 | tee -a "$log"
rc=$?
# the pipeline's status is tee's: compare.py leaves its own in a file
rc=$(cat "$out/status" 2>/dev/null || echo 1)
say "results: $out (summary.txt, results.json, probe.json, probe.txt, run.log)"
exit "$rc"
