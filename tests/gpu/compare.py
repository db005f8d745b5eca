#!/usr/bin/env python3
"""napkin against PyTorch on the same GPU (run by tests/gpu/run.sh).

1. Ceilings: a device-to-device copy of the size napkin probe copied, and a bf16 matmul of the
   shape it multiplied (also fp16, tf32 and fp32, for the record), timed with CUDA events as
   the probe times them (median of batches). Goal: napkin within 10% of PyTorch.
2. Memory: the reference models of the CPU harness (tests/torch/models.py: nanoGPT's GPT-2,
   Hugging Face's eager Llama, the fused stand-ins) at GPU sizes, each configuration of
   tests/torch/configs.py at two batch and sequence sizes: torch.cuda.max_memory_allocated()
   over a step after the first (the optimizer states exist) against `napkin report`
   memory.peak - memory.overhead for the same knobs (kernels eager or fused). Goal: within 5%.

Writes results.json and summary.txt to --out, and the exit status (0 all goals met, 1 not)
to --out/status.
"""
import argparse
import gc
import json
import os
import statistics
import subprocess
import sys
import time

import torch
import torch.nn.functional as F

GOAL = 0.10
MEMORY_GOAL = 0.05


def rel(napkin, torch_value):
    return (napkin - torch_value) / torch_value if torch_value else float("nan")


def timed(fn, work, batch_s=0.05, runs=7, warmup_s=0.0):
    """Median rate (work per second) over `runs` batches, each about batch_s long."""
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    fn()
    torch.cuda.synchronize()
    t_end = time.time() + warmup_s
    while time.time() < t_end:
        fn()
        torch.cuda.synchronize()
    start.record()
    fn()
    end.record()
    end.synchronize()
    one = max(start.elapsed_time(end) / 1e3, 1e-9)
    reps = max(1, min(1000, int(batch_s / one)))
    rates = []
    for _ in range(runs):
        start.record()
        for _ in range(reps):
            fn()
        end.record()
        end.synchronize()
        rates.append(work * reps / (start.elapsed_time(end) / 1e3))
    return statistics.median(rates)


# ------------------------------------------------------------------ ceilings

def ceilings(probe):
    m = probe.get("measurements") or {}
    rows = []
    dev = torch.device("cuda")

    d2d = m.get("d2d_bandwidth") or {}
    if d2d.get("state") == "ok":
        n = int(d2d["bytes"])
        src = torch.randint(0, 256, (n,), dtype=torch.uint8, device=dev)
        dst = torch.empty_like(src)
        bw = timed(lambda: dst.copy_(src), 2.0 * n, batch_s=0.03, runs=9)
        rows.append({"what": "d2d copy bandwidth", "size": n, "napkin": d2d["value"], "torch": bw,
                     "unit": "B/s", "goal": True})
        del src, dst
    else:
        rows.append({"what": "d2d copy bandwidth", "napkin": None, "torch": None, "goal": True,
                     "error": "napkin did not measure it: %s" % d2d.get("note")})

    matmul = m.get("matmul") or {}
    dtypes = [("bf16", torch.bfloat16, None, True), ("fp16", torch.float16, None, False),
              ("tf32", torch.float32, True, False), ("fp32", torch.float32, False, False)]
    for name, dt, tf32, goal in dtypes:
        mm = matmul.get(name) or {}
        if mm.get("state") != "ok":
            rows.append({"what": "matmul " + name, "napkin": None, "torch": None, "goal": goal,
                         "error": "napkin did not measure it: %s" % mm.get("note")})
            continue
        n = int(mm["n"])
        old = torch.backends.cuda.matmul.allow_tf32
        if tf32 is not None:
            torch.backends.cuda.matmul.allow_tf32 = tf32
        try:
            a = torch.randn(n, n, device=dev, dtype=torch.float32).to(dt)
            b = torch.randn(n, n, device=dev, dtype=torch.float32).to(dt)
            c = torch.empty(n, n, device=dev, dtype=dt)
            rate = timed(lambda: torch.mm(a, b, out=c), 2.0 * n ** 3, batch_s=0.05, runs=7,
                         warmup_s=0.2 if name == "bf16" else 0.0)
            rows.append({"what": "matmul " + name, "size": n, "napkin": mm["value"], "torch": rate,
                         "unit": "FLOP/s", "goal": goal})
            del a, b, c
        finally:
            torch.backends.cuda.matmul.allow_tf32 = old
    torch.cuda.empty_cache()
    for r in rows:
        if r.get("napkin") and r.get("torch"):
            r["error_rel"] = rel(r["napkin"], r["torch"])
            r["ok"] = abs(r["error_rel"]) <= GOAL
    return rows


# ------------------------------------------------------------------ memory

# The reference models of the CPU harness (tests/torch/models.py: nanoGPT's GPT-2, Hugging
# Face's eager Llama, the fused stand-ins), at sizes a GPU runs in seconds.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "torch"))
import configs as torch_configs  # noqa: E402
import models as torch_models  # noqa: E402


def gpu_config(c, **kw):
    c = dict(c)
    c.update(kw)
    knobs = list(c["napkin"])
    for k in ("layers", "hidden", "heads", "kv_heads", "head_dim", "ffn", "vocab", "seq", "batch"):
        if k in kw:
            i = knobs.index("--" + k)
            knobs[i + 1] = str(kw[k])
    if "seq" in kw:
        knobs[knobs.index("--max_positions") + 1] = str(kw["seq"])
    c["napkin"] = knobs
    c["name"] = "%s h%d L%d s%d b%d" % (c["name"].split(" s")[0], c["hidden"], c["layers"], c["seq"], c["batch"])
    return c


def memory_configs():
    big = dict(layers=4, hidden=1024, heads=16, head_dim=64, vocab=32000)
    out = []
    for c in torch_configs.CONFIGS:
        kv = 4 if c["kv_heads"] < c["heads"] else 16
        ffn = 2816 if c["arch"] == "llama" else 4096
        for seq, batch in ((1024, 4), (2048, 2)):
            out.append(gpu_config(c, kv_heads=kv, ffn=ffn, seq=seq, batch=batch, **big))
    return out


def napkin_memory(napkin, c):
    cmd = [napkin, "report", "--gpus", "1", "--zero", "0", "--format", "json"] + c["napkin"]
    res = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
    if res.returncode != 0:
        raise RuntimeError("napkin report failed (%d): %s" % (res.returncode, res.stderr.strip()))
    return json.loads(res.stdout)["memory"], " ".join(cmd[1:])


def torch_memory(c):
    """torch.cuda.max_memory_allocated() over the second step (the states exist), less what
    was there before the model: the loop of tests/torch/measure.py, on the GPU. PyTorch's
    own AdamW: foreach for the eager profile (PyTorch >= 2.0's default on CUDA), fused=True
    for the fused one (as Apex's / TE's FusedAdam work in place)."""
    dev = torch.device("cuda")
    gc.collect()
    torch.cuda.empty_cache()
    base = torch.cuda.memory_allocated()
    torch.manual_seed(0)
    model = torch_models.build(c).to(dev)
    if c["precision"] == "bf16":
        model = model.to(torch.bfloat16)
    fixed = sum(b.numel() * b.element_size() for b in model.buffers())
    opt = torch.optim.AdamW(model.parameters(), lr=1e-4, fused=True) if c["fused"] else \
        torch.optim.AdamW(model.parameters(), lr=1e-4, foreach=True)
    x = torch.randint(0, c["vocab"], (c["batch"], c["seq"]), device=dev)
    y = torch.randint(0, c["vocab"], (c["batch"], c["seq"]), device=dev)
    amp = c["precision"] == "amp-bf16"
    for step in range(2):
        if step == 1:
            torch.cuda.synchronize()
            torch.cuda.reset_peak_memory_stats()
        with torch.autocast("cuda", dtype=torch.bfloat16, enabled=amp):
            logits = model(x)
            if c["fused"]:
                loss = torch_models.FusedCrossEntropyFn.apply(logits.view(-1, logits.size(-1)), y.view(-1))
                logits = None
            else:
                loss = F.cross_entropy(logits.view(-1, logits.size(-1)), y.view(-1))
        loss.backward()
        opt.step()
        opt.zero_grad(set_to_none=True)
        del logits, loss
    torch.cuda.synchronize()
    peak = torch.cuda.max_memory_allocated() - base - fixed - x.numel() * 16
    del model, opt, x, y
    gc.collect()
    torch.cuda.empty_cache()
    return peak


def check_model(napkin):
    """No GPU needed: every reference model has napkin's parameter count for its knobs."""
    bad = 0
    for c in memory_configs()[:4] + memory_configs()[-4:]:
        mem, _ = napkin_memory(napkin, c)
        report = json.loads(subprocess.run([napkin, "report", "--gpus", "1", "--format", "json"] + c["napkin"],
                                           capture_output=True, text=True, timeout=60).stdout)
        got = sum(p.numel() for p in torch_models.build(c).parameters())
        want = report["model"]["params_total"]
        print("%-36s PyTorch %d parameters; napkin %d" % (c["name"], got, want))
        bad += got != want
    return 1 if bad else 0


def memory_cases(napkin):
    rows = []
    for c in memory_configs():
        row = {"precision": c["precision"], "batch": c["batch"], "seq": c["seq"], "attention": c["name"],
               "goal": True}
        try:
            mem, cmd = napkin_memory(napkin, c)
            row["napkin_cmd"] = "napkin " + cmd
            row["napkin"] = mem["peak"] - mem["overhead"]
            row["napkin_phase"] = mem.get("peak_phase")
            row["torch"] = torch_memory(c)
            row["error_rel"] = rel(row["napkin"], row["torch"])
            row["ok"] = abs(row["error_rel"]) <= MEMORY_GOAL
        except getattr(torch.cuda, "OutOfMemoryError", MemoryError) as e:
            row["error"] = "out of memory on this GPU: %s" % str(e).splitlines()[0]
            row["goal"] = False
            gc.collect()
            torch.cuda.empty_cache()
        except Exception as e:  # noqa: BLE001 -- reported per case, the others still run
            row["error"] = "%s: %s" % (type(e).__name__, e)
        rows.append(row)
    return rows


# ------------------------------------------------------------------ report

def si(v, unit):
    if v is None:
        return "-"
    for mult, p in ((1e15, "P"), (1e12, "T"), (1e9, "G"), (1e6, "M"), (1e3, "k")):
        if abs(v) >= mult:
            return "%.4g %s%s" % (v / mult, p, unit)
    return "%.4g %s" % (v, unit)


def gib(v):
    return "-" if v is None else "%.3f GiB" % (v / 2 ** 30)


def pct(v):
    return "-" if v is None or v != v else "%+.1f%%" % (100 * v)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--napkin", required=True)
    ap.add_argument("--probe")
    ap.add_argument("--out")
    ap.add_argument("--check-model", action="store_true", help="CPU only: parameter counts agree, a step runs")
    args = ap.parse_args()
    if args.check_model:
        return check_model(args.napkin)
    if not args.probe or not args.out:
        ap.error("--probe and --out are needed")
    status_path = os.path.join(args.out, "status")
    with open(status_path, "w") as f:
        f.write("1\n")
    t0 = time.time()
    probe = json.load(open(args.probe))
    props = torch.cuda.get_device_properties(0)
    lines = []

    def out(s=""):
        print(s, flush=True)
        lines.append(s)

    out("GPU: %s (PyTorch %s, CUDA %s); napkin probe: %s, %s" % (
        props.name, torch.__version__, torch.version.cuda, probe.get("status"),
        (probe.get("measurements") or {}).get("blas")))
    sel = probe.get("selected")
    if sel is not None and probe["devices"][sel].get("name") != props.name:
        out("note: napkin probed %s, PyTorch sees %s as device 0" % (probe["devices"][sel].get("name"), props.name))

    out("\n== ceilings: napkin probe against PyTorch (same sizes, CUDA events, median of batches)")
    out("%-22s %-10s %-16s %-16s %-8s %s" % ("", "size", "napkin", "PyTorch", "error", "goal"))
    ceil = ceilings(probe)
    for r in ceil:
        if r.get("error"):
            out("%-22s %s" % (r["what"], r["error"]))
            continue
        size = "%d B" % r["size"] if r["unit"] == "B/s" else "%d^3" % r["size"]
        goal = ("ok" if r["ok"] else "MISSED") if r["goal"] else "(info)"
        out("%-22s %-10s %-16s %-16s %-8s %s" % (r["what"], size, si(r["napkin"], r["unit"]), si(r["torch"], r["unit"]),
                                             pct(r["error_rel"]), goal))

    out("\n== memory: napkin report (peak - overhead) against torch.cuda.max_memory_allocated()")
    out("   the reference models of tests/torch (kernels eager and fused), AdamW, zero_grad(set_to_none)")
    out("%-9s %-40s %-12s %-12s %-8s %-10s %s" % ("precision", "configuration", "napkin", "PyTorch", "error",
                                              "phase", "goal"))
    mem = memory_cases(args.napkin)
    for r in mem:
        if r.get("error"):
            out("%-9s %-40s %s" % (r["precision"], r["attention"], r["error"]))
            continue
        out("%-9s %-40s %-12s %-12s %-8s %-10s %s" % (r["precision"], r["attention"], gib(r["napkin"]),
                                                  gib(r["torch"]), pct(r["error_rel"]), r.get("napkin_phase"),
                                                  "ok" if r["ok"] else "MISSED"))

    missed = [r["what"] for r in ceil if r["goal"] and not r.get("ok")]
    missed += ["memory %s" % r["attention"]
               for r in mem if r["goal"] and not r.get("ok")]
    out("\n%s (%.0f s)" % ("all goals met" if not missed else "goals missed: " + "; ".join(missed), time.time() - t0))

    with open(os.path.join(args.out, "results.json"), "w") as f:
        json.dump({"gpu": props.name, "torch": torch.__version__, "cuda": torch.version.cuda, "goal": GOAL,
                   "ceilings": ceil, "memory": mem, "missed": missed}, f, indent=2)
    with open(os.path.join(args.out, "summary.txt"), "w") as f:
        f.write("\n".join(lines) + "\n")
    with open(status_path, "w") as f:
        f.write("0\n" if not missed else "1\n")
    return 0 if not missed else 1


if __name__ == "__main__":
    sys.exit(main())
