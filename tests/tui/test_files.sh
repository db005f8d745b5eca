#!/bin/sh
# Nothing is lost, and files open as they are. s to a file that exists and napkin did not
# write asks first, with the path (n keeps the file, y overwrites it atomically; a file
# napkin wrote in this session is saved again without asking). o opens a Hugging Face
# config.json as a model, a GPU profile as the GPU, a scenario as the knobs, by what each
# holds; the model and GPU pickers take a path too, with Tab completion.
. "$(dirname "$0")/lib.sh"
here=$(pwd)
d="$TUI_TMP/files"
mkdir -p "$d"
printf 'my notes, not a scenario\n' >"$d/scenario.yaml"
cp tests/data/hf/mistral-7b.json "$d/config.json"
cp tests/data/presets/good/measured-gpu.yaml "$d/my-gpu-profile.yaml"
cp presets/models/qwen2.5-7b.yaml "$d/a-model.yaml"
cd "$d"
start 120 40 --batch 8
cd "$here"
wait_for 'micro-batch +8 ' 'never drew'

# s, Enter on ./scenario.yaml (the default): a question with the path, n keeps the file
keys s
wait_for 'save the scenario' 'no save prompt'
keys Enter
wait_for "$d/scenario.yaml exists and napkin did not write it: overwrite\\?" 'no question before overwriting'
keys n
wait_for 'not saved: scenario.yaml is left as it was' 'n did not keep the file'
grep -q 'my notes' "$d/scenario.yaml" || fail 'n: the file was overwritten'
# y overwrites (atomic: no temporary file left beside it)
keys s Enter
wait_for 'overwrite\?'
keys y
wait_for 'saved scenario.yaml' 'y did not save'
grep -q '^batch: 8' "$d/scenario.yaml" || fail "y: the file lacks batch: 8: $(cat "$d/scenario.yaml")"
[ "$(ls -a "$d" | grep -c scenario)" = 1 ] || fail "a temporary file was left: $(ls -a "$d")"
# written in this session: saved again without asking
keys Right
wait_for 'micro-batch +16 '
keys s Enter
wait_for 'saved scenario.yaml' 'saving a file napkin wrote asked again'
grep -q '^batch: 16' "$d/scenario.yaml" || fail 'the second save did not write batch: 16'

# o with Tab completion: con<Tab> -> config.json, a Hugging Face config opens as the model
keys o
wait_for 'open a file' 'no open prompt'
keys C-u
keys -l ./con
keys Tab
wait_for '> \./config\.json' 'Tab did not complete ./con to ./config.json'
keys Enter
wait_for 'opened \./config\.json: Hugging Face config, model' 'o did not open config.json as a model'
screen | grep -q "unknown knob" && fail 'config.json was read as a scenario'
line_of 'kv heads' | grep -q ' 8 ' || fail "the config's 8 KV heads did not arrive: $(line_of 'kv heads')"
# u undoes an opened file: the model before it comes back
keys u
wait_for 'undid model' 'u did not undo opening config.json'
line_of 'kv heads' | grep -q ' 32 ' || fail "u did not bring Llama-2-7B's 32 KV heads back: $(line_of 'kv heads')"
# o with a model in napkin's YAML format: the model
keys o C-u
keys -l ./a-model.yaml
keys Enter
wait_for 'opened \./a-model\.yaml: model Qwen2\.5-7B' 'o did not open a model YAML as the model'
# the GPU picker takes a path: ./my-<Tab> completes, Enter loads the profile as the GPU
keys g
wait_for 'Pick a GPU' 'no GPU picker'
keys -l ./my-
keys Tab
wait_for 'file: \./my-gpu-profile\.yaml' 'Tab did not complete in the picker'
keys Enter
wait_for 'opened \./my-gpu-profile\.yaml: GPU profile' 'the GPU picker did not open the profile'
# the model picker with a path to the config: the model; u undoes it
keys m
wait_for 'Pick a model' 'no model picker'
keys -l "$d/scenario.yaml"
keys Enter
wait_for 'opened .*scenario\.yaml' 'the model picker did not open the scenario file by its kind'
wait_for 'micro-batch +16 ' 'the saved scenario did not come back'
keys q
[ "$(wait_exit)" = 0 ] || fail "exit status"
echo "ok: files"
