#!/bin/sh
# The tensor inspector's matmul calculator and devices, typed as a student types them, in
# English at 120×40 and in Chinese at 80×24. Figures worked by hand (the chapter, §3.4: one
# matmul [M,K]×[K,N] is 2·M·K·N FLOPs): 4096³ in bf16 is 2·4096³ = 1.374e11 FLOPs and moves
# 3·4096²·2 B = 100.7 MB, 1365 FLOP/B, above the H100 SXM's ridge 989.5 TFLOP/s ÷ 3.35 TB/s =
# 295 FLOP/B: compute-bound, 1.374e11 ÷ 989.5e12 = 138.9 µs. A [1,4096] row through the same
# weight is 0.9995 FLOP/B: memory-bound. A new tensor is on the CPU (PyTorch's default
# device); .to("cuda") copies its 32 MiB = 33.55 MB over PCIe Gen5 x16 (64 GB/s per
# direction): 524.3 µs pinned, 1.05 ms pageable (half the rate).
. "$(dirname "$0")/lib.sh"

start 120 40 --gpu h100-sxm
wait_for 'Memory per GPU' 'napkin explore did not draw'
keys T
wait_for 'tensor inspector' 'T did not open the tensor inspector'
wait_for 'head_dim=128\] +bf16 +rank 4' "the inspector does not show the scenario tensor's rank"
wait_for '\(storage 32\.00 MiB\), on cuda:0' "the scenario's tensor is not on the GPU"
keys s b f 1 6 Space 4 0 9 6 x 4 0 9 6 Enter
wait_for '\[4096, 4096\] +bf16 +rank 2' 'a new tensor has no rank'
wait_for '\(storage 32\.00 MiB\), on cpu' 'a new tensor is not on the CPU'
keys : t o '(' '"' c u d a '"' ')' Enter
wait_for 'on cuda:0' 'to("cuda") did not move the tensor'
wait_for '33\.55 MB over PCIe: pinned 524\.3 µs at 64 GB/s, pageable 1\.05 ms' 'the copy over PCIe is not timed'
keys : m a t m u l '(' 4 0 9 6 , Space 4 0 9 6 ')' Enter
wait_for '2·1·4096·4096·4096 FLOPs' 'matmul does not show 2·M·K·N'
wait_for '1\.374e11 FLOPs, 100\.7 MB moved' 'the matmul FLOPs or bytes are wrong'
wait_for '1365 FLOP/B; ridge of H100 SXM at bf16 295' 'the intensity or the ridge is wrong'
wait_for 'compute-bound, attainable 989\.5 TFLOP/s, 138\.9 µs at the roofline' 'the roofline point is wrong'
# a decode-sized row: memory-bound
keys s c u d a Space 1 x 4 0 9 6 Enter
wait_for '\[1, 4096\] +bf16 +rank 2' 's cuda 1x4096 did not make the tensor'
wait_for 'on cuda:0' 's cuda ... did not make a GPU tensor'
keys : @ Space '[' 4 0 9 6 , Space 4 0 9 6 ']' Enter
wait_for '0\.9995 FLOP/B' 'the GEMV intensity is wrong'
wait_for 'memory-bound' 'the GEMV is not memory-bound'
# PyTorch's words for a mismatch
keys : m a t m u l '(' 1 0 2 4 , Space 8 ')' Enter
wait_for 'mat1 and mat2 shapes cannot be multiplied \(1x4096 and 1024x8\)' "the mismatch is not PyTorch's error"
# initialisation on a weight [4096, 4096] (Glorot & Bengio 2010: Var_L = (n·σ²)^L·Var_0):
# N(0, 1) multiplies the variance by 4096 a layer, 4096^32 = 3.94e115, its standard deviation
# 64^l past fp16's 65504 at layer 3 and bf16's 3.39e38 at layer 22; Xavier keeps it at 1
keys s c u d a Space b f 1 6 Space 4 0 9 6 x 4 0 9 6 Enter
keys : i n i t '(' n o r m a l ')' Enter
wait_for 'fan_in·σ² = 4096 a' 'init(normal) does not show its gain'
wait_for '32: 3\.94e115' 'init(normal) does not show the variance after 32 layers'
wait_for "fp16's largest value at layer 3" 'init(normal) does not say where fp16 overflows'
keys : i n i t '(' x a v i e r ')' Enter
wait_for 'σ² = 0\.000244' 'init(xavier) has the wrong variance'
wait_for '16: 1, 32: 1' 'init(xavier) does not keep the variance'
keys q q
stop

# in Chinese at 80×24: the same figures, the words Chinese, no line past the screen
command -v python3 >/dev/null 2>&1 || exit 0
check_width() {
	screen >"$TUI_TMP/screen"
	python3 - "$1" "$TUI_TMP/screen" <<'PY' || fail "a line of the screen is wider than $1 columns"
import sys, unicodedata
w = int(sys.argv[1])
def width(s):
    return sum(0 if unicodedata.combining(c) else 2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in s)
bad = [l for l in open(sys.argv[2], encoding="utf-8").read().split("\n") if width(l.rstrip()) > w]
for l in bad:
    print(l)
sys.exit(1 if bad else 0)
PY
}
start 80 24 --gpu h100-sxm --lang zh
wait_for 'napkin' 'napkin explore --lang zh did not draw'
keys T
wait_for 'Tensor 查看器' 'the tensor inspector did not open in Chinese'
wait_for '在 cuda:0 上' 'the device is not shown in Chinese'
keys s c u d a Space b f 1 6 Space 4 0 9 6 x 4 0 9 6 Enter
keys : m a t m u l '(' 4 0 9 6 , Space 4 0 9 6 ')' Enter
wait_for '1\.374e11 FLOPs，搬运 100\.7 MB' 'the matmul line is not Chinese'
wait_for '转折点' 'the ridge is not named in Chinese'
wait_for 'Compute-Bound' 'the verdict is not the glossary term'
check_width 80
screen | grep -q 'moved (A and B' && fail 'English on the Chinese inspector'
keys q q
stop
exit 0
