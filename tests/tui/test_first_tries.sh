#!/bin/sh
# First tries in the explorer: a model with a shorter context than the default sequence
# opens (the sequence follows it, with a note); picking it in the model picker works and
# says so; picking a GPU without bf16 turns the default recipe into mixed-fp16, said on the
# message line; a bare number typed for a size is refused with the unit it probably meant.
. "$(dirname "$0")/lib.sh"


# 1. napkin explore --model gpt2: opens, sequence 1,024, the note on the message line
start 120 40 --model gpt2
wait_for 'GPT-2 \(124M\) on 8' 'the explorer did not open with --model gpt2'
wait_for 'sequence 4,096 → 1,024, the context of GPT-2' 'no note about the sequence'
line_of '│ sequence ' | grep -q '1,024' || fail 'the sequence knob is not 1,024'
keys Q
[ "$(wait_exit)" = 0 ] || fail "exit status"
stop

# 1b. napkin --model gpt2 (no command, on a terminal): the explorer too
tm set-option -g remain-on-exit on \; new-session -d -s app -x 120 -y 40 "$NAPKIN --model gpt2" ||
	fail "tmux did not start"
wait_for 'GPT-2 \(124M\) on 8' 'napkin --model gpt2 did not open the explorer'
keys Q
[ "$(wait_exit)" = 0 ] || fail "exit status"
stop

# 2. the model picker: from Llama-2-7B to GPT-2, and back
start 120 40
wait_for 'Llama-2-7B on 8' 'never drew'
keys m
wait_for 'Pick a model' 'the model picker did not open'
keys -l gpt2-medium
keys Enter
wait_for 'GPT-2 Medium|gpt2-medium' 'GPT-2 was not picked'
screen | grep -q 'kept model' && fail 'the pick was refused'
wait_for 'model: gpt2-medium · sequence 4,096 → 1,024, the context of GPT-2' 'no note after the pick'
line_of '│ sequence ' | grep -q '1,024' || fail 'the sequence did not follow the model'
keys m
wait_for 'Pick a model'
keys -l llama-2-7b
keys Enter
wait_for 'Llama-2-7B on 8' 'Llama-2-7B was not picked back'
line_of '│ sequence ' | grep -q '4,096' || fail 'the sequence did not come back to its default'

# 3. the GPU picker: a T4 has no bf16 peak, the default recipe follows
keys g
wait_for 'Pick a GPU' 'the GPU picker did not open'
keys -l t4
keys Enter
wait_for 'on 8 × T4' 'the T4 was not picked'
screen | grep -q 'kept gpu' && fail 'the T4 was refused'
wait_for 'precision mixed-bf16 → mixed-fp16: T4 has no bf16 peak' 'no note about the precision'
line_of '│ precision ' | grep -q 'mixed-fp16' || fail 'the precision knob is not mixed-fp16'

# 4. the type-in box: a bare number for a size is refused with the unit it lacked
keys Tab Tab
wait_for '│ GPU +T4 ' 'the GPU group is not focused'
keys Down
keys Enter
wait_for '^│ *> ' 'no prompt for the GPU memory'
keys C-u
keys -l '80'
keys Enter
wait_for "gpu_memory: '80' has no unit: did you mean 80 GB\\?" 'a bare 80 was not refused with the unit'
# the box stays open on the refused value (test_bad_value): Esc closes it
keys Escape
wait_gone '^│ *> 80' 'Esc did not close the input box'
line_of '│ memory ' | grep -q '15.00 GiB' || fail 'the old GPU memory was not kept'
keys Enter
wait_for '^│ *> '
keys C-u
keys -l '80 GB'
keys Enter
wait_for 'gpu_memory = 74.51 GiB' 'a size with its unit was not taken'
keys Q
[ "$(wait_exit)" = 0 ] || fail "exit status"
# 5. the solves say what they found, never a placeholder
stop
start 120 40 --scenario course-largest-model-8-h100
wait_for 'largest micro-batch no limit from memory' 'the largest micro-batch is not "no limit from memory"'
screen | grep -q '10000000' && fail 'the knob limit is shown as a result'
keys Q
[ "$(wait_exit)" = 0 ] || fail "exit status"
stop

start 120 40 --model llama-2-70b --gpus 1
wait_for 'largest micro-batch none fits' 'the largest micro-batch is not "none fits"'
keys Q
[ "$(wait_exit)" = 0 ] || fail "exit status"
# 6. inference: whose each figure is, and what applies (fp8 weights, no ZeRO in use)
stop
start 120 40 --mode infer --weight-dtype fp8 --gpus 8 --tp 2
wait_for 'infer · fp8-e4m3 weights' 'the header does not name the weights dtype in inference'
screen | grep -q 'infer · mixed-bf16' && fail 'the header names a training recipe in inference'
wait_for 'tokens/s +[0-9,.]+ for the job' 'tokens/s does not say it is the job'
wait_for '[0-9,.]+ per replica \(4\)' 'no per-replica tokens/s with 4 replicas'
wait_for '[0-9,.]+ per sequence' 'no per-sequence tokens/s'
wait_for 'reads [0-9.]+ GB/step, [0-9.]+ GB/GPU' 'the bytes read per step do not say per GPU'
wait_for 'mixed precision: fp32 → fp8-e4m3 weights' 'the techniques pane compares a training recipe'
screen | grep -q '● ZeRO' && fail 'ZeRO is marked in use in inference'
screen | grep -Eq '(^|[^0-9.,])1 (GPUs|ranks|sequences|replicas)' && fail "a plural after 1: $(screen | grep -E '[^0-9.,]1 (GPUs|ranks|sequences|replicas)')"
keys Q
[ "$(wait_exit)" = 0 ] || fail "exit status"
stop
start 120 40 --gpus 1 --zero 0
wait_for 'on 1 × H100' 'never drew'
screen | grep -Eq '(^|[^0-9.,])1 (GPUs|ranks|sequences|replicas)' && fail "a plural after 1: $(screen | grep -E '[^0-9.,]1 (GPUs|ranks|sequences|replicas)')"
keys Q
[ "$(wait_exit)" = 0 ] || fail "exit status"
# 7. amp-bf16: the explorer shows autocast's copies as their own part, and the sum per parameter
stop
start 120 40 --precision amp-bf16
wait_for 'autocast copy +12\.31 GiB' 'no autocast copy part in the memory pane'
wait_for 'weights +25\.10 GiB' 'the weights part is not fp32 weights alone'
wait_for '1\.96 (bf16 )?copies .*= 17\.96 B' 'the per-parameter line does not add the copies'
keys Q
[ "$(wait_exit)" = 0 ] || fail "exit status"
# 8. opening a scenario or a model file: the defaults that followed it are said as well
printf 'model: gpt2\ngpus: 1\n' >"$TUI_TMP/gpt2.yaml"
stop
start 120 40
wait_for 'Llama-2-7B on 8' 'never drew'
keys o
wait_for '^│ *> ' 'no prompt to open a file'
keys C-u
keys -l "$TUI_TMP/gpt2.yaml"
keys Enter
wait_for "opened .*gpt2.yaml · sequence 4,096 → 1,024, the context of GPT-2" 'no note after opening the scenario'
line_of '│ sequence ' | grep -q '1,024' || fail 'the sequence did not follow the opened scenario'
keys Q
[ "$(wait_exit)" = 0 ] || fail "exit status"
echo "ok: first tries: --model gpt2, model and GPU pickers adapt the defaults with a note; a bare size is refused; solves in words; inference says whose; autocast copies; opened files say what adapted"
