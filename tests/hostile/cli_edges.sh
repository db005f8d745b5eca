#!/bin/sh
# Knobs at their edges through the command line: 1 and 100T parameters, sequence 1 and 10M,
# batch 1 and 10^6, 1 and 100k GPUs, MFU 1e-9 and 1, alone and together, in training and
# inference, in every report format. Each run either succeeds with finite figures (no NaN or
# infinity anywhere in the text, JSON, YAML or Markdown) or fails with status 2 and a message
# that names the knob; it never crashes. Values that mean nothing are refused.
#   sh tests/hostile/cli_edges.sh PATH/TO/napkin
set -u
NAPKIN=${1:?usage: $0 PATH/TO/napkin}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
fails=0
runs=0

fail() {
	echo "FAIL: $*"
	fails=$((fails + 1))
}

nonfinite() { grep -Eiq '(^|[^[:alnum:]_])[-+]?(nan|inf|infinity)([^[:alnum:]_]|$)' "$1"; }

# edge WANT ARGS...: WANT is ok (must succeed), error (must fail with status 2) or any
edge() {
	want=$1
	shift
	for mode in train infer; do
		for fmt in text json yaml markdown; do
			runs=$((runs + 1))
			"$NAPKIN" report --mode "$mode" "$@" --format "$fmt" --explain >"$tmp/out" 2>"$tmp/err"
			rc=$?
			if [ $rc -ge 128 ] || { [ $rc -ne 0 ] && [ $rc -ne 2 ]; }; then
				fail "$mode $* ($fmt): status $rc: $(head -c 300 "$tmp/err")"
				continue
			fi
			if [ $rc -eq 0 ]; then
				[ "$want" = error ] && fail "$mode $* ($fmt): accepted"
				nonfinite "$tmp/out" && fail "$mode $* ($fmt): NaN or infinity: $(grep -Ein 'nan|inf' "$tmp/out" | grep -Eiv 'inference|info' | head -3)"
				[ -s "$tmp/out" ] || fail "$mode $* ($fmt): no output"
				if [ "$fmt" = json ] && command -v python3 >/dev/null 2>&1; then
					python3 -c 'import json,sys; json.load(open(sys.argv[1]), parse_constant=lambda c: sys.exit("constant " + c))' \
						"$tmp/out" || fail "$mode $* (json): not strict JSON"
				fi
			else
				[ "$want" = ok ] && fail "$mode $* ($fmt): refused: $(head -c 300 "$tmp/err")"
				grep -q '^napkin report: ' "$tmp/err" || fail "$mode $* ($fmt): no message: $(head -c 300 "$tmp/err")"
			fi
		done
	done
}

# one knob at a time
edge error --params 1
edge ok --params 10M
edge ok --params 100T
edge ok --params 1000T
edge ok --seq 1
edge ok --seq 10M
edge ok --batch 1
edge ok --batch 1000000
edge ok --gpus 1
edge ok --gpus 100000
edge ok --mfu 1e-9
edge ok --mfu 1
edge ok --tokens 1
edge ok --prompt 1 --generate 1
edge any --prompt 10M --generate 10M
edge any --params 100T --gpus 1
# all at once
edge any --params 100T --gpus 100000 --seq 10M --batch 1000000 --mfu 1e-9
edge any --params 100T --gpus 100000 --seq 10M --batch 1000000 --mfu 1
edge any --params 10M --gpus 1 --seq 1 --batch 1 --mfu 1e-9 --tokens 1
edge any --params 10M --gpus 100000 --seq 1 --batch 1 --mfu 1
edge any --seq 10M --batch 1000000 --grad-accum 1000000
edge any --tokens-per-s 1e-9 --gpus 100000
edge any --step-time 1e-9
edge any --achieved-flops 1
# meaningless values: refused, with the knob named
for bad in "--params 0" "--params -7B" "--mfu 0" "--mfu 1.5" "--mfu -0.1" "--gpus 0" "--batch 0" "--seq 0" \
	"--batch 1.5" "--gpus 1e400" "--mfu nan" "--seq inf" "--batch 0x10" "--tokens -1" "--tp 3" "--zero 4"; do
	# shellcheck disable=SC2086
	edge error $bad
	# shellcheck disable=SC2086
	set -- $bad
	key=${1#--}
	"$NAPKIN" report $bad >/dev/null 2>"$tmp/err"
	grep -q -- "$(echo "$key" | tr - _)\|$key" "$tmp/err" || fail "$bad: the message does not name $key: $(cat "$tmp/err")"
done

echo "$runs runs, $fails failures"
[ $fails -eq 0 ] || exit 1
echo "ok: knobs at their edges"
