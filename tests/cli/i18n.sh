#!/bin/sh
# napkin in Chinese (docs/i18n.md), from the real binary: --lang on every command and the
# environment as gettext reads it, with no zh_CN locale generated (the catalogue is compiled
# in and read by napkin itself); the data contracts (JSON, YAML) byte-identical in both
# languages; the text report's columns aligned by display width (a CJK character is two
# columns, printf's %-17s counts bytes); a lesson without Chinese says so in Chinese.
#   sh tests/cli/i18n.sh PATH/TO/napkin
set -u
NAPKIN=${1:?usage: $0 PATH/TO/napkin}
# the lines these checks read, whole, as a wide terminal shows them (tests/cli/width.sh checks
# the reports at 80 and 60 columns)
COLUMNS=200
export COLUMNS
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
grep -q '^memory.weights：一张 GPU 上的权重占用的显存$' "$tmp/zh.explain" || fail "report --explain --lang zh: explanations not Chinese"
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

# every command's own errors in Chinese: status 2 (1 for a failed write), the sentence Chinese, the
# flags, values and ids as typed; the English sentence is gone
# zh_err STATUS TEXT ENGLISH ARGS...: napkin ARGS --lang zh exits STATUS and its stderr holds TEXT, not ENGLISH
zh_err() {
	want=$1 text=$2 english=$3
	shift 3
	"$NAPKIN" "$@" --lang zh >/dev/null 2>"$tmp/err"
	got=$?
	[ "$got" = "$want" ] || fail "$* --lang zh: status $got, not $want ($(cat "$tmp/err"))"
	grep -q -F -- "$text" "$tmp/err" || fail "$* --lang zh: not '$text': $(cat "$tmp/err")"
	if grep -q -F -- "$english" "$tmp/err"; then fail "$* --lang zh: still English: $(cat "$tmp/err")"; fi
}
zh_err 2 "napkin report：--format：'nope' 不是输出格式；允许：text, json, yaml, markdown" "is not a format" report --format nope
zh_err 2 "napkin report：params 必须在 10M 到 1000T 之间（1e7 到 1e15）" "must be between" report --model 5
zh_err 2 "napkin sweep：--format：'nope' 不是输出格式；允许：text, csv, json" "is not a format" sweep batch=1..4 --format nope
zh_err 2 "napkin sweep：--y：'nosuch' 不是结果；结果是 JSON 报告的键：memory.total、" "is not a result" sweep batch=1..4 --y nosuch
zh_err 2 "'memory.totl' 不是结果（是不是想写 memory.total？）" "did you mean" sweep batch=1..4 --y memory.totl --format csv
zh_err 2 "napkin sweep：没有范围：请给一个范围（曲线）或两个（热力图）" "give one range" sweep
zh_err 2 "napkin sweep：batch 被扫描了两次" "swept twice" sweep batch=1..4 batch=2..8
zh_err 2 "napkin compare：请把各列写成一个设置的多个值" "give the columns" compare
zh_err 2 "napkin compare：--gpu 和 --batch 都列出了多个值" "both list values" compare --gpu h100-sxm,h200 --batch 1,2
zh_err 2 "napkin compare：--format：'nope' 不是输出格式；允许：text, json" "is not a format" compare --gpu h100-sxm,h200 --format nope
zh_err 2 "napkin plan：--goal：'nope' 不是目标；允许：time, gpu-hours, cost, gpus" "is not a goal" plan --goal nope
zh_err 2 "napkin plan：--top：'0' 不是个数；允许：1 到 " "is not a count" plan --top 0
zh_err 2 "napkin plan：--deadline：'soon' 不是天数" "number of days" plan --deadline soon
zh_err 2 "napkin explore：--probe-timeout：'0' 不是 1 到 3600 之间的秒数" "number of seconds" explore --probe-timeout 0
zh_err 2 "napkin explore：--theme：'neon' 不是主题；允许：dark, light, projector" "is not a theme" explore --theme neon
zh_err 2 "napkin lesson：没有课程“nosuch”（请给编号、id 或文件" "no lesson" lesson nosuch
zh_err 2 "napkin lesson：没有第 99 课（课程编号为 1 到 " "no lesson" lesson 99
zh_err 2 "napkin lesson：一次只能打开一个课程（给了 '1' 和 '2'）" "one lesson at a time" lesson 1 2 --text
zh_err 2 "napkin lesson：--check 需要课程文件或 id" "needs lesson files" lesson --check
zh_err 2 "napkin lesson：--batch：课程自己设置各项设置" "sets the knobs itself" lesson 1 --batch 8
# a lesson file that is a directory: util_read_file's error, the path as it is
zh_err 1 ": 这是目录，不是文件" "a directory, not a file" lesson "$tmp/"
# a lesson whose answer is wrong, whose solution fails, whose question asks nothing (lesson --check)
printf 'lesson: x\ntitle: T\nsteps:\n  - text: a\n    answer: {key: memory.bytes_per_param, value: 12}\n' >"$tmp/bad1.yaml"
zh_err 2 "bad1.yaml:5:13: 第 1 步：memory.bytes_per_param：引擎给出 16，课程写的是 12" "the engine gives" lesson --check "$tmp/bad1.yaml"
printf 'lesson: x\ntitle: T\nsteps:\n  - text: a\n    check: batch >= 8\n    solution: {batch: 4}\n' >"$tmp/bad2.yaml"
zh_err 2 "第 1 步：参考解法不满足“batch >= 8”" "the solution fails" lesson --check "$tmp/bad2.yaml"
printf 'lesson: x\ntitle: T\nsteps:\n  - text: a\n    check: batch >= 1\n    solution: {batch: 4}\n' >"$tmp/bad3.yaml"
zh_err 2 "第 1 步：还没做参考解法，检查条件就已经满足" "already met" lesson --check "$tmp/bad3.yaml"
"$NAPKIN" lesson --check 1 --lang zh | grep -q '^1：通过（why-count，3 步）$' || fail "lesson --check --lang zh: 'ok' is not Chinese"
"$NAPKIN" lesson --lang zh | grep -q '（why-count，3 步，11 分钟；en, zh）$' || fail "lesson --lang zh: the list's counts are not Chinese"
# --lang without its value: the environment's language says so
LANG=zh_CN.UTF-8 "$NAPKIN" report --lang 2>"$tmp/err" && fail "--lang without a value was accepted"
grep -q -F 'napkin report：--lang 需要一个值（en、zh）' "$tmp/err" || fail "--lang without a value, LANG=zh_CN: $(cat "$tmp/err")"
# a failed write of the output (a full disk)
if [ -w /dev/full ]; then
	for c in report plan; do
		"$NAPKIN" $c --lang zh >/dev/full 2>"$tmp/err"
		[ $? = 1 ] || fail "$c --lang zh >/dev/full: status"
		grep -q "^napkin $c：无法写出输出：" "$tmp/err" || fail "$c --lang zh >/dev/full: $(cat "$tmp/err")"
	done
fi

# sweep's CSV and JSON stay English, their invalid points' errors too, while its own errors are Chinese
for f in csv json; do
	"$NAPKIN" sweep tp=1..3 --format $f >"$tmp/en.sw" || fail "sweep --format $f: status $?"
	grep -q 'must be a multiple of tp' "$tmp/en.sw" || fail "sweep --format $f: no invalid point"
	"$NAPKIN" sweep tp=1..3 --format $f --lang zh | cmp -s - "$tmp/en.sw" || fail "sweep --format $f differs between English and Chinese"
done

# the text outputs' own sentences (plan, sweep, the charts' legends, the LoRA line, usage lines)
"$NAPKIN" plan --lang zh --deadline 30 --top 2 >"$tmp/plan" 2>&1 || fail "plan --lang zh: status $?"
grep -q '^在 [0-9,]* 个 8 张 GPU 的布局中搜索；[0-9,]* 个放得下，其中 [0-9]* 个在 30 天内训练完$' "$tmp/plan" ||
	fail "plan --lang zh: the search line is not Chinese: $(cat "$tmp/plan")"
grep -q '^没有布局能在期限内放得下并训练完：' "$tmp/plan" || fail "plan --lang zh: 'no layout fits' is not Chinese"
"$NAPKIN" plan --lang zh --top 1 >"$tmp/plan" 2>&1 || fail "plan --lang zh: status $?"
grep -q '^    应用它：napkin report \[KNOBS\] --tp ' "$tmp/plan" || fail "plan --lang zh: 'apply it' is not Chinese"
grep -q '^    步时 [0-9.]* m*s ±[0-9]*%： ' "$tmp/plan" || fail "plan --lang zh: the best row's step (and its band) is not Chinese"
# plan's table: Chinese heads, the rows and "你" aligned with them by display width
"$NAPKIN" plan --lang zh --top 2 --price 2 >"$tmp/plan" 2>/dev/null || fail "plan --lang zh --price: status $?"
grep -q '显存/GPU      步时   训练时间     GPU 小时         成本$' "$tmp/plan" || fail "plan --lang zh: the heads are not Chinese"
python3 - "$tmp/plan" <<'PY' || fail "plan --lang zh: the table is not aligned: $(cat "$tmp/plan")"
import sys, unicodedata
rows = [l.rstrip("\n") for l in open(sys.argv[1], encoding="utf-8") if l.startswith(("  # ", "  1 ", "  2 ", " 你 "))]
w = {sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in l) for l in rows}
sys.exit(0 if len(rows) == 4 and len(w) == 1 else 1)
PY
"$NAPKIN" sweep batch=1..16 --lang zh >"$tmp/sweep" || fail "sweep --lang zh: status $?"
grep -q '▲ batch 2：第一个放不下的点（memory.max_batch：1）$' "$tmp/sweep" || fail "sweep --lang zh: the mark is not Chinese"
# the table's memory.fits column says 是/否, right-aligned by display width like the heads
python3 - "$tmp/sweep" <<'PY' || fail "sweep --lang zh: the table is not aligned or not Chinese: $(head -6 "$tmp/sweep")"
import re, sys, unicodedata
lines = open(sys.argv[1], encoding="utf-8").read().split("\n")
head = next(i for i, l in enumerate(lines) if l.lstrip().startswith("batch "))
# the cells aligned; a point that does not fit is marked after them ("  ✗ 放不下")
rows = [re.sub("  ✗ .*$", "", l) for l in lines[head:head + 5]]
w = {sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in l) for l in rows}
sys.exit(0 if len(w) == 1 and " 是 " in rows[1] and " 否 " in rows[-1] else 1)
PY
grep -q '△ 场景的 batch（1）$' "$tmp/sweep" || fail "sweep --lang zh: the scenario's mark is not Chinese"
"$NAPKIN" sweep batch=1..16 --stack --lang zh | grep -q '^memory.total 按部分堆叠（所有部分同时存在，每张 GPU）' ||
	fail "sweep --stack --lang zh: the stacked title is not Chinese"
"$NAPKIN" sweep batch=1..8 seq=1k..8k --lang zh | grep -q '█ 放得下   ✗ 放不下   · 无效$' ||
	fail "sweep heatmap --lang zh: the legend is not Chinese"
"$NAPKIN" report --lang zh --finetune lora | grep -q 'LoRA r [0-9]* 作用于 .*：可训练 [0-9,]*，共 ' ||
	fail "report --finetune lora --lang zh: the LoRA line is not Chinese"
# the Markdown report's dtype notes and tensor roles (msgids of the engine and teach)
"$NAPKIN" report --format markdown --lang zh >"$tmp/md" || fail "report --format markdown --lang zh: status $?"
grep -q '^| fp32 | 4 | .*主副本和优化器状态；稳妥的默认选择 |$' "$tmp/md" || fail "markdown --lang zh: the dtype notes are not Chinese"
grep -q '^| `embed_tokens.weight` | 权重 |' "$tmp/md" || fail "markdown --lang zh: the tensor roles are not Chinese"
# a syntax of two lines: the second under the first's knobs, after the translated "usage:" (6 columns, not 7)
"$NAPKIN" explore --help --lang zh | sed -n 2p | grep -q '^                     \[--lang en|zh\]' ||
	fail "explore --help --lang zh: the syntax's second line is not under the first"
for c in report sweep compare plan explore lesson; do
	"$NAPKIN" $c --help --lang zh | head -1 | grep -q "^用法：napkin $c " || fail "$c --help --lang zh: the usage line is not Chinese"
	"$NAPKIN" $c --help | head -1 | grep -q "^usage: napkin $c " || fail "$c --help: the usage line is not English"
done

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

# a Hugging Face config.json's notes (an unknown model_type and the traits assumed, a
# multimodal config's uncounted vision tower, a quantization_config napkin does not know) are Chinese on stderr, at their
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
hf_note gemma-3-27b-it 15:18 "警告：计入的是文本模型（text_config）；视觉塔（vision_config）不计入"
hf_note llama-2-7b-gptq-3bit 24:26 "警告：quantization_config（gptq，3 位权重，每组 128 个）不是 napkin 认识的格式"

# napkin presets: its listing and show's comments in Chinese (summaries in the interface's
# language), the YAML it shows the same bytes in both languages
"$NAPKIN" presets list --builtin --lang zh >"$tmp/list" || fail "presets list --lang zh: status $?"
grep -q '^模型（29）$' "$tmp/list" || fail "presets list --lang zh: no Chinese title: $(head -3 "$tmp/list")"
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
