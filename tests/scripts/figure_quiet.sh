#!/bin/sh
# src/figure writes only to the stream it is given: its objects name no stdout, stderr,
# printf, puts, putchar, perror, exit, abort or getenv (nm's undefined symbols).
set -u
LIB=${1:?usage: $0 libnapkin_figure.a}
NM=${NM:-nm}
bad=$("$NM" -u "$LIB" | awk '{print $NF}' | grep -E '^(stdout|stderr|printf|vprintf|puts|putchar|perror|exit|_exit|abort|getenv)(@.*)?$' | sort -u)
[ -z "$bad" ] || { echo "FAIL: src/figure uses $bad"; exit 1; }
"$NM" -u "$LIB" | grep -q 'fprintf' || { echo "FAIL: nm found no fprintf: not the figure library?"; exit 1; }
echo "ok: src/figure prints nowhere but its stream"
