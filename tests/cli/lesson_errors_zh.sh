#!/bin/sh
# A teacher's lesson file with a mistake, in Chinese (docs/i18n.md): the lesson loader's and the
# lesson checks' errors keep their file:line:col and are whole Chinese sentences with the
# suggestion inside ("是不是想写“memory”？"); in English they read as before.
#   sh tests/cli/lesson_errors_zh.sh PATH/TO/napkin
set -u
NAPKIN=${1:?usage: $0 PATH/TO/napkin}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
unset LANGUAGE LC_ALL LC_MESSAGES LANG
fails=0
fail() {
	echo "FAIL: $*"
	fails=$((fails + 1))
}
# expect FILE LANG WANT: napkin lesson FILE --text fails with status 2 and says WANT on stderr
expect() {
	"$NAPKIN" lesson "$1" --text --lang "$2" >/dev/null 2>"$tmp/err"
	st=$?
	[ "$st" = 2 ] || fail "$1 --lang $2: status $st, not 2"
	grep -qF -- "$3" "$tmp/err" || fail "$1 --lang $2: no '$3' in: $(cat "$tmp/err")"
}
printf 'lesson: x\ntitle: "X"\nsteps:\n  - title: "a"\n    text: "b"\n    pane: memroy\n' >"$tmp/pane.yaml"
expect "$tmp/pane.yaml" zh "pane.yaml:6:11: “memroy”不是面板（是不是想写“memory”？）"
expect "$tmp/pane.yaml" en "pane.yaml:6:11: 'memroy' is not a pane (did you mean 'memory'?) (in steps[0].pane)"
printf 'lesson: x\ntitle: "X"\nstepz: []\n' >"$tmp/key.yaml"
expect "$tmp/key.yaml" zh "key.yaml:3:1: 未知的键“stepz”（是不是想写“steps”？）"
expect "$tmp/key.yaml" en "key.yaml:3:1: unknown key 'stepz' (did you mean 'steps'?)"
printf 'lesson: x\ntitle: "X"\nsteps:\n  - title: "a"\n    text: "b"\n    check: "memroy.fits == true"\n' >"$tmp/check.yaml"
expect "$tmp/check.yaml" zh "check.yaml:6:12: “memroy.fits”不是结果"
expect "$tmp/check.yaml" en "check.yaml:6:12: 'memroy.fits' is not a result"
[ "$fails" = 0 ] && echo "ok: lesson file errors in Chinese and in English"
exit "$fails"
