#!/bin/sh
# The teaching and trade-off views in Chinese (docs/i18n.md), as a student sees them at 80×24: a
# lesson's own scaffolding (the title, "step N of M", the check line, the hints) in Chinese; a
# lesson without Chinese text says so in Chinese above its English text; the tensor inspector
# and the dtype lab (also at 120×40 and 200×60) and the sweep, planner, heatmap and comparison
# with their Chinese titles, column heads and status lines. No line is wider than the screen (by
# display width: a CJK character takes two columns) and each box's right border stays in the
# last column (a label padded by bytes instead of columns would push it or pull it).
. "$(dirname "$0")/lib.sh"

command -v python3 >/dev/null 2>&1 || {
	echo "skipped: python3 measures the display widths"
	exit 0
}

# check_width W: every line of the screen at most W columns; where a line starts with a box's
# left border in column 1 it ends with the box's right border in column W
check_width() {
	screen >"$TUI_TMP/screen"
	python3 - "$1" "$TUI_TMP/screen" <<'EOF' || fail "a line of the screen is wider than $1 columns or its border moved"
import sys, unicodedata
w = int(sys.argv[1])
def width(s):
    return sum(0 if unicodedata.combining(c) else 2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in s)
bad = 0
for n, line in enumerate(open(sys.argv[2], encoding="utf-8").read().split("\n"), 1):
    line = line.rstrip()
    if width(line) > w:
        print(f"line {n} is {width(line)} columns wide: {line}")
        bad = 1
    elif line[:1] in ("│", "┌", "└") and (width(line) != w or line[-1] not in "│┐┘┤↑↓"):
        print(f"line {n}: the box's right border is not in column {w}: {line}")
        bad = 1
sys.exit(bad)
EOF
}

# English words of the scaffolding that must not show in Chinese
no_english() {
	screen | grep -Eq -- "$1" && fail "English on the Chinese screen: /$1/"
	return 0
}

# a lesson in Chinese: its scaffolding is Chinese
tm set-option -g remain-on-exit on \; new-session -d -s app -x 80 -y 24 "$NAPKIN lesson 3 --lang zh" ||
	fail "tmux did not start"
wait_for '第 3 课：' 'lesson 3 --lang zh: no Chinese lesson title'
wait_for '第 1 步（共 4 步）|第 1/4 步' 'lesson 3 --lang zh: "step 1 of 4" is not Chinese'
wait_for '还没有答出 · 目标：' 'the check line is not Chinese'
screen | grep -q '权重 \?不超过' && fail 'the check line gives the hidden condition away'
no_english 'step 1 of|not yet:|n: next step|Lesson 3'
check_width 80
keys n
wait_for '第 2 步（共 4 步）|第 2/4 步' 'n did not go to step 2'
wait_for '\[数据类型\]' "the step's pane is not named in Chinese"
wait_for '还没有答出 · 目标：' 'a knob check is not said in Chinese'
screen | grep -q '精度 \?为' && fail 'the status line gives the hidden condition away (M10)'
check_width 80
keys Escape
wait_for '已离开课程' 'leaving the lesson is not said in Chinese'
keys q
stop

# a lesson without Chinese: the notice in Chinese, the text in English, the scaffolding Chinese
tm set-option -g remain-on-exit on \; new-session -d -s app -x 80 -y 24 \
	"$NAPKIN lesson tests/data/lessons/english-only.yaml --lang zh" || fail "tmux did not start"
wait_for '本课尚无中文版本' 'a lesson without Chinese does not say so in Chinese'
wait_for 'The tensors pane lists' 'the English text of the lesson is not shown'
wait_for '第 1 步（共 4 步）|第 1/4 步' 'the scaffolding of an English-only lesson is not Chinese'
wait_for '按 T 打开 Tensor 查看器 · n：下一步' 'the tensors step hint is not Chinese'
check_width 80
keys q
stop
# the same lesson in English says nothing of the kind
tm set-option -g remain-on-exit on \; new-session -d -s app -x 80 -y 24 \
	"$NAPKIN lesson tests/data/lessons/english-only.yaml" || fail "tmux did not start"
wait_for 'step 1 of 4' 'the English lesson did not draw'
screen | grep -q 'no text in your language\|本课' && fail 'the English lesson says it lacks a language'
keys q
stop

# the tensor inspector and the dtype lab in Chinese at 80×24 (and at projector sizes)
for size in "80 24" "120 40" "200 60"; do
	set -- $size
	start "$1" "$2" --lang zh
	wait_for 'napkin' 'napkin explore --lang zh did not draw'
	keys T
	wait_for 'Tensor 查看器' "the tensor inspector has no Chinese title at $1×$2"
	wait_for '查看器：shape、stride、存储' "the inspector box is not Chinese at $1×$2"
	wait_for '存储偏移 0' "the inspector's rows are not Chinese at $1×$2"
	no_english 'Where the big tensors|storage offset|elements ×|type : and'
	check_width "$1"
	# PyTorch's own error: a Chinese sentence, then PyTorch's words as students meet them
	keys : v i e w '(' 5 , Space 3 ')' Enter
	wait_for 'view\(5, 3\)：shape“\[5, 3\]”与输入的大小 [0-9]+ 不符（PyTorch：' \
		"the inspector's PyTorch error has no Chinese sentence at $1×$2"
	wait_for "is invalid for input of size" "the inspector's PyTorch error lost PyTorch's words at $1×$2"
	keys : t r a n s p o s e '(' s e q , Space h e a d s ')' Enter : v i e w '(' '-' 1 ')' Enter
	wait_for 'view\(-1\)：view 的大小与输入 Tensor 的大小和 stride 不兼容：新 shape' \
		"the inspector's view error is not Chinese at $1×$2"
	check_width "$1"
	keys Escape D
	wait_for 'Dtype 实验室' "the dtype lab has no Chinese title at $1×$2"
	wait_for '每种数据类型如何存储 70000' "the dtype lab's box is not Chinese at $1×$2"
	wait_for '存成' "the dtype lab's heads are not Chinese at $1×$2"
	wait_for 'BF16 把 70000 舍入为 70144（误差' "the dtype lab's notes are not Chinese at $1×$2"
	no_english 'what happened|stored as|overflows fp16|How each data type'
	check_width "$1"
	keys Escape q
	[ "$(wait_exit)" = 0 ] || fail "explore --lang zh at $1×$2: exit status"
	stop
done

# the trade-off views in Chinese at 80×24: the sweep, the planner, the heatmap, the comparison
start 80 24 --lang zh
wait_for 'napkin' 'napkin explore --lang zh did not draw'
keys S
wait_for '扫描：每张 GPU 的显存 随 micro-batch 变化' 'the sweep has no Chinese title'
wait_for '当前（点线）：batch 1：每张 GPU 62\.03 GiB / 79\.65 GiB，放得下' "the sweep's status is not Chinese"
no_english 'Sweep:|now \(dotted\)|first point that|results \(y'
check_width 80
keys Escape P
wait_for '规划：按预测时间排序' 'the planner has no Chinese title'
wait_for '显存/GPU +步时 +时间' "the planner's heads are not Chinese or not aligned"
# the rank column right-aligned by display width: "你" (two columns) ends where "1" does
you=$(line_of '^ +你 ')
one=$(line_of '^ +1 ')
[ "${#you}" -gt 0 ] && [ "$(printf '%s' "${you%%8*}" | wc -L)" = "$(printf '%s' "${one%%8*}" | wc -L)" ] ||
	fail "the planner's rank column is not aligned: '$you' / '$one'"
check_width 80
keys Escape H
wait_for '热力图：每张 GPU 的余量，batch × seq' 'the heatmap has no Chinese title'
check_width 80
keys Escape C
wait_for '对比：' 'the comparison has no Chinese title'
wait_for '每张 GPU 的显存 +62\.03 GiB' "the comparison's rows are not Chinese"
check_width 80
keys Escape q
[ "$(wait_exit)" = 0 ] || fail 'explore --lang zh: exit status'
stop

# English is as before
start 80 24
wait_for 'Memory per GPU' 'napkin explore did not draw'
keys T
wait_for 'tensor inspector' 'the English tensor inspector lost its title'
wait_for 'storage offset 0' 'the English inspector rows changed'
keys : v i e w '(' 5 , Space 3 ')' Enter
wait_for "view\\(5, 3\\): shape '\\[5, 3\\]' is invalid for input of size [0-9]+ *│" "the English inspector's PyTorch error changed"
screen | grep -q 'PyTorch:' && fail "the English inspector quotes PyTorch after PyTorch's own words"
keys Escape D
wait_for 'How each data type stores 70000' 'the English dtype lab lost its title'
wait_for 'what happened' 'the English dtype lab lost its heads'
keys Escape S
wait_for 'Sweep: memory per GPU along micro-batch' 'the English sweep lost its title'
wait_for 'now \(dotted\): batch 1' "the English sweep's status changed"
keys Escape P
wait_for ' +# +gpus tp pp vpp cp ep +dp zero +mb +acc rcmp +mem/GPU +step +time' "the English planner's heads changed"
keys Escape q
stop
echo "ok: the lesson panel, the tensor inspector, the dtype lab and the trade-off views in Chinese"
