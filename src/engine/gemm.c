/*
 * What a GPU reaches of its datasheet: GEMM efficiency by shape, FlashAttention's rate,
 * streaming bandwidth, and the cost of each collective over the links a group spans.
 * One calibration per GPU family, each figure with its source; nothing here is tuned to
 * one training run (docs/step-time.md shows the same figures against published runs).
 *
 * Sources:
 *  - GEMM: the best large bf16 GEMM each card reaches (Maximum Achievable Matmul FLOPS,
 *    S. Bekman, ml-engineering compute/accelerator/README.md, measured with
 *    mamf-finder.py: A100 SXM 267.9 of 312 TFLOP/s = 85.9% at 6912×16384×2048, H100 SXM
 *    792.1 of 989 = 80.1% at 6144×17920×2816, GH200 83.0%, H200 794.5 = 80.3%, B200
 *    1745 of 2250 = 77.6% at 1792×16128×3072, B300 1769 of 2250 = 78.6% at
 *    12288×18432×1024, GB200 1822 of 2500 = 72.9% at 4096×9728×2048, MI250X 76.7%).
 *    AMD (the same table at 744d01e; napkin divides by the preset's peak, not the table's
 *    "Theory" column): MI300X 668.4 of 1307.4 = 51.1% at 10240×15360×8192 (torch
 *    2.5.1+rocm6.3, TunableOp; row since faa7ddf), MI325X 784.9 of 1307.4 = 60.0% at
 *    13312×10240×8192 (torch 2.6.0+rocm6.2.4, TunableOp, 1000 W; since 488e893), MI355X
 *    1565.0 of 2516.6 = 62.2% at 12288×8192×8192 (torch 2.8.0+rocm7.0.2, TunableOp off;
 *    since d3439bd; the table divides by 2300, MI350X's peak, where AMD's MI355X figure is
 *    2.5 PFLOP/s, 2516.6 at 2400 MHz). MI300X's older 781.9 = 60.1% (ROCm 6.2, 4096×4864×
 *    10240, from 8deeddd) is left aside: it came from mamf-finder's first version, which did
 *    not flush the caches between iterations (the table's own note; the row was dropped in
 *    e695968), and the MI300X's 256 MB Infinity Cache holds that GEMM's 224 MB of operands
 *    and output whole. The two versions agree where the cache is small (A100 85.9% and
 *    86.9%, H100 80.1% and 80.3%), not on the MI300X (60.1% and 51.1%); 781.9 is also above
 *    AMD's own cold-cache sustained best for the card (708, MAF part 2 below), and a 750 W
 *    MI300X at 60.1% would match the 1000 W MI325X's 60.0%, where AMD's MAF has the MI325X
 *    1.19× faster (its clock under a GEMM 1447 MHz against 1207). The current rows are one
 *    method (caches flushed, mean of 100 iterations after 50 warm-up) on ROCm 6.2-7.0, the
 *    stack of the MLPerf Training v5.1 runs napkin is checked against (ROCm 7.0, torch
 *    2.8.0). MI350X (the same CDNA 4 die at 2200 MHz and 1000 W) has no row: it takes
 *    MI355X's fraction of its own peak.
 *  - Power-limited PCIe cards: the datasheet peak is at the boost clock, which a 300-350 W
 *    card does not hold under a dense GEMM, so they get rows of their own, not their SXM
 *    sibling's. A100 PCIe: the MAMF table's own row, 252.9 of 312 = 81.1% at 2048×5120×6144
 *    (torch 2.5.1+cu124), against the SXM's 85.9%. H100 PCIe, L40S and L4 have no MAMF row;
 *    their figures are torch.mm on square bf16 matrices of 1024-10240 (10 warm-up and 30
 *    timed iterations each, CUDA events; github.com/zzc0721/torch-performance-test-data,
 *    test.py and its issues): H100 PCIe 495.93 of 756.5 = 65.6% at 4096³ (issue 95, torch
 *    2.9.0+cu128, a bare-metal machine; the same card as H800 PCIe, issue 112: 503.83 =
 *    66.6%), L40S 269.15 of 362.05 = 74.3% (issue 43, torch 2.8.0+cu128; the size is not
 *    reported, the row anchors it at 8192³), L4 59.40 of 121 = 49.1% at 8192³ (issue 120,
 *    torch 2.9.0+cu128; its 70.89 at 2048³ is a burst the 72 W card does not keep: each larger
 *    size, timed longer, reads 54.9-59.4). The script reads MAMF on the SXM cards (H100 SXM
 *    797.51 = 80.6%, issue 79; A100 SXM4 80GB 264.53 = 84.8%, database.md), so the H100
 *    PCIe's 65.6% is its 350 W limit (the SXM's 700 W card, same die, 80.6% by the same
 *    script). These are short runs: each row takes its family's sustained factor on top, as
 *    the other burst rows do (Hopper: H200's; Ada and A100 PCIe: A100's). No FP8 measurement
 *    on these cards: the 16-bit fraction of the FP8 peak, likely optimistic (on H100 SXM an
 *    FP8 GEMM reaches 70.9% against BF16's 80.1%). H200 NVL (600 W): cuBLAS through
 *    torch.matmul, fp16 (Hopper's bf16 rate) at 8192³, 684.78 of 835.5 TFLOP/s = 82.0%
 *    (NVIDIA/tilus pull request 154, "Add More Hopper Matmul Examples", the cuBLAS baseline of
 *    its H200 NVL table; examples/hopper_matmul/benchmark.py at its merge commit 8970fbba:
 *    uniform inputs (U(0,1) − 0.5)/√k, 5 warm-up and 30 timed runs, a short burst like the
 *    torch.mm rows), so it takes H200's sustained ÷ burst rate on top; FP8 has no NVL
 *    measurement and keeps the H200 SXM row's sustained 65.1%, as before the row. H100 NVL
 *    (400 W), A10, the GeForce cards and RTX PRO 6000 have no measurement here and keep what
 *    they had (the H100 row, or the fallback; the same script's A10G reading, issue 126,
 *    69.47 TFLOP/s, is another card than the A10 preset); the GeForce cards read at or above their datasheet
 *    peak in the same script (RTX 4090 160.5-173.3 of 165.2, RTX 5090 221.7-242.2 of 209.5:
 *    boost clocks above the datasheet's), RTX PRO 6000 Server 409.42 of 500 (81.9%), the
 *    fallback's 80%.
 *  - Sustained: a GEMM that fills the card draws its TDP and the clock settles below the
 *    boost a short burst holds, so training runs at the Maximum *Sustainable* Matmul FLOPS
 *    (MSMF), not MAMF. The table's MSMF rows (ml-engineering compute/accelerator/README.md,
 *    revision 082816f, "faster mamf, plus msmf"; torch 2.13.0+cu130, one GPU at a time):
 *    H200 SXM 708.5 of 989 = 71.6% at 8192×8448×20480 (MAMF 841.9), FP8 1288.7 of 1979 =
 *    65.1% at 8448×8192×16384; B200 1456.3 of 2250 = 64.7% at 9472×8192×20480 (MAMF
 *    1770.9), FP8 2795.7 of 4500 = 62.1% at 9472×8192×16384. Those cards (and H100 SXM,
 *    the same die at the same 700 W and peaks, and H800) are anchored at their MSMF as is;
 *    the other Hopper and Blackwell cards take their MAMF times their architecture's MSMF ÷
 *    MAMF, A100 and the rest A100's clock at its power limit (SUS_* below).
 *  - FP8: the same table's float8_e4m3fn rows, each of its own FP8 peak: H100 SXM 1402.6
 *    of 1979 = 70.9% at 1024×9216×14336, H200 1453.4 = 73.4% at 1280×4096×12032, GH200
 *    1535.0 = 77.6% at 1024×14336×14336, B200 3432.5 of 4500 = 76.3% at 15360×4096×3072,
 *    B300 3353.3 = 74.5% at 3072×6144×7168, GB200 3615.6 of 5000 = 72.3% at
 *    19456×5120×1536. An FP8 GEMM is not the 16-bit one at twice the rate: on Hopper it
 *    reaches less of its peak (70.9% against 80.1%), the same shape model anchored at
 *    the FP8 measurement. GB300 has no measurement: it takes GB200's figures (the same
 *    NVL72 rack, the same 2500 and 5000 TFLOP/s datasheet peaks), as H800 takes H100's.
 *    MI300X: hipBLASLt FP8 (e4m3, random inputs, 10,000 warm-up iterations, so at the clock
 *    the card holds) 1159.5 of 2614.9 TFLOP/s = 44.3% at 6144×12288×12288 (1159.2 at 8192³,
 *    1015.1 at 16384³; Microsoft's AI-benchmarking-guide, Azure_Results/ND_MI300X_v5_results.md,
 *    github.com/samuel-bohman/AI-benchmarking-guide at 3de0c294, ROCm 6.2): taken as a
 *    sustained figure. MI325X (1000 W against the MI300X's 750 W): AMD's Max-Achievable FLOPs
 *    with normal-distribution inputs (AMD Performance Labs, September 2026, ROCm 7.2.1, one
 *    GPU at 1000 W; ROCm/rocm-blogs, "Completing the GPU Performance Picture: Understanding
 *    TAF Alongside Peak FLOPs and MAF", 6 Oct 2026, footnote 1), unscaled FP8 1408.06 of
 *    2614.9 = 53.8% at 4096×3648×32896 (BF16 831.40 at 4096×4864×32896): MAF is AMD's
 *    sustained figure (its part 2, below), so taken as one. AMD's earlier MAF table (part 2,
 *    ROCm/rocm-blogs blogs/software-tools-optimization/measuring-max-achievable-flops-part2
 *    at d957560c, table 1: MI300X FP8 1273, MI325X 1519) used trig_float inputs, which AMD
 *    later says toggle less and hold a higher clock than real data; it is not used. MI355X
 *    and MI350X (CDNA 4) have no FP8 measurement: they keep the 16-bit curve's fraction of
 *    their FP8 peak, likely optimistic, since on CDNA 3 an FP8 GEMM reaches less of its peak
 *    than a 16-bit one (MI325X 53.8% against 63.6%, the same MAF runs).
 *  - Smaller GEMMs reach less: a GEMM is cut into 128×256 output tiles (cuBLAS's usual
 *    tile for large 16-bit GEMMs on Ampere and Hopper) spread over the
 *    SMs, and too few tiles leave SMs idle (wave quantisation, averaged: u/(u + 1/2) for
 *    u tiles per SM), while a short K dimension leaves each tile's main loop too short to
 *    hide its prologue and epilogue (K/(K + 128)). Both are smooth and grow with size,
 *    so a larger GEMM is never slower per FLOP (NVIDIA, "Matrix Multiplication
 *    Background User's Guide", Deep Learning Performance docs: tile and wave
 *    quantisation). The curve is scaled so the MAMF shape gets the MAMF figure; on a
 *    profile napkin probe measured, the probe's n×n×n GEMM gets the measured peak.
 *  - FlashAttention's fraction of peak, forward and backward together, on the FLOPs it
 *    executes (the causal half; the backward 2.5× the forward, as FlashAttention's own
 *    benchmark counts them; step.c holds it at half the peak on napkin's whole-matrix
 *    count, so HFU stays under 1): FlashAttention-2
 *    on A100 runs the forward at up to 73% and the backward at up to 63% of peak, about
 *    50-60% end to end at head size 128 (Dao 2023, §4.1, figures 4-6); on H100
 *    FlashAttention-2 reaches ~35-45% and FlashAttention-3 ~60-75% forward, ~50%
 *    backward (Shah et al. 2024, §4.1): 0.50 for Hopper and later; each measured in short
 *    benchmarks, so taken at the family's sustained factor (step.c).
 *  - Links: nccl-tests all-reduce bus bandwidth on 8 GPUs, large messages (the data
 *    NVIDIA's aiconfigurator ships; stas00/ml-engineering network/README.md): 8 × A100
 *    222-235 of 300 GB/s (74-78%), 8 × H200 367.6 of 450 without NVLS (82%), 8 × B200
 *    704 of 900 (78%).
 *  - Across nodes: 4 × 8 B200 over 8 × 50 GB/s EFA reach 381.8 GB/s bus bandwidth, 95% of
 *    the NICs' line rate; InfiniBand runs NCCL at ~90%: ENG_NET_EFF = 0.90.
 *  - HBM: streaming kernels reach ~90% of the datasheet bandwidth (BabelStream triad on
 *    A100 ~1.8 of 2.0 TB/s, on H100 SXM ~3.0 of 3.35 TB/s); on MI300X 77%: BabelStream's HIP
 *    triad 4.10 of 5.3 TB/s on Azure's ND MI300X v5 (Azure/AI-benchmarking-guide,
 *    Azure_Results/ND_MI300X_v5_results.md at bf209ab; 4.09 at 3de0c29; copy 4.15, dot 4.0),
 *    the same guide's H100 triad 2.97 of 3.35 (89%). MI325X has no measurement: MI300X's.
 *  - Kernels: back-to-back launches on one stream start ~2-4 µs apart (launch, then the
 *    tail of the last wave): ENG_KERNEL_GAP = 3 µs per kernel, which only small steps feel.
 *  - Latency: a collective call costs ~15-25 µs on 8 GPUs at 512 bytes (nccl-tests:
 *    A100 22.6 µs, H100 15.5 µs): ENG_COLL_LATENCY = 20 µs. A ring step that crosses
 *    nodes (InfiniBand hop, NCCL proxy, and the framework's per-tensor dispatch) costs
 *    ENG_STEP_LATENCY_NET = 12 µs; ring all-gather and reduce-scatter take n−1 steps, so
 *    their latency grows with the ranks: the one figure fitted on a published series
 *    (ZeRO-3's per-GPU throughput at 384, 768 and 1536 GPUs, Narayanan et al. 2021,
 *    table 2), then used everywhere. An all-reduce across nodes is a ring's reduce-scatter
 *    and all-gather, 2(n−1) steps, not a tree's 2·log₂ n: Hugging Face's cluster (8 × H100
 *    a node) measured a 256 MB all-reduce at 436.0, 361.7, 160.1, 99.6, 84.7, 64.9 and
 *    32.9 GB/s bus bandwidth on 1, 2, 4, 8, 16, 32 and 64 nodes (the Ultra-Scale Playbook,
 *    "Pipeline Parallelism", its inter-node bandwidth figure): at 64 nodes 16.3 ms, of
 *    which the bandwidth is 1.5 ms; a tree's 18 steps would leave it at ~1.7 ms, the ring's
 *    1022 steps at 12 µs give 13.8 ms (test_collectives checks the series).
 */
#include <math.h>
#include <string.h>

#include "internal.h"

/* The clock a power-saturated GPU holds against the burst a short benchmark catches: A100
 * 1305 of 1410 MHz (NVIDIA's HPL submissions); Hopper and Blackwell the measured MSMF ÷ MAMF
 * of the same card, software and shapes search (ml-engineering, MSMF table: H200 708.5 ÷ 841.9
 * BF16, 693 W at 1465 MHz against 176 W at 1980 MHz; B200 1456.3 ÷ 1770.9, 994 W at 1339 MHz
 * against 295 W at 1965 MHz; their FP8 rows 0.864 and 0.814).
 * AMD: no source times one AMD card's GEMM both as a short burst and sustained with the same
 * software. AMD's MAF (part 2 above) reads the clock a dense GEMM holds after warm-up
 * (MI300X BF16 1207 MHz, MI325X 1447, against the 2100 MHz boost), but mamf-finder's runs
 * report no clock, so the two cannot be divided; the CDNA rows keep A100's ratio. It may be
 * conservative: AMD's sustained MAF lies above mamf-finder's figure on the same cards
 * (MI300X 708, trig_float inputs, against 668.4; MI325X 831.4, normal inputs, against
 * 784.9), if with newer hipBLASLt and a shape searched for it. */
/* RCCL's all-reduce on 8 MI300X within a node (rccl-tests, in-place, Microsoft's
 * AI-benchmarking-guide, Azure_Results/ND_MI300X_v5_results.md at 3de0c294): bus bandwidth
 * 22.41 GB/s at 1 MB, 171.46 at 16 MB, 290.81 at 134 MB, 316.82 at 8 GB. From 1 MB up the time
 * is a fixed 76 µs plus the ring's 2(n − 1)/n bytes at the family's 0.70 of 448 GB/s (313.6
 * GB/s, the asymptote): 82, 170 and 826 µs against the measured 82, 171 and 808. An
 * inference TP all-reduce above the engine's custom kernel's buffer pays it (serving.c). */
#define RCCL_AR_LATENCY 76e-6
#define SUS_AMPERE (1305.0 / 1410.0)
#define SUS_HOPPER (708.5 / 841.9)
#define SUS_BLACKWELL (1456.3 / 1770.9)

static const struct eng_family families[] = {
	/* prefix, bf16 best GEMM and shape, flash, NCCL, HBM, FP8 best GEMM and shape, sustained,
	 * whether the 16-bit and the FP8 GEMM figures are sustained ones */
	/* the PCIe cards first: "a100", "h100" and "l4" would take them otherwise */
	{"a100-80gb-pcie", 0.811, 2048, 5120, 6144, 0.55, 0.76, 0.90, 0, 0, 0, 0, SUS_AMPERE, false, false, 0.0,
	 N_("MAMF A100 PCIe 81.1% (300 W); FlashAttention and NCCL as A100")},
	/* FP8 on the H100 PCIe: no measurement; the 16-bit fraction × the H200 MSMF's FP8 ÷ BF16
	 * (65.1% ÷ 71.6%: a GH100 at its power limit runs FP8 GEMMs at 1.82× its BF16 rate, not 2×;
	 * the power law of eng_power_clock keeps that ratio at any limit) */
	{"h100-pcie", 0.656, 4096, 4096, 4096, 0.50, 0.82, 0.90, 0.656 * 0.651 / 0.716, 4096, 4096, 4096, SUS_HOPPER, false,
	 false, 0.0,
	 N_("torch.mm H100 PCIe 65.6% (4096³, 350 W), at the H200 sustained ÷ burst rate; FP8 59.6%: that × H200's FP8 ÷ BF16")},
	/* H200 NVL (600 W, the same GH100 die as the 700 W SXM): cuBLAS's burst figure, the SXM's
	 * sustained ÷ burst rate on top; FP8 has no NVL measurement and keeps the H200 row's */
	{"h200-nvl", 0.820, 8192, 8192, 8192, 0.50, 0.82, 0.90, 0.651, 8448, 8192, 16384, SUS_HOPPER, false, true, 0.0,
	 N_("cuBLAS H200 NVL 82.0% (8192³, 600 W), at the H200 sustained ÷ burst rate; FP8 as H200 SXM (no NVL measurement)")},
	{"l40s", 0.743, 8192, 8192, 8192, 0.50, 0.78, 0.90, 0, 0, 0, 0, SUS_AMPERE, false, false, 0.0,
	 N_("torch.mm L40S 74.3% (350 W), at A100's sustained ÷ burst rate; FP8: no measurement")},
	{"l4", 0.491, 8192, 8192, 8192, 0.50, 0.78, 0.90, 0, 0, 0, 0, SUS_AMPERE, false, false, 0.0,
	 N_("torch.mm L4 49.1% (8192³, 72 W), at A100's sustained ÷ burst rate; FP8: no measurement")},
	{"a100", 0.859, 6912, 16384, 2048, 0.55, 0.76, 0.90, 0, 0, 0, 0, SUS_AMPERE, false, false, 0.0,
	 N_("MAMF A100 SXM 85.9%; FlashAttention-2 on A100; 8×A100 NCCL 74-78%")},
	{"a800", 0.859, 6912, 16384, 2048, 0.55, 0.76, 0.90, 0, 0, 0, 0, SUS_AMPERE, false, false, 0.0, N_("as A100")},
	{"gh200", 0.830, 11264, 19712, 1536, 0.50, 0.82, 0.90, 0.776, 1024, 14336, 14336, SUS_HOPPER, false, false, 0.0,
	 N_("MAMF GH200 83.0%, FP8 77.6%, at the H200 sustained ÷ burst rate")},
	/* H100 SXM and H200 SXM: the same GH100 die at the same 700 W and the same 989 / 1979
	 * TFLOP/s peaks (the MAMF table's H100 row: "H200 is the same"); H200's MSMF for both */
	{"h100", 0.716, 8192, 8448, 20480, 0.50, 0.82, 0.90, 0.651, 8448, 8192, 16384, SUS_HOPPER, true, true, 0.0,
	 N_("MSMF H200 SXM 71.6%, FP8 65.1% (sustained, as H100); 8×H200 NCCL 82% without NVLS")},
	{"h200", 0.716, 8192, 8448, 20480, 0.50, 0.82, 0.90, 0.651, 8448, 8192, 16384, SUS_HOPPER, true, true, 0.0,
	 N_("MSMF H200 SXM 71.6%, FP8 65.1% (sustained); 8×H200 NCCL 82%")},
	{"h800", 0.716, 8192, 8448, 20480, 0.50, 0.82, 0.90, 0.651, 8448, 8192, 16384, SUS_HOPPER, true, true, 0.0, N_("as H100")},
	{"b200", 0.647, 9472, 8192, 20480, 0.50, 0.78, 0.90, 0.621, 9472, 8192, 16384, SUS_BLACKWELL, true, true, 0.0,
	 N_("MSMF B200 64.7%, FP8 62.1% (sustained); 8×B200 NCCL 704 of 900 GB/s")},
	{"b300", 0.786, 12288, 18432, 1024, 0.50, 0.78, 0.90, 0.745, 3072, 6144, 7168, SUS_BLACKWELL, false, false, 0.0,
	 N_("MAMF B300 78.6%, FP8 74.5%, at the B200 sustained ÷ burst rate; NCCL as B200")},
	{"gb200", 0.729, 4096, 9728, 2048, 0.50, 0.78, 0.90, 0.723, 19456, 5120, 1536, SUS_BLACKWELL, false, false, 0.0,
	 N_("MAMF GB200 72.9%, FP8 72.3% (of 2500 and 5000 TFLOP/s), at the B200 sustained ÷ burst rate; NCCL as B200")},
	{"gb300", 0.729, 4096, 9728, 2048, 0.50, 0.78, 0.90, 0.723, 19456, 5120, 1536, SUS_BLACKWELL, false, false, 0.0,
	 N_("as GB200 (GB300: no MAMF row)")},
	{"mi250", 0.767, 1024, 14080, 19968, 0.40, 0.70, 0.85, 0, 0, 0, 0, SUS_AMPERE, false, false, 0.0,
	 N_("MAMF MI250X 76.7% (one GCD)")},
	{"mi300", 0.511, 10240, 15360, 8192, 0.40, 0.70, 0.774, 0.443, 6144, 12288, 12288, SUS_AMPERE, false, true, RCCL_AR_LATENCY,
	 N_("MAMF MI300X 51.1% (ROCm 6.3); FP8 44.3%, hipBLASLt after 10,000 warm-up iterations (Azure ND MI300X v5)")},
	/* MI325X: its own MAMF row and AMD's sustained FP8 MAF; flash, links and HBM as MI300X */
	{"mi325", 0.600, 13312, 10240, 8192, 0.40, 0.70, 0.774, 0.538, 4096, 3648, 32896, SUS_AMPERE, false, true, RCCL_AR_LATENCY,
	 N_("MAMF MI325X 60.0% (ROCm 6.2.4, 1000 W); FP8 53.8%, AMD's sustained MAF (ROCm 7.2.1)")},
	/* CDNA 4: the GEMM from MI355X's MAMF row; FlashAttention, RCCL and HBM have no CDNA 4
	 * measurement and keep the fallback's figures (below), as before this row. "mi350x", not
	 * "mi350": the MI350P (a 600 W PCIe card) would hold a lower clock than either. */
	{"mi355", 0.622, 12288, 8192, 8192, 0.50, 0.78, 0.90, 0, 0, 0, 0, SUS_AMPERE, false, false, 0.0,
	 N_("MAMF MI355X 62.2% (ROCm 7.0.2); FP8: no measurement, the 16-bit fraction of the FP8 peak")},
	{"mi350x", 0.622, 12288, 8192, 8192, 0.50, 0.78, 0.90, 0, 0, 0, 0, SUS_AMPERE, false, false, 0.0,
	 N_("as MI355X (MI350X: no MAMF row)")},
};
/* Any other card: the median of the measured data-centre cards above. */
static const struct eng_family fallback = {"", 0.80, 6144, 16384, 2048, 0.50, 0.78, 0.90, 0, 0, 0, 0, SUS_AMPERE, false, false, 0.0,
					   N_("no measurement for this card: the median of measured data-centre cards")};

/* s starts with p (a hand loop: a step evaluation looks the family up several times, and
 * most rows fail at the first character) */
static bool starts_with(const char *s, const char *p)
{
	for (; *p != '\0'; s++, p++)
		if (*s != *p)
			return false;
	return true;
}

const struct eng_family *eng_family(const struct engine_gpu *g)
{
	size_t i;

	for (i = 0; i < sizeof families / sizeof families[0]; i++)
		if (starts_with(g->id, families[i].prefix))
			return &families[i];
	return &fallback;
}

#define TILE 128.0
#define TILE_N 256.0
#define K_HALF 128.0

/* kq: the main loop's K step in units of the 16-bit one (FP8 operands: 2, an FP8 MMA takes
 * twice the K per instruction, so a K-tile of the same bytes holds twice the K: Hopper's
 * wgmma.mma_async k = 32 for e4m3/e5m2 against 16 for bf16, PTX ISA §9.7.15) */
static double shape_factor_q(double sms, double M, double N, double K, double kq)
{
	double u = (M / TILE) * (N / TILE_N) / sms;

	return (u / (u + 0.5)) * (K / (K + K_HALF * kq));
}

static double shape_factor(double sms, double M, double N, double K)
{
	return shape_factor_q(sms, M, N, K, 1.0);
}

/* A measured curve (napkin probe's square GEMMs, ascending): the rate at side n relative
 * to the largest measured, log-log interpolated over the running maximum (so a larger
 * GEMM never reads slower), 1 beyond the largest, scaled by the model below the smallest. */
static double measured_rel(const struct engine_gpu *g, double sms, double n)
{
	double top = g->gemm_rate[g->gemm_points - 1], first = g->gemm_rate[0], prev_n = g->gemm_n[0], prev_r;
	int i;

	if (n <= g->gemm_n[0])
		return first / top * shape_factor(sms, n, n, n) / shape_factor(sms, g->gemm_n[0], g->gemm_n[0], g->gemm_n[0]);
	prev_r = first;
	for (i = 1; i < g->gemm_points; i++) {
		double r = eng_max(g->gemm_rate[i], prev_r);
		if (n <= g->gemm_n[i]) {
			double t = log(n / prev_n) / log(g->gemm_n[i] / prev_n);
			return exp(log(prev_r) + t * (log(r) - log(prev_r))) / top;
		}
		prev_n = g->gemm_n[i];
		prev_r = r;
	}
	return prev_r / top;
}

double eng_gemm_anchor(const struct engine_gpu *g, const struct eng_family *fam, double kq)
{
	double sms = g->sm_count > 0 ? (double)g->sm_count : 108.0;

	if (g->measured)
		return 0.0;
	if (kq > 1.0 && fam->fp8_best > 0)
		return shape_factor_q(sms, fam->fp8_m, fam->fp8_n, fam->fp8_k, kq);
	return shape_factor(sms, fam->best_m, fam->best_n, fam->best_k);
}

double eng_gemm_efficiency_a(const struct engine_gpu *g, const struct eng_family *fam, double M, double N, double K,
			     double kq, double anchor)
{
	double sms = g->sm_count > 0 ? (double)g->sm_count : 108.0;
	double e;

	if (!(M > 0 && N > 0 && K > 0))
		return fam->gemm_best;
	if (g->measured && g->gemm_points >= 2) {
		/* the measured curve at the equivalent square size, the shape's aspect by the model */
		double n = cbrt(M * N * K);
		e = measured_rel(g, sms, n) * shape_factor_q(sms, M, N, K, kq) / shape_factor(sms, n, n, n);
		return ENG_SUSTAINED * eng_min(e, 1.0);
	}
	if (g->measured) {
		/* napkin probe timed an n×n×n GEMM: its rate is the peak, the curve is anchored there
		 * (8192, the probe's first choice, when the profile does not say) */
		double n = g->peak_gemm_n > 0 ? g->peak_gemm_n : 8192.0;
		e = shape_factor_q(sms, M, N, K, kq) / shape_factor(sms, n, n, n);
		return ENG_SUSTAINED * eng_min(e, 1.0);
	}
	/* an FP8 GEMM (kq > 1) on a card with an FP8 measurement: the curve anchored at the
	 * best FP8 GEMM measured (MAMF's float8_e4m3fn rows, above), and capped there; it loses
	 * more on a short K (kq above). Without one, the 16-bit curve's fraction of the FP8 peak.
	 * anchor: the anchor shape's factor, eng_gemm_anchor's */
	if (kq > 1.0 && fam->fp8_best > 0) {
		e = fam->fp8_best * shape_factor_q(sms, M, N, K, kq) / anchor;
		return (fam->fp8_msmf ? 1.0 : fam->sustained) * eng_min(e, fam->fp8_best);
	}
	e = fam->gemm_best * shape_factor_q(sms, M, N, K, kq) / anchor;
	return (fam->msmf ? 1.0 : fam->sustained) * eng_min(e, fam->gemm_best);
}

double eng_gemm_efficiency_q(const struct engine_gpu *g, const struct eng_family *fam, double M, double N, double K,
			     double kq)
{
	return eng_gemm_efficiency_a(g, fam, M, N, K, kq, eng_gemm_anchor(g, fam, kq));
}

double eng_gemm_efficiency(const struct engine_gpu *g, const struct eng_family *fam, double M, double N, double K)
{
	return eng_gemm_efficiency_q(g, fam, M, N, K, 1.0);
}

double eng_gemm_seconds_q(const struct engine_gpu *g, const struct eng_family *fam, double peak, double M, double N,
			  double K, double elem, double kq, double *eff)
{
	return eng_gemm_seconds_a(g, fam, peak, M, N, K, elem, kq, eng_gemm_anchor(g, fam, kq), eff);
}

double eng_gemm_seconds_a(const struct engine_gpu *g, const struct eng_family *fam, double peak, double M, double N,
			  double K, double elem, double kq, double anchor, double *eff)
{
	double e = eng_gemm_efficiency_a(g, fam, M, N, K, kq, anchor);
	double compute = 2.0 * M * N * K / (peak * e);
	double memory = elem * (M * K + K * N + M * N) / (g->bandwidth * fam->hbm);

	if (eff != NULL)
		*eff = e;
	return eng_max(compute, memory);
}

double eng_gemm_seconds(const struct engine_gpu *g, const struct eng_family *fam, double peak, double M, double N,
			double K, double elem, double *eff)
{
	double e = eng_gemm_efficiency(g, fam, M, N, K);
	double compute = 2.0 * M * N * K / (peak * e);
	double memory = elem * (M * K + K * N + M * N) / (g->bandwidth * fam->hbm);

	if (eff != NULL)
		*eff = e;
	return eng_max(compute, memory);
}

double eng_group_busbw(const struct eng_group *g)
{
	double intra = g->link_bw * g->link_eff;

	if (g->n <= g->per_node || g->network_bw <= 0)
		return intra > 0 ? intra : g->network_bw * g->net_eff;
	/* a ring through every node: each node sends through its per_node NICs */
	return intra > 0 ? eng_min(intra, g->per_node * g->network_bw * g->net_eff) : g->per_node * g->network_bw * g->net_eff;
}

double eng_network_bw(const struct engine_scenario *sc)
{
	return sc->gpu.network_bw > 0 ? sc->gpu.network_bw : sc->gpu.pcie_bw > 0 ? sc->gpu.pcie_bw : ENG_FALLBACK_BW;
}

void eng_group_init(struct eng_group *g, double n, double per_node, const struct engine_scenario *sc, double net,
		    const struct eng_family *fam)
{
	g->n = n;
	g->per_node = eng_max(1.0, eng_min(n, per_node));
	g->link_bw = sc->gpu.link_bw > 0 ? sc->gpu.link_bw : sc->gpu.pcie_bw > 0 ? sc->gpu.pcie_bw : ENG_FALLBACK_BW;
	g->link_eff = sc->gpu.link_bw > 0 ? fam->link : ENG_PCIE_EFF;
	g->network_bw = net;
	g->net_eff = ENG_NET_EFF;
}

double eng_coll_seconds(const struct eng_group *g, enum eng_coll kind, double S)
{
	double n = g->n, bw, t, steps = 0.0;
	bool crosses = n > g->per_node;

	if (n <= 1.0 || S <= 0.0)
		return 0.0;
	bw = eng_group_busbw(g);
	switch (kind) {
	case COLL_ALL_REDUCE:
		t = 2.0 * (n - 1.0) / n * S / bw;
		steps = 2.0 * (n - 1.0); /* a ring: its reduce-scatter, then its all-gather */
		break;
	case COLL_REDUCE_SCATTER:
	case COLL_ALL_GATHER:
		t = (n - 1.0) / n * S / bw;
		steps = n - 1.0; /* ring only */
		break;
	case COLL_ALL_TO_ALL: {
		/* each rank sends (n−1)/n·S: the off-node share through its own NIC */
		double on = (eng_min(g->per_node, n) - 1.0) / n * S, off = crosses ? (n - g->per_node) / n * S : 0.0;
		double lbw = g->link_bw > 0 ? g->link_bw * g->link_eff : g->network_bw * g->net_eff;
		t = eng_max(on / lbw, off > 0 ? off / (g->network_bw * g->net_eff) : 0.0);
		steps = crosses ? n / g->per_node - 1.0 : 0.0;
		break;
	}
	case COLL_P2P:
	default:
		bw = crosses || g->link_bw <= 0 ? g->network_bw * g->net_eff : g->link_bw * g->link_eff;
		t = S / bw;
		steps = crosses ? 1.0 : 0.0;
		break;
	}
	return t + ENG_COLL_LATENCY + (crosses ? steps * ENG_STEP_LATENCY_NET : 0.0);
}

/*
 * Overlap is not free: while a collective runs beside compute it takes SMs (NCCL runs one
 * CTA per channel, up to 32 channels on Hopper, 24% of 132 SMs; TE's userbuffers 16-24 SMs
 * for TP reduce-scatters) and HBM bandwidth (every byte it moves is read and written in
 * memory), so the compute it hides slows down. Each hidden second of communication costs
 * ENG_OVERLAP_TAX seconds of compute (Calculon's `processor_usage` models the same effect
 * as a fraction of the processor the communication holds). One figure for every overlap,
 * calibrated once on the published FSDP / ZeRO-3 runs (docs/step-validation.md).
 */
#define ENG_OVERLAP_TAX 0.20

/* Time a communication of `comm` seconds costs when overlapped with `compute` seconds of
 * work: what does not fit behind it, plus the slowdown of what it hides. */
double eng_overlapped(double comm, double compute)
{
	double hidden = eng_min(comm, eng_max(compute, 0.0));

	return comm - hidden + ENG_OVERLAP_TAX * hidden;
}
