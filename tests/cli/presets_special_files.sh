#!/bin/sh
# Files of a presets directory that are not regular files (a FIFO, a symbolic link to
# /dev/zero, one to nothing, a directory named like a preset) were skipped with no word,
# though a broken file is never skipped silently (presets/README.md): each is a warning in
# every command now, naming the file and what it is, and never read (a FIFO would block, the
# device never ends); `napkin presets check` lists them and fails.
set -u
NAPKIN=${1:?usage: $0 PATH/TO/napkin}
case $NAPKIN in /*) ;; *) NAPKIN=$(pwd)/$NAPKIN ;; esac
command -v mkfifo >/dev/null 2>&1 || { echo "ok: no mkfifo"; exit 0; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
T=
command -v timeout >/dev/null 2>&1 && T="timeout 60"
mkdir -p "$tmp/presets/gpus" "$tmp/presets/models" "$tmp/presets/scenarios/dir.yaml" "$tmp/xdg"
ln -s /dev/zero "$tmp/presets/gpus/zero.yaml"
mkfifo "$tmp/presets/gpus/pipe.yaml"
ln -s "$tmp/nowhere.yaml" "$tmp/presets/models/gone.yaml"
cd "$tmp" || exit 1
export XDG_CONFIG_HOME="$tmp/xdg"

# $1: the command's name in its messages; the rest: the command
check() {
	who=$1
	shift
	$T "$NAPKIN" "$@" >out 2>err || fail "$* exits $?: $(cat err)"
	grep -q "^napkin $who: presets/gpus/zero.yaml: warning: not a regular file (a character device) (the file is skipped" err ||
		fail "$*: no warning for the link to /dev/zero: $(cat err)"
	grep -q "^napkin $who: presets/gpus/pipe.yaml: warning: not a regular file (a FIFO) (the file is skipped" err ||
		fail "$*: no warning for the FIFO: $(cat err)"
	grep -q "^napkin $who: presets/models/gone.yaml: warning: cannot read it: No such file or directory (the file is skipped" err ||
		fail "$*: no warning for the link to nothing: $(cat err)"
	grep -q "^napkin $who: presets/scenarios/dir.yaml: warning: not a regular file (a directory) (the file is skipped" err ||
		fail "$*: no warning for the directory: $(cat err)"
}
check report report --gpus 8
grep -q 'Llama-2-7B on 8 × H100 SXM' out || fail "no report: $(cat out)"
check presets presets list gpus
grep -q 'h100-sxm' out || fail "presets list lists nothing"
check compare compare --gpus 8,16
check plan plan --gpus 8
"$NAPKIN" --lang zh report >out 2>err || fail "--lang zh report exits $?"
grep -q 'presets/gpus/pipe.yaml: 警告：不是普通文件（而是 FIFO 命名管道）' err || fail "the warning is not Chinese: $(cat err)"

# presets check lists each once and fails
printf 'name: Fine\nmemory: 8 GB\nmemory_bandwidth: 1 TB/s\npeak_flops: {bf16: 1 PFLOP/s}\n' >fine.yaml
$T "$NAPKIN" presets check fine.yaml >out 2>err
rc=$?
[ $rc -ne 0 ] || fail "presets check exits 0 beside a FIFO"
[ "$(grep -c 'presets/gpus/pipe.yaml: not a regular file (a FIFO)' out)" = 1 ] || fail "presets check: $(cat out)"
grep -q 'presets/gpus/zero.yaml: not a regular file (a character device)' out || fail "presets check: $(cat out)"
grep -q 'fine.yaml: ok' out || fail "the file given is not checked: $(cat out)"
echo "ok: files that are not regular files are warned about"
