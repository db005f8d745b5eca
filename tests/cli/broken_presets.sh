#!/bin/sh
# A broken file in ./presets (or any directory of the search path) blocks no command that
# does not use it: each says it as a warning with file:line:col and goes on; naming the
# broken preset gives its error; `napkin presets check` still fails on it.
set -u
NAPKIN=${1:?usage: $0 PATH/TO/napkin}
case $NAPKIN in /*) ;; *) NAPKIN=$(pwd)/$NAPKIN ;; esac
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
mkdir -p "$tmp/presets/gpus" "$tmp/presets/scenarios" "$tmp/xdg"
printf 'name: Broken\nmemory: 80 GB\nmemory_bandwidth: 1 TB/s\npeak_flops: {bf16: 1 PFLOP/s}\nsm: 3\n' \
	>"$tmp/presets/gpus/mygpu.yaml"
printf 'gpus: 2\nmodel: no-such-model\n' >"$tmp/presets/scenarios/stale.yaml"
cd "$tmp" || exit 1
export XDG_CONFIG_HOME="$tmp/xdg"

# commands that never use it go on, and say what was skipped
"$NAPKIN" report --gpus 8 >out 2>err || fail "report exits $? beside a broken preset: $(cat err)"
grep -q 'Llama-2-7B on 8 × H100 SXM' out || fail "no report: $(cat out)"
grep -q "^napkin report: presets/gpus/mygpu.yaml:5:1: warning: unknown key 'sm' (did you mean 'sm_count'?)" err ||
	fail "no file:line:col warning for the broken GPU: $(cat err)"
grep -q "presets/scenarios/stale.yaml:2:8: warning: unknown model 'no-such-model'" err ||
	fail "no warning for the scenario that does not apply: $(cat err)"
grep -q 'skipped' err || fail "the warning does not say the file is skipped: $(cat err)"
"$NAPKIN" presets list gpus >out 2>err || fail "presets list exits $?: $(cat err)"
grep -q 'h100-sxm' out || fail "presets list lists nothing"
grep -q 'mygpu.yaml:5:1' err || fail "presets list does not warn: $(cat err)"
"$NAPKIN" lesson >out 2>err || fail "lesson exits $?: $(cat err)"

# a broken file that meant to override a built-in preset: the warning says which one is used
cp presets/gpus/mygpu.yaml presets/gpus/h100-sxm.yaml
"$NAPKIN" report --gpu h100-sxm >out 2>err || fail "report exits $? beside a broken override: $(cat err)"
grep -q "presets/gpus/h100-sxm.yaml:5:1: warning: .*'h100-sxm' is still the built-in one" err ||
	fail "the warning does not say the built-in h100-sxm is used: $(cat err)"
grep -q '80.00 GB\|79.65 GiB' out || fail "not the built-in H100: $(cat out)"
rm presets/gpus/h100-sxm.yaml
# the same for a scenario (which is checked once every model and GPU is known)
printf 'model: no-such-model\n' >presets/scenarios/course-largest-model-8-h100.yaml
COLUMNS=200 "$NAPKIN" presets list scenarios >out 2>err || fail "presets list exits $? beside a broken scenario override"
grep -q "course-largest-model-8-h100.yaml:1:8: warning: .*still the built-in one" err ||
	fail "the warning does not say the built-in scenario is used: $(cat err)"
grep -q '^  course-largest-model-8-h100 .* built in ' out || fail "the built-in scenario is gone: $(cat out)"
"$NAPKIN" report --scenario course-largest-model-8-h100 >out 2>err || fail "the built-in scenario does not load: $(cat err)"
rm presets/scenarios/course-largest-model-8-h100.yaml

# the broken preset itself, when named: its own error, not "unknown GPU"
"$NAPKIN" report --gpu mygpu >out 2>err && fail "report --gpu mygpu succeeded"
grep -q "napkin report: presets/gpus/mygpu.yaml:5:1: unknown key 'sm'" err ||
	fail "naming the broken preset does not give its error: $(cat err)"

"$NAPKIN" report --scenario stale >out 2>err && fail "report --scenario stale succeeded"
grep -q "napkin report: presets/scenarios/stale.yaml:2:8: unknown model 'no-such-model'" err ||
	fail "naming the broken scenario does not give its error: $(cat err)"

# presets check fails on it, listing each broken file once, even when checking another file
"$NAPKIN" presets check "$tmp/presets/gpus/mygpu.yaml" >out 2>err
rc=$?
[ $rc -ne 0 ] || fail "presets check of the broken file exits 0"
[ "$(grep -c 'mygpu.yaml:5:1' out)" = 1 ] || fail "the broken file is not listed once: $(cat out)"
printf 'name: Fine\nmemory: 8 GB\nmemory_bandwidth: 1 TB/s\npeak_flops: {bf16: 1 PFLOP/s}\n' >"$tmp/fine.yaml"
"$NAPKIN" presets check fine.yaml >out 2>err
rc=$?
[ $rc -ne 0 ] || fail "presets check exits 0 with a broken file on the search path"
grep -q 'fine.yaml: ok' out || fail "the file given is not checked: $(cat out)"
grep -q 'mygpu.yaml:5:1' out || fail "presets check does not list the broken search-path file: $(cat out)"
grep -q 'stale.yaml:2:8' out || fail "presets check does not list the stale scenario: $(cat out)"
grep -q 'mygpu.yaml' err && fail "presets check says the broken file twice (stderr too): $(cat err)"
"$NAPKIN" presets --builtin check fine.yaml >out 2>&1 || fail "--builtin check of a good file fails: $(cat out)"
echo "ok: broken presets"
