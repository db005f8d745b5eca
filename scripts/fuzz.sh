#!/bin/sh
# Fuzzes napkin's parsers with libFuzzer: the preset loader (GPU, model, scenario), Hugging
# Face config.json, lessons, the unit parser and knob text, and command-line parsing.
#
#   ./scripts/fuzz.sh [SECONDS] [TARGET...]    each target for SECONDS (default 60)
#
# Builds build-fuzz (clang, ASan + UBSan, libyaml compiled from its sources: fetched once by
# scripts/fetch-libyaml.sh), runs NAPKIN_FUZZ_JOBS targets at a time (default 2), and prints
# executions, coverage and findings per target. The corpus grows in
# build-fuzz/fuzz/corpus/TARGET from one run to the next; logs are in build-fuzz/fuzz/logs.
# A crash leaves its input in build-fuzz/fuzz/run/TARGET/: minimise it with
#   build-fuzz/fuzz/fuzz_TARGET -minimize_crash=1 -runs=100000 FILE
# and add it to tests/data/fuzz/TARGET/, where the unit tests replay it with any compiler.
# Exits 1 when a target found something.
set -eu
cd "$(dirname "$0")/.."
secs=${1:-60}
[ $# -gt 0 ] && shift
build=${BUILD:-build-fuzz}
jobs=${NAPKIN_FUZZ_JOBS:-2}
root=$(pwd)

[ -f third_party/libyaml/src/parser.c ] || ./scripts/fetch-libyaml.sh
CC=${CC:-clang} cmake -S . -B "$build" -DNAPKIN_FUZZ=ON -DNAPKIN_SANITIZE=ON -DNAPKIN_WERROR=ON >/dev/null
cmake --build "$build" -j "$(nproc 2>/dev/null || echo 2)" --target fuzz_all >/dev/null

fz=$root/$build/fuzz
targets=$*
if [ -z "$targets" ]; then
	for f in "$fz"/fuzz_*; do
		[ -x "$f" ] && targets="$targets ${f##*/fuzz_}"
	done
fi

# the seed folders of each target (as in fuzz/targets.cmake)
seeds() {
	case $1 in
	gpu) echo "presets/gpus tests/data/presets/bad" ;;
	model) echo "presets/models tests/data/presets/bad" ;;
	hf) echo "tests/data/hf tests/data/presets/bad" ;;
	scenario) echo "presets/scenarios tests/data/presets/bad" ;;
	lesson) echo "presets/lessons tests/data/presets/bad" ;;
	esac
	for d in "fuzz/seeds/$1" "tests/data/fuzz/$1"; do
		[ -d "$d" ] && echo "$d"
	done
	return 0
}

run() {
	t=$1
	mkdir -p "$fz/corpus/$t" "$fz/run/$t" "$fz/logs"
	set -- -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
		-artifact_prefix="$fz/run/$t/"
	[ -f "fuzz/dict/$t.dict" ] && set -- "$@" -dict="$root/fuzz/dict/$t.dict"
	# libFuzzer writes new inputs into the FIRST directory: the build tree's corpus, never
	# the seed folders of the source tree that follow it
	set -- "$@" "$fz/corpus/$t"
	for d in $(seeds "$t"); do
		set -- "$@" "$root/$d"
	done
	(cd "$fz/run/$t" && ASAN_OPTIONS=detect_leaks=1 "$fz/fuzz_$t" "$@" </dev/null >"$fz/logs/$t.log" 2>&1) || true
}

echo "fuzzing for ${secs} s each, $jobs at a time:$targets"
n=0
for t in $targets; do
	[ -x "$fz/fuzz_$t" ] || { echo "fuzz.sh: no target fuzz_$t" >&2; exit 2; }
	rm -f "$fz/run/$t"/crash-* "$fz/run/$t"/leak-* "$fz/run/$t"/timeout-* "$fz/run/$t"/oom-*
	run "$t" &
	n=$((n + 1))
	[ $((n % jobs)) -eq 0 ] && wait
done
wait

status=0
printf '%-10s %8s %12s %9s %7s %7s %7s  %s\n' target seconds executions exec/s cov ft corpus findings
for t in $targets; do
	log=$fz/logs/$t.log
	runs=$(sed -nE 's/^Done ([0-9]+) runs in ([0-9]+) second.*/\1/p' "$log" | tail -n1)
	took=$(sed -nE 's/^Done ([0-9]+) runs in ([0-9]+) second.*/\2/p' "$log" | tail -n1)
	last=$(grep -E '^#[0-9]+' "$log" | grep 'cov:' | tail -n1)
	cov=$(echo "$last" | sed -nE 's/.* cov: ([0-9]+).*/\1/p')
	ft=$(echo "$last" | sed -nE 's/.* ft: ([0-9]+).*/\1/p')
	corp=$(echo "$last" | sed -nE 's/.* corp: ([0-9]+)\/.*/\1/p')
	found=$(ls "$fz/run/$t" 2>/dev/null | grep -E '^(crash|leak|timeout|oom)-' || true)
	if [ -n "$found" ] || [ -z "$runs" ]; then
		status=1
		[ -z "$found" ] && found="stopped early (see $build/fuzz/logs/$t.log)"
	else
		found=none
	fi
	eps=0
	[ -n "$runs" ] && [ "${took:-0}" -gt 0 ] && eps=$((runs / took))
	printf '%-10s %8s %12s %9s %7s %7s %7s  %s\n' "$t" "${took:--}" "${runs:--}" "$eps" "${cov:--}" "${ft:--}" \
		"${corp:--}" "$(echo $found)"
done
[ $status -eq 0 ] || echo "fuzz.sh: findings are in $build/fuzz/run/TARGET/ (logs in $build/fuzz/logs/)"
exit $status
