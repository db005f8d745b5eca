#!/bin/sh
# The four SVG figures render: rsvg-convert (librsvg, Debian's librsvg2-bin) reads each one
# without a complaint and makes a PNG of the size the SVG declares, in English and in
# Chinese; --format png makes a PNG through it, never over a file without --force. Skipped
# (status 77) where rsvg-convert is not installed.
. "$(dirname "$0")/../scripts/cli_lib.sh"

command -v rsvg-convert >/dev/null 2>&1 || { echo "skip: no rsvg-convert (scripts/deps.sh test installs librsvg2-bin)"; exit 77; }
SW="--model llama-3-8b --gpu h100-sxm --gpus 8"
for lang in en zh; do
	what="$lang figures"
	run report $SW --lang $lang --format svg -o "$tmp/roof-$lang.svg"
	ok
	run report $SW --lang $lang --format svg --figure memory -o "$tmp/mem-$lang.svg"
	ok
	run sweep batch=1..16:x2 $SW --lang $lang --format svg -o "$tmp/curve-$lang.svg"
	ok
	run sweep batch=1..8:x2 seq=1k..8k:x2 $SW --lang $lang --format svg -o "$tmp/heat-$lang.svg"
	ok
	for f in roof mem curve heat; do
		rsvg-convert -o "$tmp/$f-$lang.png" "$tmp/$f-$lang.svg" 2>"$tmp/rsvg" || fail "rsvg-convert $f-$lang.svg: $(cat "$tmp/rsvg")"
		[ -s "$tmp/rsvg" ] && fail "rsvg-convert warns on $f-$lang.svg: $(cat "$tmp/rsvg")"
		python3 - "$tmp/$f-$lang.svg" "$tmp/$f-$lang.png" <<'PY' || fail "$f-$lang.png is not the size its SVG declares"
import struct, sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
png = open(sys.argv[2], "rb").read()
assert png[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
w, h = struct.unpack(">II", png[16:24])
assert (w, h) == (int(float(root.get("width"))), int(float(root.get("height")))), (w, h, root.get("width"), root.get("height"))
PY
	done
done
what="--format png"
run report $SW --format png -o "$tmp/roof.png"
ok
python3 -c 'import sys; d = open(sys.argv[1], "rb").read(); sys.exit(d[:8] != b"\x89PNG\r\n\x1a\n")' "$tmp/roof.png" ||
	fail "$what: not a PNG"
printf 'mine\n' >"$tmp/mine.png"
run sweep batch=1..4 $SW --format png -o "$tmp/mine.png"
[ "$rc" -eq 1 ] || fail "$what: over a file that is there: status $rc, not 1"
[ "$(cat "$tmp/mine.png")" = mine ] || fail "$what: the file that was there was changed"
ls "$tmp" | grep -q 'napkin-' && fail "$what: a temporary file was left: $(ls "$tmp")"
run sweep batch=1..4 $SW --format png -o "$tmp/mine.png" --force
ok
python3 -c 'import sys; d = open(sys.argv[1], "rb").read(); sys.exit(d[:8] != b"\x89PNG\r\n\x1a\n")' "$tmp/mine.png" ||
	fail "$what: --force did not write the PNG"
finish "ok: the figures render with rsvg-convert (English and Chinese)"
