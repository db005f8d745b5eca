#!/bin/sh
# napkin's benchmark: the engine (one full recompute, each solve, a 64-point sweep and a 64 x 64
# heatmap through engine_sweep_run, the planner's candidates per second) and the
# explorer (startup to the first frame, keystroke to the redrawn frame, idle wakeups, peak
# memory), each as a median beside its aim. Figures are printed, not asserted.
#
#   ./scripts/bench.sh            (builds $BUILD, default build, when needed)
#   BENCH_IDLE=10 BENCH_KEYS=200 BENCH_STARTS=20 ./scripts/bench.sh
#
# The explorer's figures need tmux and python3 (bench/tui_bench.py); without them only the
# engine's are printed.
set -eu
cd "$(dirname "$0")/.."
build=${BUILD:-build}
if [ ! -f "$build/CMakeCache.txt" ]; then
	cmake -S . -B "$build" -DNAPKIN_WERROR=ON >/dev/null
fi
cmake --build "$build" -j "$(nproc 2>/dev/null || echo 2)" --target napkin bench_engine bench_rss >/dev/null

"$build/bench/bench_engine"
echo
if cmake --build "$build" --target bench_views >/dev/null 2>&1; then
	"$build/bench/bench_views"
	echo
fi
if command -v tmux >/dev/null 2>&1 && command -v python3 >/dev/null 2>&1; then
	python3 bench/tui_bench.py --napkin "$build/napkin" --rss-tool "$build/bench/bench_rss" \
		--idle "${BENCH_IDLE:-10}" --keys "${BENCH_KEYS:-200}" --starts "${BENCH_STARTS:-20}"
else
	echo "bench.sh: tmux or python3 missing: the explorer's figures are left out"
fi
