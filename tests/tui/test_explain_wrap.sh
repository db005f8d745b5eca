#!/bin/sh
# The explanation overlay wraps its long lines to the box instead of cutting them: at 80×24 a
# knob's sentence (dataset tokens: "... its size on disk, what np.memmap keeps in RAM, its
# read time") reads to its end, in English and in Chinese; the flag is spelled as the command
# line takes it (--dataset-tokens) and the default's words are translated.
. "$(dirname "$0")/lib.sh"


# the overlay's text: between its │ borders, the lines of the box titled Explain/解释
box() { screen | sed -n '/┌ \(Explain\|解释\)/,/└/p'; }

start_lesson 80 24 6 --step 3 --lang en
wait_for 'Data larger than RAM' 'lesson 6 step 3 did not open'
keys e
wait_for 'Explain: knob dataset_tokens' 'e did not explain the dataset tokens knob'
box | grep -q 'its read time' || fail 'en: the sentence is cut before its end'
box | grep -q '…' && fail 'en: the overlay cuts a line with …'
box | grep -q -- '--dataset-tokens VALUE' || fail 'en: the flag is not spelled as the command line takes it'
stop

start_lesson 80 24 6 --step 3 --lang zh
wait_for '数据比 RAM 还大' 'zh: lesson 6 step 3 did not open'
keys e
wait_for '解释：设置 dataset_tokens' 'zh: e did not explain the dataset tokens knob'
box | grep -q '读取时间' || fail 'zh: the sentence is cut before its end'
box | grep -q '…' && fail 'zh: the overlay cuts a line with …'
box | grep -q '（未给出）' || fail 'zh: the default is not in Chinese'
box | grep -q 'not given' && fail 'zh: the default is in English'
stop
exit 0
