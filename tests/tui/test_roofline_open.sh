#!/bin/sh
# Under an open load (rate, with an engine) the explorer's roofline says what the report, the
# JSON and `report --explain` say: its decode point's verdict (D, focused at start in
# inference) is the report's word for word and names the mean the engine holds
# while it runs (serving.in_engine ÷ serving.busy, the JSON's decode sequences; the memory's KV
# sequences are the time average, in_engine), not the batch knob; in Chinese too.
. "$(dirname "$0")/lib.sh"
command -v python3 >/dev/null 2>&1 || { echo "SKIP: no python3"; exit 0; }
ARGS="--mode infer --model llama-3-70b --gpu h100-sxm --gpus 2 --tp 2 --engine vllm --weight-format fp8 \
--prompt 5000 --generate 500 --rate 0.8"
mean=$("$NAPKIN" report $ARGS --format json | python3 -c '
import json, sys
j = json.load(sys.stdin)
d = [p for p in j["roofline"]["points"] if p["name"] == "decode"][0]
s = j["serving"]
assert d["sequences_from"] == "open_load_mean", d
m = s["in_engine"] / s["busy"]
assert abs(d["sequences"] - m) <= 1e-9 * m and s["in_engine"] == j["memory"]["kv_sequences"], (d, s)
assert "decode of %.1f sequences on average while it runs" % m in d["verdict"], d
print("%.1f" % m)') || fail "the JSON's decode point is not the open load's"
"$NAPKIN" report --explain $ARGS | grep -A8 '^roofline.decode' | tr -s ' \n' ' ' | grep -q "decode of $mean sequences on average" ||
	fail "explain roofline.decode does not name the mean $mean"
for lang in en zh; do
	if [ "$lang" = zh ]; then verdict="运行时平均 $mean 个序列的解码"; else verdict="decode of $mean sequences on average while it runs"; fi
	# the report's verdict, its wrapped lines joined, spaces dropped (the explorer wraps elsewhere)
	want=$(COLUMNS=100 "$NAPKIN" report --lang "$lang" $ARGS | sed -n '/^ *→ /,/^$/p' | sed 's/→//' | tr -d ' \n')
	case $want in *"$(printf '%s' "$verdict" | tr -d ' ')"*) ;; *) fail "$lang: the report's verdict '$want' does not name the mean $mean" ;; esac
	start 160 48 --lang "$lang" $ARGS
	wait_for "$verdict" "$lang: the roofline's verdict does not name the mean $mean"
	# the pane's verdict: from its first line to the pane's bottom, the rightmost pane's text
	got=$(screen | python3 -c '
import sys
lines, out, on = sys.stdin.read().split("\n"), "", False
for l in lines:
    if sys.argv[1] in l: on = True
    if on:
        if "└" in l: break
        out += l.split("│")[-2]
print("".join(out.split()))' "$verdict")
	[ "$got" = "$want" ] || fail "$lang: the explorer's verdict '$got' is not the report's '$want'"
	keys q
	wait_exit >/dev/null
	stop
done
echo "ok: roofline under an open load"
