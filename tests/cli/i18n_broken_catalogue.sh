#!/bin/sh
# A catalogue given through NAPKIN_LOCALEDIR whose translations read other printf arguments
# than the code passes (%s made %p, %d made %s: the shipped catalogue compiled by msgfmt
# without --check) crashed `napkin --lang zh report` and `plan` in printf. Each such message
# is English now, with a warning naming it; every other message stays Chinese; status 0.
# A single bad message, and bytes that are not UTF-8 inside a directive, the same. A
# catalogue refused whole says why instead of switching to English silently.
set -u
NAPKIN=${1:?usage: $0 PATH/TO/napkin}
case $NAPKIN in /*) ;; *) NAPKIN=$(pwd)/$NAPKIN ;; esac
PO=$(dirname "$0")/../../po/zh_CN.po
fail() { echo "FAIL: $*"; exit 1; }
command -v msgfmt >/dev/null 2>&1 || { echo "ok: no msgfmt to build a broken catalogue"; exit 0; }
[ -f "$PO" ] || fail "no $PO"
"$NAPKIN" --lang zh report | grep -q '每张 GPU 的显存' || { echo "ok: built without Chinese"; exit 0; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# $1: the directory; stdin: the .po, written through awk program $2 applied to msgstr lines only
mkcat() {
	mkdir -p "$1/zh_CN/LC_MESSAGES"
	awk -v prog="$2" '
		/^msgstr/ { instr = 1 }
		/^msgid/ || /^#/ || /^$/ { instr = 0 }
		{
			if (instr && prog == "all") { gsub(/%s/, "%p"); gsub(/%d/, "%s") }
			if (instr && prog == "one" && $0 ~ /"在 %s 个 %lld 张 GPU 的布局中搜索；%s 个放得下\\n"$/) sub(/%lld/, "%s")
			if (instr && prog == "utf8" && $0 ~ /^msgstr "%s 在 %s × %s 上 · %s · %s · %s%s%s"$/) sub(/%s/, "%Qs")
			print
		}' "$PO" >"$1/napkin.po" || fail "awk"
	msgfmt -o "$1/zh_CN/LC_MESSAGES/napkin.mo" "$1/napkin.po" || fail "msgfmt $2"
}

# every %s and %d of every translation changed (the warning's own translation too: it is English)
mkcat "$tmp/all" all
NAPKIN_LOCALEDIR="$tmp/all" "$NAPKIN" --lang zh report >"$tmp/out" 2>"$tmp/err" ||
	fail "report with a catalogue of mismatched conversions: exit $? $(tail -3 "$tmp/err")"
grep -q '^napkin: warning: .*zh_CN/LC_MESSAGES/napkin.mo: the translation of ".*" is not used (English instead): argument 1 is %p in the translation but %s in the original$' "$tmp/err" ||
	fail "no warning naming a refused translation: $(head -3 "$tmp/err")"
grep -q 'more translations are not used' "$tmp/err" || fail "no count of the other refused translations"
[ "$(wc -l <"$tmp/err")" -le 10 ] || fail "more than 10 warning lines: $(wc -l <"$tmp/err")"
grep -q "O 优化器状态" "$tmp/out" || fail "a translation without conversions was not kept"
NAPKIN_LOCALEDIR="$tmp/all" "$NAPKIN" --lang zh plan >"$tmp/out" 2>"$tmp/err" || fail "plan: exit $?"
NAPKIN_LOCALEDIR="$tmp/all" "$NAPKIN" --lang zh report --format json >"$tmp/out" 2>/dev/null || fail "report --format json: exit $?"

# one translation wrong: plan's "searched ... layouts" line (a %lld read as %s crashed its printf); it is
# English, the rest Chinese
mkcat "$tmp/one" one
NAPKIN_LOCALEDIR="$tmp/one" "$NAPKIN" --lang zh plan >"$tmp/out" 2>"$tmp/err" || fail "plan with one bad message: exit $?"
# the warning in Chinese (its translation is sound), naming the message and its first wrong argument
[ "$(wc -l <"$tmp/err")" -eq 1 ] || fail "not one warning for the bad message: $(cat "$tmp/err")"
grep -q '^napkin：警告：.*/one/zh_CN/LC_MESSAGES/napkin.mo：“searched %s layouts of %lld GPUs; %s fit.*”的翻译未被使用（改用英文原文）：第 2 个参数在翻译中是 %s，在原文中是 %lld$' "$tmp/err" ||
	fail "the warning does not name the message: $(cat "$tmp/err")"
grep -q 'searched .* layouts of 8 GPUs' "$tmp/out" || fail "the refused message is not English: $(head -5 "$tmp/out")"
grep -q '用法\|目标\|候选\|显存' "$tmp/out" || fail "plan lost its other Chinese: $(head -5 "$tmp/out")"

# a byte that is not UTF-8 inside a directive (msgfmt refuses one in the .po: put in the .mo
# after): the report's title in English, no crash
mkcat "$tmp/utf8" utf8
perl -0777 -pi -e 's/%Qs \xe5\x9c\xa8/%\xffs \xe5\x9c\xa8/' "$tmp/utf8/zh_CN/LC_MESSAGES/napkin.mo" || fail "perl"
grep -q "$(printf '%%\377s')" "$tmp/utf8/zh_CN/LC_MESSAGES/napkin.mo" || fail "no byte 0xff in the catalogue"
NAPKIN_LOCALEDIR="$tmp/utf8" "$NAPKIN" --lang zh report >"$tmp/out" 2>"$tmp/err" || fail "report: exit $?"
grep -q '：“%s on %s × %s · %s · %s · %s%s%s”的翻译未被使用（改用英文原文）：% 转换中有不是 UTF-8 的字节$' "$tmp/err" || fail "no warning for the byte: $(cat "$tmp/err")"
head -1 "$tmp/out" | grep -q '^napkin · Llama-2-7B on 8 × H100 SXM' || fail "the title is not English: $(head -1 "$tmp/out")"

# refused whole (cut short): English, and the reason
mkdir -p "$tmp/cut/zh_CN/LC_MESSAGES"
head -c 20 "$tmp/all/zh_CN/LC_MESSAGES/napkin.mo" >"$tmp/cut/zh_CN/LC_MESSAGES/napkin.mo"
NAPKIN_LOCALEDIR="$tmp/cut" "$NAPKIN" --lang zh report >"$tmp/out" 2>"$tmp/err" || fail "a cut catalogue: exit $?"
grep -q '^napkin: warning: NAPKIN_LOCALEDIR: .*/cut/zh_CN/LC_MESSAGES/napkin.mo is refused: shorter than a .mo header; English is used$' "$tmp/err" ||
	fail "a catalogue refused whole says nothing: $(cat "$tmp/err")"
grep -q 'Memory per GPU' "$tmp/out" || fail "a cut catalogue is not English"
# none there: the built-in catalogue, saying so; --lang en reads none and says nothing
NAPKIN_LOCALEDIR="$tmp/none" "$NAPKIN" --lang zh report >"$tmp/out" 2>"$tmp/err" || fail "a missing catalogue: exit $?"
grep -q '^napkin：警告：NAPKIN_LOCALEDIR：没有翻译目录 .*/none/zh_CN/LC_MESSAGES/napkin.mo（No such file or directory）；改用内置的翻译目录$' "$tmp/err" || fail "missing: $(cat "$tmp/err")"
grep -q '每张 GPU 的显存' "$tmp/out" || fail "a missing catalogue is not the built-in Chinese"
NAPKIN_LOCALEDIR="$tmp/none" "$NAPKIN" --lang en report >/dev/null 2>"$tmp/err" || fail "--lang en: exit $?"
[ ! -s "$tmp/err" ] || fail "--lang en warns: $(cat "$tmp/err")"
"$NAPKIN" --lang zh report >/dev/null 2>"$tmp/err" || fail "the built-in catalogue: exit $?"
[ ! -s "$tmp/err" ] || fail "the built-in catalogue warns: $(cat "$tmp/err")"
echo "ok: mismatched translations are English with a warning, the rest Chinese"
