#!/usr/bin/python3
"""napkin's memory model against a real PyTorch training step on the CPU (ctest label torch).

For each configuration (tests/torch/configs.py) it builds a reference model (models.py)
and measures two things:

1. Saved for backward: every tensor autograd keeps, seen through
   torch.autograd.graph.saved_tensors_hooks, de-duplicated by storage (a view, or a tensor
   two operations save, counts once), attributed to the layer whose forward first saved it;
   parameters and buffers, and autocast's casts of the weights, are split off (napkin counts
   those under weights). Dropout masks are counted on the side: CPU's F.dropout keeps its
   mask in the input's dtype, CUDA's native_dropout in one byte, and napkin models CUDA, so
   the mask bytes are converted explicitly (column "mask adj.") and never hidden.
2. Peak allocated during a real step: forward (the logits kept by the loop, as nanoGPT's
   and Hugging Face's loops keep them), loss, backward, AdamW step, zero_grad(set_to_none)
   (PyTorch >= 2.0's default). An LD_PRELOAD shim (alloc_shim.c) counts the live bytes of
   the C library's large blocks, where PyTorch's CPU allocator takes every tensor: the CPU
   analogue of torch.cuda.max_memory_allocated(). The peak of the second step (the
   optimizer's states exist by then) and the phase it falls in.

Then `napkin report --gpus 1 --zero 0 --format json` for the same scenario, and each
component: the activations one layer keeps, the logits and loss term, and the peak, must be
within 5% of what was measured. Exit 0 when all agree, 1 when not, 2 on a usage error.

usage: /usr/bin/python3 tests/torch/measure.py --napkin build/napkin --shim build/.../libnapkin_alloc_shim.so
       [--only NAME] [--table FILE.md] [--json FILE]
"""
import argparse
import ctypes
import json
import os
import subprocess
import sys

TOL = 0.05
PHASES = {0: "idle", 1: "forward", 2: "backward", 3: "optimizer", 4: "zero_grad"}


def parse_args():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--napkin", required=True)
    ap.add_argument("--shim", required=True)
    ap.add_argument("--only", default="", help="run the configurations whose name contains this")
    ap.add_argument("--table", default="", help="also write the results as a Markdown table")
    ap.add_argument("--json", default="", help="also write the results as JSON")
    return ap.parse_args()


def reexec_with_shim(args):
    """The shim must be loaded before the C library's allocator is first used."""
    if os.environ.get("NAPKIN_SHIM_LOADED") == "1":
        return
    env = dict(os.environ)
    env["LD_PRELOAD"] = os.path.abspath(args.shim)
    env["NAPKIN_SHIM_LOADED"] = "1"
    env.setdefault("OMP_NUM_THREADS", "1")
    env.setdefault("MKL_NUM_THREADS", "1")
    os.execve(sys.executable, [sys.executable] + sys.argv, env)


class Shim:
    def __init__(self):
        lib = ctypes.CDLL(None)
        try:
            self.live = lib.napkin_shim_live
        except AttributeError:
            sys.exit("measure.py: the allocator shim is not loaded (LD_PRELOAD)")
        self.live.restype = ctypes.c_longlong
        self.peak = lib.napkin_shim_peak
        self.peak.restype = ctypes.c_longlong
        self.reset = lib.napkin_shim_reset_peak
        self.set_phase = lib.napkin_shim_set_phase
        self.set_phase.argtypes = [ctypes.c_int]
        self.peak_phase = lib.napkin_shim_peak_phase
        self.peak_phase.restype = ctypes.c_int


def storage_of(t):
    s = t.storage()
    return s.data_ptr(), s.nbytes()


VIEWS = ("TBackward0", "ViewBackward0", "TransposeBackward0", "PermuteBackward0", "ExpandBackward0")


def is_weight_cast(t):
    """autocast's cast of a leaf weight (maybe transposed, as F.linear saves it):
    ToCopyBackward0 straight onto an AccumulateGrad, through views."""
    fn = t.grad_fn
    while fn is not None and type(fn).__name__ in VIEWS:
        fn = fn.next_functions[0][0] if fn.next_functions else None
    if fn is None or type(fn).__name__ != "ToCopyBackward0":
        return False
    return any(n is not None and type(n).__name__ == "AccumulateGrad" for n, _ in fn.next_functions)


def precision_context(torch, c):
    if c["precision"] == "amp-bf16":
        return torch.autocast("cpu", dtype=torch.bfloat16)
    return torch.autocast("cpu", enabled=False)


def forward_loss(torch, F, models, model, c, x, y):
    """The forward and the loss as the loop writes them: (logits the loop keeps, loss)."""
    with precision_context(torch, c):
        logits = model(x)
        if c.get("loss") == "chunked":
            # the LM head and the loss a chunk of tokens at a time: the model returns the
            # final norm's output, no logits outlive the forward
            return None, models.ChunkedLinearCrossEntropyFn.apply(logits.view(-1, logits.size(-1)),
                                                                   model.lm_head.weight, y.view(-1))
        if c["fused"]:
            # Megatron: the model returns the loss; no logits outlive the forward
            return None, models.FusedCrossEntropyFn.apply(logits.view(-1, logits.size(-1)), y.view(-1))
        if c["arch"] == "llama":
            # Hugging Face: outputs.loss and outputs.logits, the loop keeps both; the loss
            # upcasts the logits to fp32 (without autocast: a new fp32 tensor)
            return logits, models.hf_causal_lm_loss(logits, y, c["vocab"])
        # nanoGPT: `logits, loss = model(X, Y)` keeps the logits through the backward;
        # F.cross_entropy under autocast runs in fp32 (CUDA: log_softmax and nll_loss are on
        # autocast's fp32 list; 1.13's CPU autocast lists cross_entropy), keeping fp32
        # log-probabilities
        return logits, F.cross_entropy(logits.view(-1, logits.size(-1)), y.view(-1))


def measure_saved(torch, F, models, model, c, x, y):
    """Bytes autograd keeps, by scope, de-duplicated by storage."""
    params = set()
    for p in list(model.parameters()) + list(model.buffers()):
        params.add(p.storage().data_ptr())
    # LoRA under autocast: a frozen weight is cast anew at each use (autocast caches only
    # the leaves that require grad), and its cast, a plain 16-bit tensor of the weight's
    # shape, is saved for the data gradient: a weight cast, as napkin counts it
    frozen = {tuple(p.shape) for p in model.parameters() if not p.requires_grad and p.dim() == 2}
    seen = {}
    scope = ["embed"]
    in_dropout = [False]
    masks = {}

    def on_mark(s):
        if s == "dropout-begin":
            in_dropout[0] = True
        elif s == "dropout-end":
            in_dropout[0] = False
        else:
            scope[0] = s

    keep = []

    def pack(t):
        # keep a detached alias (the storage stays put, so no address is reused and seen
        # twice), and hand autograd nothing: this graph never runs backward, and a saved
        # output returned as itself would tie the graph in a cycle that is never freed
        keep.append(t.detach())
        ptr, nbytes = storage_of(t)
        if ptr in seen or ptr == 0:
            return None
        if ptr in params:
            kind = "param"
        elif is_weight_cast(t) or (t.grad_fn is None and t.dtype in (torch.bfloat16, torch.float16) and
                                   c["precision"].startswith("amp") and
                                   (tuple(t.shape) in frozen or tuple(t.shape)[::-1] in frozen)):
            kind = "weight_cast"
        elif in_dropout[0]:
            kind = "mask"
            m = masks.setdefault(scope[0], [0, 0])
            m[0] += nbytes
            m[1] += t.numel()
        else:
            kind = "act"
        seen[ptr] = (scope[0], kind, nbytes)
        return None

    model.marks.scope_fn = on_mark
    with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        logits, loss = forward_loss(torch, F, models, model, c, x, y)
    model.marks.scope_fn = None
    by = {}
    for sc, kind, nbytes in seen.values():
        if kind in ("act", "mask"):
            by[sc] = by.get(sc, 0) + nbytes
    lbytes, logits_saved = 0, False
    if logits is not None:
        lptr, lbytes = storage_of(logits)
        logits_saved = lptr in seen
    out = {
        "by_scope": by,
        "masks": masks,
        "logits_bytes": lbytes,          # the logits tensor the loop keeps (0: none)
        "logits_saved": logits_saved,    # also saved by autograd (counted in by_scope)
        "weight_casts": sum(n for _, k, n in seen.values() if k == "weight_cast"),
    }
    del logits, loss, keep[:]
    return out


def adamw_foreach(torch):
    import math

    class AdamWForeach(torch.optim.Optimizer):
        """torch.optim.AdamW's foreach path as PyTorch >= 2.0 runs it by default on CUDA
        (_multi_tensor_adamw): the moments updated in place, and one state-sized buffer,
        sqrt(exp_avg_sq), made and then worked in place. (1.13's foreach path makes a
        second one with a _foreach_add that is not in place; its CPU default is the
        per-tensor loop.)"""

        def __init__(self, params, lr=1e-4, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.01):
            super().__init__(params, dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay))

        @torch.no_grad()
        def step(self):
            for g in self.param_groups:
                ps = [p for p in g["params"] if p.grad is not None]
                grads = [p.grad for p in ps]
                for p in ps:
                    st = self.state[p]
                    if not st:  # the first step allocates the states
                        st["step"] = 0
                        st["exp_avg"] = torch.zeros_like(p)
                        st["exp_avg_sq"] = torch.zeros_like(p)
                    st["step"] += 1
                ms = [self.state[p]["exp_avg"] for p in ps]
                vs = [self.state[p]["exp_avg_sq"] for p in ps]
                n = self.state[ps[0]]["step"]
                b1, b2 = g["betas"]
                torch._foreach_mul_(ps, 1 - g["lr"] * g["weight_decay"])
                torch._foreach_mul_(ms, b1)
                torch._foreach_add_(ms, grads, alpha=1 - b1)
                torch._foreach_mul_(vs, b2)
                torch._foreach_addcmul_(vs, grads, grads, 1 - b2)
                denom = torch._foreach_sqrt(vs)
                torch._foreach_div_(denom, math.sqrt(1 - b2 ** n))
                torch._foreach_add_(denom, g["eps"])
                torch._foreach_addcdiv_(ps, ms, denom, -g["lr"] / (1 - b1 ** n))
                del denom

    return AdamWForeach


def measure_peak(torch, F, models, shim, model, c, x, y):
    """Live bytes over two real steps; the second's peak and its phase."""
    opt = adamw_foreach(torch)(model.parameters())
    steps = []
    for _ in range(2):
        base = shim.live()
        shim.set_phase(1)
        shim.reset()
        logits, loss = forward_loss(torch, F, models, model, c, x, y)
        fwd_end = shim.live()
        shim.set_phase(2)
        loss.backward()
        shim.set_phase(3)
        opt.step()
        shim.set_phase(4)
        opt.zero_grad(set_to_none=True)
        peak = shim.peak()
        phase = PHASES.get(shim.peak_phase(), "?")
        del logits, loss
        shim.set_phase(0)
        states = sum(t.storage().nbytes() for st in opt.state.values() for t in st.values()
                     if torch.is_tensor(t) and t.dim() > 0)
        steps.append({"base": base, "forward_end": fwd_end, "peak": peak, "phase": phase, "states": states})
    return steps


def check_fused_gradients(torch, F, models):
    """The fused stand-ins must compute what the modules they stand for compute."""
    torch.manual_seed(0)
    mask = torch.ones(6, 6, dtype=torch.bool).triu(1)[None, None]
    target = torch.randint(0, 7, (5,))

    def attention(q, k, v):
        k2, v2 = models.repeat_kv(k, 2), models.repeat_kv(v, 2)
        return F.softmax((q @ k2.transpose(2, 3) * 0.5).masked_fill(mask, float("-inf")), -1) @ v2

    cases = [
        ("FusedSwiGLUFn", models.FusedSwiGLUFn.apply, lambda a, b: F.silu(a) * b, [(3, 5), (3, 5)]),
        ("FusedRMSNormFn", lambda x, w: models.FusedRMSNormFn.apply(x, w, 1e-6),
         lambda x, w: w * (x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + 1e-6)), [(2, 3, 8), (8,)]),
        ("FusedAttentionFn", lambda q, k, v: models.FusedAttentionFn.apply(q, k, v, mask, 0.5), attention,
         [(1, 4, 6, 3), (1, 2, 6, 3), (1, 2, 6, 3)]),
        ("FusedCrossEntropyFn", lambda x: models.FusedCrossEntropyFn.apply(x, target),
         lambda x: F.cross_entropy(x, target), [(5, 7)]),
        ("ChunkedLinearCrossEntropyFn", lambda h, w: models.ChunkedLinearCrossEntropyFn.apply(h, w, target),
         lambda h, w: F.cross_entropy(h @ w.t(), target), [(5, 3), (7, 3)]),
    ]
    # the selective-op checkpoint of a block: the same gradients as the block itself
    c = {"hidden": 16, "heads": 2, "kv_heads": 1, "head_dim": 8, "ffn": 24, "seq": 6, "fused": False,
         "dropout": 0.0, "recompute": "none"}
    blk = models.LlamaDecoderLayer(c, models.Marks())
    blk.mask = torch.full((6, 6), -1e9).triu(1)[None, None].expand(2, 1, 6, 6)
    cases.append(("SelectiveOpCheckpointFn", lambda x: models.SelectiveOpCheckpointFn.apply(x, blk), blk,
                  [(2, 6, 16)]))
    for name, fused, ref, shapes in cases:
        xs = [torch.randn(*sh, requires_grad=True) for sh in shapes]
        out = fused(*xs)
        g = torch.randn_like(out)
        d1 = torch.autograd.grad(out, xs, g)
        want = ref(*xs)
        d2 = torch.autograd.grad(want, xs, g)
        err = max([(out - want).abs().max().item()] + [(a - b).abs().max().item() for a, b in zip(d1, d2)])
        if not err < 1e-4:
            sys.exit("measure.py: %s differs from the module it stands for by %g" % (name, err))


def napkin_report(napkin, c):
    knobs = c["napkin"]
    cmd = [napkin, "report", "--gpus", "1", "--zero", "0", "--format", "json"] + knobs
    env = {k: v for k, v in os.environ.items() if k not in ("LD_PRELOAD", "NAPKIN_SHIM_LOADED")}
    r = subprocess.run(cmd, capture_output=True, text=True, env=env)
    if r.returncode != 0:
        raise RuntimeError("%s: exit %d: %s" % (" ".join(cmd), r.returncode, r.stderr.strip()))
    return json.loads(r.stdout)["memory"]


def main():
    args = parse_args()
    reexec_with_shim(args)
    shim = Shim()
    # torch after the shim is in place (its own allocations are then counted from the start)
    try:
        import torch
        import torch.nn.functional as F
    except ImportError as e:
        sys.exit("measure.py: no PyTorch for %s (%s): scripts/deps.sh test installs python3-torch"
                 % (sys.executable, e))

    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import configs
    import models

    torch.set_num_threads(1)
    check_fused_gradients(torch, F, models)
    results = []
    failed = 0
    for c in configs.CONFIGS:
        if args.only and args.only not in c["name"]:
            continue
        torch.manual_seed(0)
        start = shim.live()
        model = models.build(c)
        if c["precision"] == "bf16":
            model = model.to(torch.bfloat16)
        model.train()
        x = torch.randint(0, c["vocab"], (c["batch"], c["seq"]))
        y = torch.randint(0, c["vocab"], (c["batch"], c["seq"]))
        fixed = sum(b.storage().nbytes() for b in model.buffers())
        params = sum(p.storage().nbytes() for p in model.parameters())
        saved = measure_saved(torch, F, models, model, c, x, y)
        saved["params"] = params
        steps = measure_peak(torch, F, models, shim, model, c, x, y)
        nap = napkin_report(args.napkin, c)
        row = configs.compare(c, saved, steps, start, fixed, nap)
        results.append(row)
        bad = [k for k in ("layer", "logits", "peak") if not abs(row[k]["ratio"] - 1.0) <= TOL]
        mark = "ok  " if not bad else "FAIL"
        if bad and c["name"] in configs.KNOWN:
            mark = "open"
            print("     (%s)" % configs.KNOWN[c["name"]])
        elif bad:
            failed += 1
        print("%s %-28s %s" % (mark, c["name"], configs.line(row)), flush=True)
        del model, x, y
    if args.table:
        with open(args.table, "w") as f:
            f.write(configs.markdown(results))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1)
    print("%d configurations, %d outside %.0f%%" % (len(results), failed, TOL * 100))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
