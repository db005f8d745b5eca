#!/bin/sh
# The compare view marks the best of a row as napkin compare does: by the result table's
# direction, and for a time or a rate only among the columns that fit. Llama-2-13B on 8
# H100s does not fit at tp 1 (109.8 GiB per GPU), so its MFU (68.5%) and training days
# (372.3) are not the best: tp 2's are (60.2%, 423.6 days), as `napkin compare --tp 1,2,4`.
. "$(dirname "$0")/lib.sh"

start 120 30 --model llama-2-13b --gpu h100-sxm --gpus 8 --tp 1
wait_for 'micro-batch' 'no main screen'
keys C
wait_for 'columns \(k K\): gpu' 'the compare view did not open'
press_until 'columns (k K): tp ' k 'k never reached the tp knob'
keys a
wait_for ' tp 1 +tp 2' 'a did not add tp 2'
keys a
wait_for ' tp 2 +tp 4' 'a did not add tp 4'
line=$(line_of '^ *fits ')
case $line in *no*yes*"✓"*yes*"✓"*) ;; *) fail "fits row: '$line'" ;; esac
line=$(line_of '^ *MFU ')
case $line in *"%"*"%"*"✓"*"%"*) ;; *) fail "the best MFU is not tp 2's (tp 1 does not fit): '$line'" ;; esac
printf '%s\n' "$line" | grep -Eq 'MFU +[0-9.]+% ✓' && fail "tp 1, which does not fit, is marked the best MFU: '$line'"
line=$(line_of '^ *training days ')
case $line in *" days"*" days"*"✓"*" days"*) ;; *) fail "the best training days are not tp 2's: '$line'" ;; esac
case $line in *" days"*"✓"*" days"*" days"*) fail "tp 1, which does not fit, is marked the fewest days: '$line'" ;; esac
line=$(line_of '^ *cost ')
case $line in *"✓"*) fail "a cost without a price is marked: '$line'" ;; esac
keys Escape
wait_for 'micro-batch' 'Esc did not leave the compare view'
keys q
[ "$(wait_exit)" = 0 ] || fail "exit status"
echo "ok: compare best"
