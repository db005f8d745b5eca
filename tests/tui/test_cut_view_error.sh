#!/bin/sh
# The tensor inspector's refusal of view() after a transpose is shown whole at 120×40 and at
# 80×24, in Chinese and in English: the result area grows (the hint below gives way) so that
# the remedy, reshape() (it copies) or contiguous() first, and PyTorch's own message ("view
# size is not compatible with input tensor's size and stride", torch/_refs and ATen's
# computeStride) are on screen. Lesson 2 step 3 turns on that remedy.
. "$(dirname "$0")/lib.sh"
command -v python3 >/dev/null 2>&1 || { echo "skipped: python3 joins the wrapped rows"; exit 0; }
# the rows of the inspector's box, borders and spaces taken out, joined
joined() {
	screen | python3 -c '
import sys
out = []
for l in sys.stdin.read().split("\n"):
    l = l.strip().strip("\u2502")
    out.append("".join(l.split()))
print("".join(out))
'
}
for lang in zh en; do
	for size in "120 40" "80 24"; do
		stop
		start ${size% *} ${size#* } --lang "$lang"
		wait_for '(每张 GPU 的显存|Memory per GPU)' "$lang $size: never drew"
		keys T
		wait_for '(Tensor 查看器|tensor inspector)' "$lang $size: T did not open the inspector"
		keys : && keys -l 'transpose(seq, heads)' && keys Enter
		wait_for 'transpose\(seq, heads\)' "$lang $size: the transpose did not apply"
		keys : && keys -l 'view(batch, heads, -1)' && keys Enter
		wait_for 'view\(batch, heads, -1\)(:|：)' "$lang $size: no result for view()"
		if [ "$lang" = zh ]; then
			want='请用reshape()（会复制）或先contiguous()（PyTorch：viewsizeisnotcompatiblewithinputtensor'"'"'ssizeandstride）'
		else
			want='usereshape()(itcopies)orcontiguous()first'
		fi
		joined | grep -qF -- "$want" || fail "$lang $size: the remedy of the view() error is cut"
	done
done
exit 0
