#!/usr/bin/env python3
"""napkin against PyTorch on the same GPU (run by tests/gpu/run.sh).

1. Ceilings: a device-to-device copy of the size napkin probe copied, and a bf16 matmul of the
   shape it multiplied (also fp16, tf32 and fp32, for the record), timed with CUDA events as
   the probe times them (median of batches). Goal: napkin within 10% of PyTorch.
2. Memory: one training step of a small GPT-2-style model (learned positions, LayerNorm,
   GELU MLP, biases, tied embeddings, AdamW), fp32 and bf16 autocast, at several batch sizes
   and sequence lengths, with scaled_dot_product_attention (FlashAttention or memory-efficient
   attention: no s x s scores) and once with plain attention (the scores kept).
   torch.cuda.max_memory_allocated() over a step after the first (the optimizer states exist)
   against `napkin report` memory.total - memory.overhead for the same knobs. Goal: within 10%.

Writes results.json and summary.txt to --out, and the exit status (0 all goals met, 1 not)
to --out/status.
"""
import argparse
import gc
import json
import math
import os
import statistics
import subprocess
import sys
import time

import torch
import torch.nn as nn
import torch.nn.functional as F

GOAL = 0.10


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


# ------------------------------------------------------------------ the model

class Attention(nn.Module):
    def __init__(self, d, heads, sdpa):
        super().__init__()
        self.qkv = nn.Linear(d, 3 * d)
        self.proj = nn.Linear(d, d)
        self.heads = heads
        self.sdpa = sdpa

    def forward(self, x):
        b, t, c = x.shape
        q, k, v = self.qkv(x).split(c, dim=2)
        q, k, v = (z.view(b, t, self.heads, c // self.heads).transpose(1, 2) for z in (q, k, v))
        if self.sdpa:
            y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        else:
            att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(k.size(-1)))
            mask = torch.ones(t, t, dtype=torch.bool, device=x.device).tril()
            att = att.masked_fill(~mask, float("-inf"))
            att = F.softmax(att, dim=-1)
            y = att @ v
        return self.proj(y.transpose(1, 2).contiguous().view(b, t, c))


class Block(nn.Module):
    def __init__(self, d, heads, ffn, sdpa):
        super().__init__()
        self.ln1 = nn.LayerNorm(d)
        self.attn = Attention(d, heads, sdpa)
        self.ln2 = nn.LayerNorm(d)
        self.fc = nn.Linear(d, ffn)
        self.out = nn.Linear(ffn, d)

    def forward(self, x):
        x = x + self.attn(self.ln1(x))
        return x + self.out(F.gelu(self.fc(self.ln2(x)), approximate="tanh"))


class GPT(nn.Module):
    def __init__(self, cfg, sdpa):
        super().__init__()
        self.wte = nn.Embedding(cfg["vocab"], cfg["hidden"])
        self.wpe = nn.Embedding(cfg["positions"], cfg["hidden"])
        self.blocks = nn.ModuleList(Block(cfg["hidden"], cfg["heads"], cfg["ffn"], sdpa) for _ in range(cfg["layers"]))
        self.ln_f = nn.LayerNorm(cfg["hidden"])
        self.head = nn.Linear(cfg["hidden"], cfg["vocab"], bias=False)
        self.head.weight = self.wte.weight  # tied

    def forward(self, idx):
        pos = torch.arange(idx.size(1), device=idx.device)
        x = self.wte(idx) + self.wpe(pos)
        for blk in self.blocks:
            x = blk(x)
        return self.head(self.ln_f(x))


CFG = {"layers": 12, "hidden": 768, "heads": 12, "ffn": 3072, "vocab": 50304, "positions": 1024}


def napkin_memory(napkin, precision, batch, seq, flash):
    cmd = [napkin, "report", "--layers", str(CFG["layers"]), "--hidden", str(CFG["hidden"]),
           "--heads", str(CFG["heads"]), "--kv-heads", str(CFG["heads"]),
           "--head-dim", str(CFG["hidden"] // CFG["heads"]), "--ffn", str(CFG["ffn"]),
           "--vocab", str(CFG["vocab"]), "--mlp", "plain", "--norm", "layernorm", "--bias", "all",
           "--position", "learned", "--max-positions", str(CFG["positions"]), "--tied-embeddings", "on",
           "--dropout", "off", "--mode", "train", "--gpus", "1", "--zero", "0", "--grad-accum", "1",
           "--batch", str(batch), "--seq", str(seq), "--precision", precision, "--optimizer", "adamw",
           "--flash-attention", "on" if flash else "off", "--format", "json"]
    res = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
    if res.returncode != 0:
        raise RuntimeError("napkin report failed (%d): %s" % (res.returncode, res.stderr.strip()))
    report = json.loads(res.stdout)
    return report["memory"], " ".join(cmd[1:]), report["model"]["params_total"]


def make_optimizer(params):
    try:
        return torch.optim.AdamW(params, lr=1e-4, fused=True), "fused"
    except (TypeError, RuntimeError):
        return torch.optim.AdamW(params, lr=1e-4, foreach=False), "for-loop"


def torch_memory(precision, batch, seq, sdpa):
    dev = torch.device("cuda")
    gc.collect()
    torch.cuda.empty_cache()
    base = torch.cuda.memory_allocated()
    torch.manual_seed(0)
    model = GPT(CFG, sdpa).to(dev)
    params = sum(p.numel() for p in model.parameters())
    opt, kind = make_optimizer(model.parameters())
    x = torch.randint(0, CFG["vocab"], (batch, seq), device=dev)
    y = torch.randint(0, CFG["vocab"], (batch, seq), device=dev)
    amp = precision == "amp-bf16"
    peak = 0
    for step in range(3):
        if step == 1:  # from here the optimizer states exist: a steady-state step
            torch.cuda.synchronize()
            torch.cuda.reset_peak_memory_stats()
        with torch.autocast("cuda", dtype=torch.bfloat16, enabled=amp):
            logits = model(x)
            loss = F.cross_entropy(logits.view(-1, logits.size(-1)), y.view(-1))
        loss.backward()
        opt.step()
        opt.zero_grad(set_to_none=True)
        del logits, loss
    torch.cuda.synchronize()
    peak = torch.cuda.max_memory_allocated() - base
    states = sum(t.numel() * t.element_size() for s in opt.state.values() for t in s.values()
                 if torch.is_tensor(t) and t.is_cuda)
    del model, opt, x, y
    gc.collect()
    torch.cuda.empty_cache()
    return {"peak": peak, "params": params, "optimizer_bytes": states, "optimizer_kind": kind}


def check_model(napkin):
    """No GPU needed: the PyTorch model has exactly napkin's parameter count for the knobs
    passed, and one CPU step runs. Catches a knob that does not describe the model."""
    _, _, want = napkin_memory(napkin, "fp32", 1, 16, False)
    model = GPT(CFG, sdpa=False)
    got = sum(p.numel() for p in model.parameters())
    x = torch.randint(0, CFG["vocab"], (1, 16))
    y = torch.randint(0, CFG["vocab"], (1, 16))
    loss = F.cross_entropy(model(x).view(-1, CFG["vocab"]), y.view(-1))
    loss.backward()
    print("PyTorch model: %d parameters; napkin: %d; one CPU step: loss %.3f" % (got, want, loss.item()))
    return 0 if got == want else 1


def memory_cases(napkin):
    cases = [("fp32", 8, 512, True), ("fp32", 4, 1024, True), ("fp32", 16, 256, True),
             ("amp-bf16", 8, 512, True), ("amp-bf16", 4, 1024, True), ("amp-bf16", 16, 256, True),
             ("fp32", 4, 512, False)]
    rows = []
    for precision, batch, seq, sdpa in cases:
        row = {"precision": precision, "batch": batch, "seq": seq,
               "attention": "sdpa" if sdpa else "plain (scores kept)", "goal": True}
        try:
            mem, cmd, row["napkin_params"] = napkin_memory(napkin, precision, batch, seq, sdpa)
            row["napkin_cmd"] = "napkin " + cmd
            row["napkin"] = mem["total"] - mem["overhead"]
            row["napkin_parts"] = {k: mem.get(k) for k in ("weights", "master_weights", "gradients", "optimizer",
                                                            "activations", "logits")}
            if sdpa and not hasattr(F, "scaled_dot_product_attention"):
                raise RuntimeError("PyTorch %s has no scaled_dot_product_attention (2.0 or newer)" % torch.__version__)
            t = torch_memory(precision, batch, seq, sdpa)
            row.update({"torch": t["peak"], "params": t["params"], "torch_optimizer_bytes": t["optimizer_bytes"],
                        "optimizer_kind": t["optimizer_kind"]})
            row["error_rel"] = rel(row["napkin"], row["torch"])
            row["ok"] = abs(row["error_rel"]) <= GOAL
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

    out("\n== memory: napkin report (total - overhead) against torch.cuda.max_memory_allocated()")
    out("   GPT-2-style %(layers)d layers, d=%(hidden)d, %(heads)d heads, ffn %(ffn)d, vocab %(vocab)d, "
        "%(positions)d positions, tied, AdamW" % CFG)
    out("%-9s %-5s %-5s %-20s %-12s %-12s %-8s %s" % ("precision", "batch", "seq", "attention", "napkin", "PyTorch",
                                                   "error", "goal"))
    mem = memory_cases(args.napkin)
    for r in mem:
        if r.get("error"):
            out("%-9s %-5d %-5d %-20s %s" % (r["precision"], r["batch"], r["seq"], r["attention"], r["error"]))
            continue
        out("%-9s %-5d %-5d %-20s %-12s %-12s %-8s %s" % (r["precision"], r["batch"], r["seq"], r["attention"],
                                                       gib(r["napkin"]), gib(r["torch"]), pct(r["error_rel"]),
                                                       "ok" if r["ok"] else "MISSED"))
    out("   napkin's parts, first case: %s" % ", ".join(
        "%s %s" % (k, gib(v)) for k, v in (mem[0].get("napkin_parts") or {}).items()))
    if mem and mem[0].get("params"):
        out("   PyTorch: %d parameters, optimizer states %s (AdamW %s)" % (
            mem[0]["params"], gib(mem[0]["torch_optimizer_bytes"]), mem[0]["optimizer_kind"]))

    missed = [r["what"] for r in ceil if r["goal"] and not r.get("ok")]
    missed += ["memory %s b=%d s=%d %s" % (r["precision"], r["batch"], r["seq"], r["attention"])
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
