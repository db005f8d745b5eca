#!/bin/sh
# The roofline's ridge label is never written over by a point's letter: at 200×60 the training
# step sits one row under the roof, right of the ridge, where the label used to go (it read
# "转折 T 295", the T over 点). The label is whole, in Chinese and in English, and every
# point's letter is still on the plot.
. "$(dirname "$0")/lib.sh"
for lang in zh en; do
	start 200 60 --lang "$lang"
	if [ "$lang" = zh ]; then ridge='转折点 [0-9]+'; else ridge='ridge [0-9]+'; fi
	wait_for 'FLOP/B' 'the roofline never drew'
	# on the plot: the row of the label holds the ridge's dotted line (⠅) too; the verdict under
	# the plot names the ridge in the same words
	screen | grep '⠅' | grep -Eq -- "$ridge" || fail "$lang: the ridge label is not whole: $(screen | grep -E 'FLOP/s|转折|ridge' | head -3)"
	# the plot's letters: T and P on the rows of the plot (between the y axis and the pane's edge)
	for pt in T P D E; do
		screen | sed -n '1,45p' | grep -q "│.*[^A-Za-z]$pt[^A-Za-z].*│" || fail "$lang: no point $pt on the plot"
	done
	keys q
	wait_exit >/dev/null
	stop
done
echo "ok: roofline labels"
