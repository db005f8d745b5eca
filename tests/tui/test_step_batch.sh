#!/bin/sh
# Stepping the micro-batch changes the memory figures, and they agree with
# `napkin report --format json` for the same knobs.
. "$(dirname "$0")/lib.sh"

# the value after LABEL in the memory legend, e.g. "18.77 GiB"
mem() { line_of "$1 " | sed -E "s/.*$1 +([0-9.]+ [KMGT]?i?B).*/\\1/"; }

# the report's figure in the same format (GiB with 2 decimals, MiB ...)
report() {
	"$NAPKIN" report --format json "$@" | python3 -c '
import json, sys
d = json.load(sys.stdin)["memory"]
def fmt(b):
    units = ["B", "KiB", "MiB", "GiB", "TiB"]; i = 0; v = abs(b)
    while v >= 1024 and i < 4: v /= 1024; i += 1
    return "%.0f B" % v if i == 0 else "%.*f %s" % (1 if v >= 100 else 2, v, units[i])
print(fmt(d["activations"]), "|", fmt(d["total"]), "|", fmt(d["weights"]))'
}

start 120 40
wait_for 'activations +[0-9]' 'no activations figure'
a1=$(mem activations)
t1=$(line_of ' total ' | sed -E 's/.* total +([0-9.]+ GiB) of.*/\1/')
want=$(report --batch 1)
[ "$a1 | $t1 | $(mem weights)" = "$want" ] || fail "batch 1: screen '$a1 | $t1 | $(mem weights)', report '$want'"
keys Right
wait_for 'micro-batch +2 ' 'the micro-batch did not step to 2'
wait_gone "activations +$a1" 'activations did not change'
a2=$(mem activations)
t2=$(line_of ' total ' | sed -E 's/.* total +([0-9.]+ GiB) of.*/\1/')
want=$(report --batch 2)
[ "$a2 | $t2 | $(mem weights)" = "$want" ] || fail "batch 2: screen '$a2 | $t2 | $(mem weights)', report '$want'"
[ "$a1" != "$a2" ] || fail "activations unchanged"
keys q
wait_for 'unsaved changes.*quit anyway' 'q asked nothing after a change'
keys y
[ "$(wait_exit)" = 0 ] || fail "exit status"
echo "ok: step batch ($a1 -> $a2, agrees with napkin report)"
