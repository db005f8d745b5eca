#!/bin/sh
# --format svg (napkin report --figure roofline|memory, napkin sweep): well-formed XML that
# declares UTF-8 and Chinese-capable fonts; the roofline's points, ridge and roofs are the JSON
# report's numbers exactly (the training step at its achieved FLOP/s, as the explorer draws
# it); the memory bar's parts are the report's bytes; the sweep's and the heatmap's points are
# napkin sweep --format json's; --lang zh labels in Chinese; -o never replaces a file that is
# there without --force; an unknown figure is refused naming the allowed ones. xmllint checks
# the documents where it is installed (figures_render.sh renders them with rsvg-convert).
. "$(dirname "$0")/../scripts/cli_lib.sh"

SW="--model llama-3-8b --gpu h100-sxm --gpus 8"
ARGS="$SW --seq 4096"

what="report --format svg"
run report $ARGS --format svg
ok
cp "$tmp/out" "$tmp/roof.svg"
run report $ARGS --format json
ok
cp "$tmp/out" "$tmp/report.json"
python3 - "$tmp/roof.svg" "$tmp/report.json" <<'PY' || fail "the roofline SVG disagrees with the JSON report"
import json, sys, xml.etree.ElementTree as ET
svg_text = open(sys.argv[1], encoding="utf-8").read()
assert svg_text.startswith('<?xml version="1.0" encoding="UTF-8"?>'), "no UTF-8 XML declaration"
root = ET.fromstring(svg_text.encode("utf-8"))
NS = "{http://www.w3.org/2000/svg}"
assert root.tag == NS + "svg", root.tag
fonts = root.get("font-family")
assert "Noto Sans CJK SC" in fonts and "WenQuanYi Micro Hei" in fonts and fonts.endswith("sans-serif"), fonts
rep = json.load(open(sys.argv[2]))
rl = rep["roofline"]
points = {g.get("data-name"): g for g in root.iter(NS + "g") if g.get("class") == "point"}
names = [p["name"] for p in rl["points"]]
assert sorted(points) == sorted(names), (sorted(points), names)
for p in rl["points"]:
    g = points[p["name"]]
    assert float(g.get("data-intensity")) == p["intensity"], (p["name"], g.get("data-intensity"), p["intensity"])
    assert float(g.get("data-attainable")) == p["attainable_flops"], p["name"]
    want = p["attainable_flops"]
    if "achieved_flops" in p and 0 < p["achieved_flops"] < want:
        want = p["achieved_flops"]  # the explorer draws training where it runs, never above the roof
    assert float(g.get("data-flops")) == want, (p["name"], g.get("data-flops"), want)
    assert g.get("data-bound") == p["bound"], p["name"]
roof = [g for g in root.iter(NS + "g") if g.get("class") == "roof"][0]
assert float(roof.get("data-flops")) == rl["peak_flops"]
assert float(roof.get("data-bandwidth")) == rl["bandwidth_bytes_per_s"]
ridge = [g for g in root.iter(NS + "g") if g.get("class") == "ridge"][0]
assert float(ridge.get("data-intensity")) == rl["ridge_flops_per_byte"]
texts = " ".join("".join(t.itertext()) for t in root.iter(NS + "text"))
# H100 SXM's datasheet: 989.5 TFLOP/s dense BF16, 3.35 TB/s: a ridge of 295 FLOP/B
for want in ("Llama-3-8B", "H100 SXM", "per GPU", "ridge 295 FLOP/B", "989.5 TFLOP/s", "3.35 TB/s", "FLOP/B", "TFLOP/s"):
    assert want in texts, "no '%s' in the roofline's text" % want
PY

what="inference: prefill and decode, no training step"
run report $ARGS --mode infer --format svg
ok
grep -q 'data-name="train_step"' "$tmp/out" && fail "$what: a training step in an inference roofline"
grep -q 'data-name="decode"' "$tmp/out" || fail "$what: no decode point"

what="report --format svg --lang zh"
run report $ARGS --format svg --lang zh
ok
for want in '算术强度' '每张 GPU' '转折点 295 FLOP/B' '显存带宽 3.35 TB/s' '训练步' '解码步' 'lang="zh-CN"'; do
	out_has "$want"
done
run report $ARGS --format svg --figure memory --lang zh
ok
for want in '每张 GPU 的显存' '权重' '梯度' '优化器' '激活值' '容量' 'GiB'; do
	out_has "$want"
done

what="report --figure memory"
run report $ARGS --format svg --figure memory
ok
cp "$tmp/out" "$tmp/mem.svg"
python3 - "$tmp/mem.svg" "$tmp/report.json" <<'PY' || fail "the memory SVG disagrees with the JSON report"
import json, sys, xml.etree.ElementTree as ET
NS = "{http://www.w3.org/2000/svg}"
root = ET.parse(sys.argv[1]).getroot()
mem = json.load(open(sys.argv[2]))["memory"]
parts = {r.get("data-key"): float(r.get("data-bytes")) for r in root.iter(NS + "rect") if r.get("class") == "part"}
assert parts, "no parts"
for k, v in parts.items():
    assert v == mem[k], (k, v, mem[k])
for k in ("weights", "gradients", "optimizer", "activations"):
    assert k in parts, "no %s in the bar" % k
bar = [g for g in root.iter(NS + "g") if g.get("class") == "bar"][0]
assert float(bar.get("data-total")) == mem["total"] and float(bar.get("data-capacity")) == mem["capacity"]
# the parts are the total: every part at once
assert abs(sum(parts.values()) - mem["total"]) <= 1e-9 * mem["total"], (sum(parts.values()), mem["total"])
texts = " ".join("".join(t.itertext()) for t in root.iter(NS + "text"))
for want in ("Memory per GPU", "Llama-3-8B", "H100 SXM", "GiB", "capacity"):
    assert want in texts, want
PY

what="sweep --format svg (a curve)"
run sweep batch=1..16:x2 $SW --format svg --y memory.total,compute.step_seconds,memory.fits
ok
cp "$tmp/out" "$tmp/curve.svg"
run sweep batch=1..16:x2 $SW --format json --y memory.total,compute.step_seconds,memory.fits
ok
cp "$tmp/out" "$tmp/curve.json"
python3 - "$tmp/curve.svg" "$tmp/curve.json" <<'PY' || fail "the sweep SVG disagrees with napkin sweep --format json"
import json, sys, xml.etree.ElementTree as ET
NS = "{http://www.w3.org/2000/svg}"
root = ET.parse(sys.argv[1]).getroot()
pts = json.load(open(sys.argv[2]))["points"]
series = {g.get("data-key"): g for g in root.iter(NS + "g") if g.get("class") == "series"}
assert sorted(series) == ["compute.step_seconds", "memory.total"], sorted(series)
for key, g in series.items():
    got = [(float(c.get("data-x")), float(c.get("data-y"))) for c in g.iter(NS + "circle")]
    want = [(p["batch"], p[key]) for p in pts if "error" not in p]
    assert got == want, (key, got, want)
fits = [c.get("data-fits") == "true" for c in series["memory.total"].iter(NS + "circle")]
assert fits == [p["memory.fits"] for p in pts if "error" not in p]
PY

what="sweep --format svg (a heatmap)"
run sweep batch=1..8:x2 seq=1k..8k:x2 $SW --format svg --y compute.mfu,memory.fits
ok
cp "$tmp/out" "$tmp/heat.svg"
run sweep batch=1..8:x2 seq=1k..8k:x2 $SW --format json --y compute.mfu,memory.fits
ok
cp "$tmp/out" "$tmp/heat.json"
python3 - "$tmp/heat.svg" "$tmp/heat.json" <<'PY' || fail "the heatmap SVG disagrees with napkin sweep --format json"
import json, sys, xml.etree.ElementTree as ET
NS = "{http://www.w3.org/2000/svg}"
root = ET.parse(sys.argv[1]).getroot()
pts = json.load(open(sys.argv[2]))["points"]
cells = [r for r in root.iter(NS + "rect") if r.get("class") == "cell"]
assert len(cells) == len(pts) == 16, (len(cells), len(pts))
for c, p in zip(cells, pts):
    assert (float(c.get("data-x")), float(c.get("data-y"))) == (p["batch"], p["seq"])
    assert float(c.get("data-v")) == p["compute.mfu"], (c.get("data-v"), p["compute.mfu"])
    assert (c.get("data-fits") == "true") == p["memory.fits"]
assert len([r for r in root.iter(NS + "rect") if r.get("class") == "own"]) == 1, "the scenario's own cell is not marked once"
PY

what="the figures' names"
run report $ARGS --format svg --figure sweep
refused
err_has "allowed: roofline, memory"
err_has "napkin sweep --format svg"
run report $ARGS --format svg --figure pie
refused
err_has "'pie'"
run report $ARGS --figure memory
refused
err_has "--format svg"
run report $ARGS --format pdf
refused
err_has "svg, png"
if ! command -v rsvg-convert >/dev/null 2>&1; then
	what="--format png without rsvg-convert"
	run report $ARGS --format png -o "$tmp/r.png"
	[ "$rc" -eq 1 ] || fail "$what: status $rc, not 1"
	err_has "rsvg-convert"
	[ -e "$tmp/r.png" ] && fail "$what: a file was left"
fi

what="-o never replaces a file napkin did not write"
printf 'my notes\n' >"$tmp/notes.svg"
run report $ARGS --format svg -o "$tmp/notes.svg"
[ "$rc" -eq 1 ] || fail "$what: status $rc, not 1"
err_has "--force"
[ "$(cat "$tmp/notes.svg")" = "my notes" ] || fail "$what: the file was changed"
[ -s "$tmp/out" ] && fail "$what: the figure went to stdout instead"
run sweep batch=1..4 $SW --format svg --output "$tmp/notes.svg"
[ "$rc" -eq 1 ] || fail "$what (sweep): status $rc, not 1"
[ "$(cat "$tmp/notes.svg")" = "my notes" ] || fail "$what (sweep): the file was changed"
run report $ARGS --format svg -o "$tmp/notes.svg" --force
ok
grep -q '<svg ' "$tmp/notes.svg" || fail "$what: --force did not write the figure"
run report $ARGS --format svg --figure memory -o "$tmp/new.svg"
ok
[ -s "$tmp/out" ] && fail "$what: -o also wrote to stdout"
grep -q 'class="part"' "$tmp/new.svg" || fail "$what: -o FILE did not get the memory figure"
run report $ARGS --format svg -o "$tmp/no/such/dir.svg"
[ "$rc" -eq 1 ] || fail "$what: a folder that is not there: status $rc"
run report $ARGS --format json -o "$tmp/x.json"
refused

if command -v xmllint >/dev/null 2>&1; then
	for f in roof mem curve heat; do
		xmllint --noout "$tmp/$f.svg" 2>"$tmp/lint" || fail "xmllint: $f.svg: $(cat "$tmp/lint")"
	done
fi
finish "ok: figures (the roofline, memory, sweep and heatmap SVGs agree with the JSON; zh labels; -o keeps files)"
