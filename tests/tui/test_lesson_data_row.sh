#!/bin/sh
# Lesson 6 step 3 asks how large the dataset is and points at the data-loading row, which
# sits below the compute pane's fold at 80×24 and 120×40: the step scrolls the pane to it.
# The row shows the memmap figures, and the file's size (the quiz's answer: 15T tokens ×
# 2 bytes = 3e13 bytes, 30.00 TB) as "?" until the student answers or asks to see it (v).
. "$(dirname "$0")/lib.sh"


for lang in en zh; do
	for size in "80 24" "120 40"; do
		start_lesson ${size% *} ${size#* } 6 --step 3 --lang $lang
		if [ $lang = en ]; then
			wait_for 'memmap .* in RAM a step' "$lang $size: the data load row is not on screen"
			wait_for 'dataset \? on disk' "$lang $size: the dataset's size (the quiz's answer) is not hidden"
			screen | grep -q '30.00 TB' && fail "$lang $size: the answer shows before it is asked for"
			keys v
			wait_for 'dataset 30.00 TB on disk' "$lang $size: v did not show the dataset's size"
		else
			wait_for 'memmap 每步占 RAM' "$lang $size: the data load row is not on screen"
			wait_for '数据集文件 \?' "$lang $size: the dataset's size (the quiz's answer) is not hidden"
			screen | grep -q '30.00 TB' && fail "$lang $size: the answer shows before it is asked for"
			keys v
			wait_for '数据集文件 30.00 TB' "$lang $size: v did not show the dataset's size"
		fi
		stop
	done
done
exit 0
