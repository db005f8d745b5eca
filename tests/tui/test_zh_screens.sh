#!/bin/sh
# Every screen of the explorer in Chinese (docs/i18n.md, issue 15): the main screen in
# training and inference, and every view of the view table, opened by its key as a person
# would (the keys are read from the `?` help, which lists every view with a title and the
# key that opens it, so a new view is covered without touching this test; the views
# without a key, the picker, the prompt, explain and help, are opened by what opens them),
# at 80×24, 120×40 and 200×60, under LC_ALL=C.UTF-8 with --lang zh. A screen fails on
#   (1) a line wider than the screen, counted with Unicode's East Asian Width (W and F take
#       two columns), not with napkin's own table;
#   (2) English a person reads: a run of two or more lowercase English words of three or
#       more letters, outside the allowlist below (the glossary's English terms, knob
#       keys and values, preset ids, units) — the Chinese screens keep English only where
#       the chapter does.
# Then the same views in English: not one CJK character may leak into them (the English
# screens are what they were; the other tui tests read their words).
#
# Not yet translated: skipped. Views whose texts another part of the work translates,
# listed by the key that opens them: their screens are checked for width only, and their
# lines in `?` help (the section under "title (KEY)") are not read for English. Remove an
# entry when the view is translated.
# (G and M, the GPU probe and the live panel, are translated, the probe's messages too: only
# the system's own texts inside them stay English, see SYSTEM below)
NOT_YET_VIEWS=""
# Texts of these source folders, found verbatim on a screen, are reported as pending and
# not failed: they come through _() where the explorer shows them and turn Chinese when the
# folder's strings are marked and translated. Remove a folder when it is. (src/engine,
# src/presets and src/probe are translated: their texts on a Chinese screen fail like the
# explorer's own; the picker, all presets' summaries, is read word by word.)
NOT_YET_SOURCES=""
. "$(dirname "$0")/lib.sh"

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
SHOTS=${NAPKIN_ZH_SHOTS:-$TUI_TMP/shots} # NAPKIN_ZH_SHOTS=DIR keeps the screens to look at
mkdir -p "$SHOTS"
command -v python3 >/dev/null 2>&1 || { echo "skip: no python3"; exit 0; }

# snap NAME: the screen, saved for the checks
snap() { screen >"$SHOTS/$1.txt"; }

main_zh='每张 GPU 的显存'
main_en='Memory per GPU'

# back MARK: Escape until the main screen is back: its memory pane's title, and its own
# footer, which ends in "q quit" (an overlay leaves the title in sight, not the footer)
back() {
	_n=0
	while ! screen | grep -q -- "$1" || ! screen | grep -v '^ *$' | tail -1 | grep -Eq 'q (退出|quit) *$'; do
		keys Escape
		sleep 0.1
		_n=$((_n + 1))
		# a message (a probe without a GPU says so) takes the footer's place: the title is
		# enough once Escape has had its chances
		[ $_n -gt 4 ] && screen | grep -q -- "$1" && break
		[ $_n -gt 30 ] && fail "could not get back to the main screen"
	done
	wait_for "$1"
}

# help_keys: the keys `?` help names for the views ("扫描 (S)", "Sweep (S)"), every page
help_keys() {
	keys '?'
	wait_for '\? F1' '? did not open the help'
	: >"$TUI_TMP/help.txt"
	_prev=
	_n=0
	while :; do
		_cur=$(screen)
		[ "$_cur" = "$_prev" ] && break
		printf '%s\n' "$_cur" >>"$TUI_TMP/help.txt"
		_prev=$_cur
		keys PgDn
		# the next page, or the last one staying: wait up to 6 s (a slow run, valgrind)
		_w=0
		while [ "$(screen)" = "$_cur" ] && [ $_w -lt 30 ]; do
			sleep 0.2
			_w=$((_w + 1))
		done
		_n=$((_n + 1))
		[ $_n -gt 20 ] && break
	done
	keys Escape
	sed -n 's/^.*│ \{1,\}[^ ].* (\([A-Za-z?]\))  *│.*$/\1/p' "$TUI_TMP/help.txt" | sort -u | tr '\n' ' '
}

# shots LANG MARK W H: every screen at W×H, named LANG-W-H-WHAT
shots() {
	lang=$1 mark=$2 w=$3 h=$4
	start "$w" "$h" --lang "$lang"
	wait_for "$mark" "explore --lang $lang did not draw at ${w}x$h"
	p="$lang-$w-$h"
	snap "$p-main"
	keys e # the focused knob
	wait_for '(解释：|Explain: )' "e did not open explain on a knob"
	snap "$p-explain-knob"
	back "$mark"
	keys l # the memory pane
	sleep 0.2
	snap "$p-main-memory"
	keys e
	wait_for '(解释：|Explain: )' "e did not open explain on a result"
	snap "$p-explain-result"
	back "$mark"
	keys BTab # back to the knobs, for the keys below
	sleep 0.2
	keys m
	sleep 0.3
	snap "$p-picker-model"
	back "$mark"
	keys g
	sleep 0.3
	snap "$p-picker-gpu"
	back "$mark"
	keys s
	sleep 0.3
	snap "$p-prompt-save"
	back "$mark"
	keys o
	sleep 0.3
	snap "$p-prompt-open"
	back "$mark"
	keys Down Enter
	sleep 0.3
	snap "$p-prompt-knob"
	back "$mark"
	keys '?'
	sleep 0.3
	snap "$p-help-1"
	keys PgDn
	sleep 0.2
	snap "$p-help-2"
	keys PgDn
	sleep 0.2
	snap "$p-help-3"
	keys PgDn
	sleep 0.2
	snap "$p-help-4"
	back "$mark"
	for k in $VIEW_KEYS; do
		keys "$k"
		sleep 0.4
		snap "$p-view-$k"
		back "$mark"
	done
	keys t # inference
	sleep 0.4
	snap "$p-infer"
	keys l
	sleep 0.2
	snap "$p-infer-memory"
	keys Q
	[ "$(wait_exit)" = 0 ] || fail "explore --lang $lang at ${w}x$h: exit status"
	stop
}

# the views' keys, from the help of the widest screen
start 200 60 --lang zh
wait_for "$main_zh" 'explore --lang zh did not draw'
VIEW_KEYS=$(help_keys)
stop
[ -n "$VIEW_KEYS" ] || fail "no view keys found in the ? help"
for k in S P T; do # a few the help must name, so a broken parse cannot pass
	case " $VIEW_KEYS " in *" $k "*) ;; *) fail "the ? help names no view opened with $k (found: $VIEW_KEYS)" ;; esac
done

for size in "80 24" "120 40" "200 60"; do
	# shellcheck disable=SC2086
	shots zh "$main_zh" $size
done
shots en "$main_en" 120 40

# the overwrite question in Chinese takes the same answers: n (or Esc) keeps a file napkin
# did not write, y overwrites it; 是, from a Chinese input method, overwrites too
f="$TUI_TMP/mine.yaml"
echo "# not napkin's" >"$f"
start 120 40 --lang zh
wait_for "$main_zh"
save_as() {
	keys s
	wait_for '把场景保存到' 'no save prompt in Chinese'
	keys C-u
	keys -l "$f"
	keys Enter
	wait_for '覆盖吗？y 覆盖，n 或 Esc 保留' 'no overwrite question in Chinese'
}
save_as
keys n
wait_for "未保存：$f 保持原样" 'n did not keep the file'
grep -q "not napkin's" "$f" || fail "n overwrote the file"
save_as
keys -l 是
wait_for "已保存 $f" '是 did not overwrite'
grep -q '^batch: ' "$f" || fail "是 did not write the scenario: $(cat "$f")"
echo "# not napkin's" >"$TUI_TMP/other.yaml"
f="$TUI_TMP/other.yaml"
save_as
keys y
wait_for "已保存 $f" 'y did not overwrite'
keys Q
[ "$(wait_exit)" = 0 ] || fail "explore --lang zh: exit status after saving"
stop

# the English main screen still reads as before: its titles, labels and footer, whole
for t in 'Knobs' 'Memory per GPU (capacity ' 'Compute and time' 'Roofline (log-log)' \
	'Techniques (● in use): with it − without it' 'Data types (▸ used here)' \
	' fits, headroom ' 'largest micro-batch' 'fewest GPUs' 'FLOPs/token' 'MFU / HFU' \
	'dtype   bytes bits  max    epsilon' '? help  q quit'; do
	grep -qF -- "$t" "$SHOTS/en-120-40-main.txt" || { cat "$SHOTS/en-120-40-main.txt"; fail "the English main screen lacks \"$t\""; }
done
for t in 'prefill' 'decode' 'first token' 'capacity' 'KV cache'; do
	grep -qF -- "$t" "$SHOTS/en-120-40-infer.txt" || { cat "$SHOTS/en-120-40-infer.txt"; fail "the English inference screen lacks \"$t\""; }
done

python3 - "$SHOTS" "$ROOT" "$NOT_YET_VIEWS" "$(printf "%s" "$NOT_YET_SOURCES" | tr "\n" " ")" <<'EOF'
import os, re, sys, unicodedata

shots, root, not_yet_views, not_yet_sources = sys.argv[1], sys.argv[2], sys.argv[3].split(), sys.argv[4].split()

def width(s):
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 0 if unicodedata.combining(ch) else 1 for ch in s)

# English the Chinese screens keep: the glossary's English terms, units, knob keys and
# values, model and GPU families, the explorer's key names
ALLOW = set("""
flops flop mfu hfu roofline tensor tensors bf16 fp32 fp16 fp8 tf32 token tokens cache kv
memory-bound compute-bound element-wise prefill micro-batch batch seq batch-size
days years hours gpu-hours tokens/s flop/s flop/b b/param gib mib kib gb tb
adamw adam sgd lion adafactor none auto off on gated rmsnorm layernorm rope alibi learned
mixed-bf16 mixed-fp16 amp-bf16 amp-fp16 bf16-pure fp8-mixed dense swiglu geglu gelu relu
llama gemma gpt gpt2 mistral mixtral pythia qwen palm falcon phi neox gpt_neox qwen2
h100 h200 a100 b200 mi300x sxm pcie nvl
pgup pgdn home end tab esc enter backspace
yaml json config.json napkin report explore lesson
transpose view reshape contiguous slice stride shape dtype rank device
lora qlora zero nf4 autocast logits
""".split())
# knob keys and preset ids, from the sources (the contracts stay English)
for path in ("src/engine/knob_table.c",):
    try:
        table = open(os.path.join(root, path), encoding="utf-8").read()
        for m in re.finditer(r'\.key\s*=\s*"([a-z_0-9]+)"', table):
            ALLOW.add(m.group(1))
        # the choices' values (offload none, optimizer, params, nvme…): what a person types back
        for m in re.finditer(r'\{"([a-z0-9][a-z0-9-]*)", ENGINE_', table):
            ALLOW.update(m.group(1).split("-"))
    except OSError:
        pass
for d in ("presets/models", "presets/gpus", "presets/scenarios"):
    p = os.path.join(root, d)
    if os.path.isdir(p):
        for f in os.listdir(p):
            ALLOW.update(re.split(r"[-_.]", os.path.splitext(f)[0].lower()))

# the pending sources' string literals, joined, where a flagged phrase may be found
import glob
pending_files = set()
for d in not_yet_sources:
    for hit in glob.glob(os.path.join(root, d)):
        if os.path.isfile(hit):
            pending_files.add(os.path.abspath(hit))
        for dirpath, _, files in os.walk(hit):
            pending_files.update(os.path.abspath(os.path.join(dirpath, f)) for f in files)
pending_text = []
for path in sorted(pending_files):
            if path.endswith((".c", ".h", ".yaml")):
                src = open(path, encoding="utf-8", errors="replace").read()
                # adjacent literals join; escapes as they read
                lits = re.findall(r'"((?:[^"\\\n]|\\.)*)"', src)
                pending_text.append(" ".join(lits))
pending_text = re.sub(r"\s+", " ", " ".join(pending_text))
# the explorer's own unmarked literals: a phrase found there is the explorer's to mark and
# translate, even where a pending source has the same words (a marked one without a
# translation is the i18n_catalog test's to find)
tui_text = []
for f in sorted(os.listdir(os.path.join(root, "src/tui"))):
    if f.endswith((".c", ".h")) and os.path.abspath(os.path.join(root, "src/tui", f)) not in pending_files:
        src = open(os.path.join(root, "src/tui", f), encoding="utf-8", errors="replace").read()
        src = re.sub(r'\b(?:N_|P_|_)\(\s*(?:"(?:[^"\\\n]|\\.)*"\s*,?\s*)+', "", src)
        tui_text.append(" ".join(re.findall(r'"((?:[^"\\\n]|\\.)*)"', src)))
tui_text = re.sub(r"\s+", " ", " ".join(tui_text))

WORD = re.compile(r"^[(\[]?([a-z][a-z']{2,})[)\],.;:!?]*$")

# The system's own texts, which napkin quotes as the system gives them (docs/i18n.md): the
# C library's strerror for every errno, dlopen's "cannot open shared object file" (glibc's
# dlerror), strsignal's names. The probe's overlay shows them inside its Chinese message
# (no NVIDIA driver here: libcuda.so.1 cannot be loaded); they are taken out of a line
# before its words are read, so English of napkin's own beside them still fails.
import errno, signal
SYSTEM = {os.strerror(e) for e in range(1, 200)} | {"cannot open shared object file"}
SYSTEM |= {signal.strsignal(s) for s in range(1, 65) if signal.strsignal(s)}
SYSTEM = sorted((t for t in SYSTEM if not t.startswith("Unknown")), key=len, reverse=True)

def unsystem(line):
    for t in SYSTEM:
        line = line.replace(t, " ")
    return line

# a run of words from the middle of a system text that a wrapped line cut ("cannot open" /
# "shared object file"): its words, in order, within one of them
SYSTEM_WORDS = [" " + re.sub(r"[^a-z' ]", " ", t.lower()) + " " for t in SYSTEM]
def is_system(run):
    return any(" " + run + " " in t for t in SYSTEM_WORDS)

def english_runs(line):
    runs, cur = [], []
    line = unsystem(line)
    # an explanation's source line stays as cited (docs/i18n.md): its words are not read
    if "来源 " in line:
        line = line[:line.index("来源 ")]
    for tok in line.split(" "):
        m = WORD.match(tok)
        if m and m.group(1) not in ALLOW:
            cur.append(m.group(1))
            continue
        if len(cur) >= 2:
            runs.append(" ".join(cur))
        cur = []
        if tok == "":
            continue
    if len(cur) >= 2:
        runs.append(" ".join(cur))
    return runs

def wcw(ch):
    return 2 if unicodedata.east_asian_width(ch) in "WF" else 0 if unicodedata.combining(ch) else 1

def cols(line, a, b):
    """the part of line in display columns [a, b)"""
    out, x = [], 0
    for ch in line:
        if a <= x < b:
            out.append(ch)
        x += wcw(ch)
    return "".join(out)

def help_box(lines):
    """the display columns of the help overlay's inside, from its top border"""
    for l in lines:
        for title in ("┌ 按键", "┌ Keys"):
            i = l.find(title)
            if i >= 0:
                x0 = width(l[:i])
                j = l.find("┐", i)
                return x0 + 1, width(l[:j]) if j > 0 else width(l)
    return 0, 10 ** 6

def help_skip(lines, inside):
    """lines under the ? help's section of a view not yet translated; inside: whether the
    page begins inside one (the page before ended in it). Returns them and where it ends."""
    a, b = help_box(lines)
    skip = set()
    for i, l in enumerate(lines):
        if cols(l, a - 1, a) == "└": # the box's bottom: the page ends here
            break
        body = cols(l, a, b).strip(" ↑↓")
        m = re.search(r"\(([A-Za-z?])\)$", body)
        if m:
            inside = m.group(1) in not_yet_views
        elif body == "":
            inside = False
        if inside:
            skip.add(i)
    return skip, inside

def picker_box(lines):
    """(first line, last line, first column, end column) of the picker's inside, from its
    top border ("┌ 选择模型（16 / 16…"), or None"""
    for i, l in enumerate(lines):
        j = l.find("┌ 选择")
        if j >= 0:
            x0 = width(l[:j])
            k = l.find("┐", j)
            x1 = width(l[:k]) if k > 0 else width(l)
            for e in range(i + 1, len(lines)):
                if cols(lines[e], x0, x0 + 1) == "└":
                    return i + 1, e, x0 + 1, x1
            return i + 1, len(lines), x0 + 1, x1
    return None

def english_words(text):
    """single English words outside the allowlist: the picker's summaries are counted
    words ("params", "layers", "experts") with numbers between them, never a run of two"""
    out = []
    for tok in text.split():
        m = WORD.match(tok)
        if m and m.group(1) not in ALLOW:
            out.append(m.group(1))
    return out

_pending_cache = {}
def is_pending(run):
    """the run's words in the pending sources, with any punctuation between them"""
    if run not in _pending_cache:
        rx = r"\b" + r"[^A-Za-z0-9_%]{1,4}".join(re.escape(w) for w in run.split()) + r"\b"
        _pending_cache[run] = re.search(rx, pending_text) is not None and re.search(rx, tui_text) is None
    return _pending_cache[run]

bad, pending, n, help_inside = [], {}, 0, {}
for name in sorted(os.listdir(shots)):
    lang, w, h, what = name[:-4].split("-", 3)
    w, h = int(w), int(h)
    lines = open(os.path.join(shots, name), encoding="utf-8").read().split("\n")
    n += 1
    if len([l for l in lines if l.strip()]) < 3:
        bad.append(f"{name}: nearly empty screen")
    for i, l in enumerate(lines):
        if width(l) > w:
            bad.append(f"{name}:{i + 1}: {width(l)} columns on a {w}-column screen: {l}")
        if "\ufffd" in l:
            bad.append(f"{name}:{i + 1}: a broken character: {l}")
    if lang == "en":
        for i, l in enumerate(lines):
            cjk = [ch for ch in l if unicodedata.east_asian_width(ch) in "WF"]
            # the language key's own help line names the language in it
            if cjk and "(中文)" not in l:
                bad.append(f"{name}:{i + 1}: Chinese on the English screen: {l}")
        continue
    if what.startswith("view-") and what[5:] in not_yet_views:
        continue
    if what.startswith("picker-"):
        # the picker is the presets' summaries (src/presets), checked word by word
        box = picker_box(lines)
        if box is None:
            bad.append(f"{name}: no picker in Chinese on screen")
        else:
            for i in range(box[0], box[1]):
                for word in english_words(cols(lines[i], box[2], box[3])):
                    bad.append(f"{name}:{i + 1}: untranslated English \"{word}\" in the picker: {lines[i]}")
    skip = set()
    if what.startswith("help"): # the pages in order (help-1, help-2, ...): a section goes on
        skip, help_inside[(w, h)] = help_skip(lines, what != "help-1" and help_inside.get((w, h), False))
    for i, l in enumerate(lines):
        if i in skip:
            continue
        for run in english_runs(l):
            if is_system(run):
                continue
            if is_pending(run):
                pending[run] = pending.get(run, 0) + 1
            else:
                bad.append(f"{name}:{i + 1}: untranslated English \"{run}\": {l}")

print(f"{n} screens checked; views not yet translated (width only): {' '.join(not_yet_views)}")
if pending:
    print(f"pending, from {' '.join(not_yet_sources)} ({len(pending)} phrases), e.g.: " +
          "; ".join(sorted(pending)[:12]))
if bad:
    print("\n".join(bad[:80]))
    print(f"FAIL: {len(bad)} problems")
    sys.exit(1)
EOF
rc=$?
[ $rc = 0 ] || { echo "FAIL: the Chinese screens (above)"; exit 1; }
echo "ok: every screen in Chinese at 80x24, 120x40, 200x60 (views: $VIEW_KEYS)"
