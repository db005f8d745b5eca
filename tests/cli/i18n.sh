#!/bin/sh
# napkin in Chinese (docs/i18n.md), from the real binary: --lang on every command and the
# environment as gettext reads it, with no zh_CN locale generated (the catalogue is compiled
# in and read by napkin itself); the data contracts (JSON, YAML) byte-identical in both
# languages; the text report's columns aligned by display width (a CJK character is two
# columns, printf's %-17s counts bytes); a lesson without Chinese says so in Chinese.
#   sh tests/cli/i18n.sh PATH/TO/napkin
set -u
NAPKIN=${1:?usage: $0 PATH/TO/napkin}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
fails=0
fail() {
	echo "FAIL: $*"
	fails=$((fails + 1))
}
# a clean environment: no language from the machine running the tests
unset LANGUAGE LC_ALL LC_MESSAGES LANG
zh='每张 GPU 的显存'

# --lang zh, --lang=zh and the environment
"$NAPKIN" report --lang zh >"$tmp/zh" || fail "report --lang zh: status $?"
grep -q "^$zh" "$tmp/zh" || fail "report --lang zh is not in Chinese"
grep -q '^计算量与时间' "$tmp/zh" || fail "report --lang zh: no compute section in Chinese"
"$NAPKIN" report --lang=zh | cmp -s - "$tmp/zh" || fail "--lang=zh differs from --lang zh"
LANG=zh_CN.UTF-8 "$NAPKIN" report | cmp -s - "$tmp/zh" || fail "LANG=zh_CN.UTF-8 is not Chinese"
LC_ALL=C.UTF-8 "$NAPKIN" report --lang zh | cmp -s - "$tmp/zh" || fail "LC_ALL=C.UTF-8 --lang zh is not Chinese"
LC_ALL=zh_CN.UTF-8 "$NAPKIN" report --lang en | grep -q "^Memory per GPU" || fail "--lang en does not win over LC_ALL"
LANGUAGE=zh_CN:en LANG=en_US.UTF-8 "$NAPKIN" report | grep -q "^$zh" || fail "LANGUAGE=zh_CN is not Chinese"
LANGUAGE=zh_CN LANG=C.UTF-8 "$NAPKIN" report | grep -q "^Memory per GPU" ||
	fail "LANGUAGE under the C locale is not ignored (GNU gettext ignores it)"
LANG=C.UTF-8 "$NAPKIN" report | grep -q "^Memory per GPU" || fail "LANG=C.UTF-8 is not English"
"$NAPKIN" report --lang pt-BR | grep -q "^Memory per GPU" || fail "a language without a catalogue is not English"
"$NAPKIN" report --lang 'x!' >/dev/null 2>"$tmp/err" && fail "--lang x! was accepted"
grep -q "napkin report: --lang: 'x!' is not a language code" "$tmp/err" || fail "--lang x!: $(cat "$tmp/err")"
"$NAPKIN" report --lang 2>"$tmp/err" && fail "--lang without a value was accepted"
grep -q -- "--lang needs a value" "$tmp/err" || fail "--lang without a value: $(cat "$tmp/err")"

# the contracts stay English: byte-identical in both languages
for fmt in json yaml; do
	for args in "" "--mode inference" "--finetune qlora"; do
		# shellcheck disable=SC2086
		"$NAPKIN" report $args --format $fmt >"$tmp/en.$fmt"
		# shellcheck disable=SC2086
		LANG=zh_CN.UTF-8 "$NAPKIN" report $args --format $fmt --lang zh | cmp -s - "$tmp/en.$fmt" ||
			fail "report $args --format $fmt differs between English and Chinese"
	done
done

# the memory rows' byte column ends at one display column in Chinese (columns by width)
python3 - "$tmp/zh" <<'PY' || fail "the Chinese text report's memory column is not aligned"
import sys, unicodedata
def width(s):
    return sum(0 if unicodedata.combining(c) else 2 if unicodedata.east_asian_width(c) in 'WF' else 1 for c in s)
ends = set()
for line in open(sys.argv[1], encoding='utf-8'):
    if len(line) > 4 and line[:2] == '  ' and line[2] in 'WwMGOALsKC' and line[3] == ' ' and 'iB' in line:
        ends.add(width(line[:line.index('iB') + 2]))
if len(ends) != 1:
    print('memory rows end at columns', sorted(ends))
    sys.exit(1)
PY

# --help in Chinese, for napkin and every command (the --lang line in each)
"$NAPKIN" --help --lang zh | grep -q '^用法：' || fail "napkin --help --lang zh is not Chinese"
for c in report sweep compare plan presets probe lesson explore; do
	"$NAPKIN" $c --help --lang zh >"$tmp/help" || fail "$c --help --lang zh: status $?"
	grep -q -- '--lang en|zh' "$tmp/help" || fail "$c --help lacks --lang"
done
"$NAPKIN" report --help --lang zh | grep -q '本帮助' || fail "report --help --lang zh is not Chinese"
# the man page is built in English whatever the locale asks
LANG=zh_CN.UTF-8 "$NAPKIN" --lang en --man | grep -q 'resource accounting' || fail "--lang en --man is not English"

# errors from cli in Chinese; the knob names stay as typed
"$NAPKIN" report --lang zh --bacth 4 2>"$tmp/err" && fail "--bacth was accepted"
grep -q '未知选项 --bacth' "$tmp/err" || fail "unknown option in Chinese: $(cat "$tmp/err")"

# a lesson in Chinese; one that lacks Chinese says so, in Chinese
"$NAPKIN" lesson tests/data/lessons/english-only.yaml --text --lang zh >"$tmp/lesson" || fail "lesson --lang zh: status $?"
grep -q '本课尚无中文版本' "$tmp/lesson" || fail "a lesson without Chinese does not say so"
grep -q '^第 1 步' "$tmp/lesson" || fail "the lesson's scaffolding is not Chinese"
"$NAPKIN" lesson tests/data/lessons/english-only.yaml --text | grep -q '本课' && fail "English lesson says it lacks Chinese"

[ "$fails" = 0 ] && echo "ok: napkin in Chinese (--lang, LANG, LANGUAGE), contracts identical, columns aligned"
exit "$fails"
