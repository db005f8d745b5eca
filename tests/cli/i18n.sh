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
# with the engine's sentences in them (explanations, warnings, verdicts) and the other commands'
# contracts: the engine's translator is off for them
for args in "report --format json --explain" "report --format yaml --explain --gpus 64 --tp 16 --pp 4" \
	"compare --tp 1,2 --format json" "plan --format json --gpus 16" "sweep batch=1..4 --format json" \
	"sweep batch=1..4 --format csv"; do
	# shellcheck disable=SC2086
	"$NAPKIN" $args >"$tmp/en.out"
	# shellcheck disable=SC2086
	"$NAPKIN" $args --lang zh | cmp -s - "$tmp/en.out" || fail "$args differs between English and Chinese"
done
# ... while the text report's explanations and warnings are Chinese, with the same numbers
"$NAPKIN" report --explain --gpus 64 --tp 16 --pp 4 --lang zh >"$tmp/zh.explain"
grep -q '^memory.weights: 一张 GPU 上的参数$' "$tmp/zh.explain" || fail "report --explain --lang zh: explanations not Chinese"
grep -q '^  ! tp 16 跨越了节点（gpus_per_node 8）' "$tmp/zh.explain" || fail "report --lang zh: warnings not Chinese"

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

# the preset loader in Chinese (src/presets): a broken file's errors keep their file:line:col,
# ASCII, at the start, and the message and its "(in key)" are Chinese
bad=tests/data/presets/bad
"$NAPKIN" presets check "$bad/syntax-error.yaml" "$bad/not-utf8.yaml" "$bad/scenario-unknown-model.yaml" \
	"$bad/scenario-missing-file.yaml" --lang zh >"$tmp/check" 2>&1 && fail "presets check passed broken files"
for want in "^$bad/syntax-error.yaml:4:17: 语法错误：did not find expected ',' or '}'（while parsing a flow mapping，始于第 3 行第 13 列）（位于 peak_flops）\$" \
	"^$bad/not-utf8.yaml:1:10: 不是 UTF-8 文本：字节 0xE9 不能开始或延续一个 UTF-8 字符（请把文件存为 UTF-8）\$" \
	"^$bad/scenario-unknown-model.yaml:1:8: 未知模型 'llama-2-7'（是不是想写 'llama-2-7b' 或 'llama-2-70b'？）：请给出预设 id（napkin presets list models）、文件或 7B 这样的规模（位于 model）\$" \
	"^$bad/scenario-missing-file.yaml:1:8: 无法读取模型文件 '$bad/no-such-model.yaml'："; do
	grep -q "$want" "$tmp/check" || fail "presets check --lang zh lacks: $want; got: $(cat "$tmp/check")"
done
# libyaml's own words ("did not find expected ...") are quoted as libyaml writes them; napkin's are not English
grep -q '(in \| is not \|cannot read\|syntax error\|unknown model\|did you mean' "$tmp/check" &&
	fail "presets check --lang zh has English: $(cat "$tmp/check")"
"$NAPKIN" presets check "$bad/syntax-error.yaml" 2>&1 | grep -q "^$bad/syntax-error.yaml:4:17: syntax error: did not find" ||
	fail "presets check in English is not English"

# a Hugging Face config.json's notes (an unknown model_type and the traits assumed, gemma2's
# uncounted norms, a quantization_config napkin does not know) are Chinese on stderr, at their
# file:line:col; the JSON report of each model is the same bytes in both languages
hf=tests/data/hf
# hf_note NAME LINE:COL NOTE
hf_note() {
	"$NAPKIN" report --model "$hf/$1.json" --format json >"$tmp/hf.en" 2>"$tmp/hf.en.err" || fail "report --model $1.json: status $?"
	"$NAPKIN" report --model "$hf/$1.json" --format json --lang zh >"$tmp/hf.zh" 2>"$tmp/hf.zh.err" ||
		fail "report --model $1.json --lang zh: status $?"
	cmp -s "$tmp/hf.en" "$tmp/hf.zh" || fail "report --model $1.json --format json differs between English and Chinese"
	grep -qF "$hf/$1.json:$2: $3" "$tmp/hf.zh.err" || fail "the note on $1.json is not Chinese: $(cat "$tmp/hf.zh.err")"
	grep -qF "$hf/$1.json:$2: warning: " "$tmp/hf.en.err" || fail "the note on $1.json is not English: $(cat "$tmp/hf.en.err")"
}
hf_note unknown-type 2:17 "警告：未知的 model_type 'napkin_test_decoder'：假定为门控 MLP、RMSNorm、无偏置、不共享嵌入、旋转位置编码（要改用别的，请设置 mlp、norm、bias、tie_word_embeddings 和 position）"
hf_note gemma2-9b 19:17 "警告：gemma2 每层有四个 norm，napkin 只算两个：301056 个参数（2 x 层数 x hidden）没有计入"
hf_note llama-2-7b-gptq-3bit 24:26 "警告：quantization_config（gptq，3 位权重，每组 128 个）不是 napkin 认识的格式"

# napkin presets: its listing and show's comments in Chinese (summaries in the interface's
# language), the YAML it shows the same bytes in both languages
"$NAPKIN" presets list --builtin --lang zh >"$tmp/list" || fail "presets list --lang zh: status $?"
grep -q '^模型 (16)$' "$tmp/list" || fail "presets list --lang zh: no Chinese title: $(head -3 "$tmp/list")"
grep -q '^  llama-2-7b  *Llama-2-7B  *内置  *6.738 B 参数 · llama · 32 层 · d 4096$' "$tmp/list" ||
	fail "presets list --lang zh: the model's summary is not Chinese: $(grep llama-2-7b "$tmp/list")"
grep -q '^  mixtral-8x7b .* · MoE 8 个专家，top-2$' "$tmp/list" || fail "presets list --lang zh: MoE summary not Chinese"
"$NAPKIN" presets list --builtin | grep -q '^  llama-2-7b  *Llama-2-7B  *built in  *6.738 B params · llama · 32 layers · d 4096$' ||
	fail "presets list in English is not English"
for id in mixtral-8x7b h100-sxm course-decode-7b-batch1 "$hf/unknown-type.json"; do
	"$NAPKIN" presets show --builtin "$id" 2>/dev/null >"$tmp/show.en"
	"$NAPKIN" presets show --builtin "$id" --lang zh 2>/dev/null >"$tmp/show.zh"
	grep -q '^# \(模型 \|GPU \|场景 \|来自文件的\)' "$tmp/show.zh" || fail "presets show $id --lang zh: comments not Chinese"
	grep -v '^#' "$tmp/show.en" >"$tmp/show.en.yaml"
	grep -v '^#' "$tmp/show.zh" | cmp -s - "$tmp/show.en.yaml" || fail "presets show $id: its YAML differs between English and Chinese"
done
"$NAPKIN" presets show no-such-preset --lang zh 2>"$tmp/err" && fail "presets show no-such-preset passed"
grep -q "^napkin presets：没有预设 'no-such-preset'，也没有这个文件" "$tmp/err" || fail "presets show error not Chinese: $(cat "$tmp/err")"

[ "$fails" = 0 ] && echo "ok: napkin in Chinese (--lang, LANG, LANGUAGE), contracts identical, columns aligned"
exit "$fails"
