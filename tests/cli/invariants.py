"""Invariants of the command line over seeded random scenarios (tests/cli/invariants.sh).

    python3 tests/cli/invariants.py PATH/TO/napkin

For each scenario, drawn from the shipped presets as the C test draws them
(tests/unit/test_invariants.c), with NAPKIN_INVARIANT_SEED picking another set:

  round trip   a JSON report's `scenario`, loaded back with --scenario, gives the same report
  plan         every `napkin plan` candidate's scenario, run through `report`, gives the
               candidate's memory, step, days and GPU-hours
  sweep        every `napkin sweep` point is what `report` says with that knob added, the
               same value or the same null (compute.cost without a price is null)
  time         no command runs longer than BOUND seconds, on any range it accepts

Every violation prints the invariant, what differs and the command lines to reproduce it;
the exit status is 1 when there is one.
"""
import json
import os
import random
import shlex
import subprocess
import sys
import tempfile
import time

NAPKIN = sys.argv[1]
SEED = int(os.environ.get("NAPKIN_INVARIANT_SEED", "20261201"), 0)
SCENARIOS = 40
BOUND = 20  # seconds any one command may take (timeout(1) kills it after)
MIN_VALID = 0.75
SHOW = int(os.environ.get("NAPKIN_INVARIANT_SHOW") or 3)  # violations printed per invariant
TMP = tempfile.mkdtemp(prefix="napkin-inv-")

failures = []
counts = {"scenarios": 0, "refused": 0, "round trips": 0, "plans": 0, "candidates": 0, "sweeps": 0, "points": 0}
slowest = [0.0, ""]


def cmdline(args):
    return shlex.join(["napkin"] + args)


def run(args):
    """(status, stdout, stderr) of napkin ARGS under timeout BOUND; a kill is a violation."""
    t0 = time.monotonic()
    p = subprocess.run(["timeout", str(BOUND), NAPKIN] + args, capture_output=True, text=True)
    dt = time.monotonic() - t0
    if dt > slowest[0]:
        slowest[0], slowest[1] = dt, cmdline(args)
    if p.returncode in (124, 137):
        fail("time.bound", "killed after %d s" % BOUND, args)
    return p.returncode, p.stdout, p.stderr


def fail(name, what, *commands):
    failures.append((name, what, [cmdline(c) if isinstance(c, list) else c for c in commands]))


def report_json(args):
    rc, out, err = run(["report"] + args + ["--format", "json"])
    return (json.loads(out) if rc == 0 else None), rc, err


def save(obj, name):
    path = os.path.join(TMP, name)
    with open(path, "w") as f:
        json.dump(obj, f)
    return path


def diff(a, b, path=""):
    """The paths where two JSON trees differ (at most a few)."""
    out = []
    if isinstance(a, dict) and isinstance(b, dict):
        for k in list(a) + [k for k in b if k not in a]:
            if k not in a or k not in b:
                out.append("%s.%s: %s vs %s" % (path, k, "absent" if k not in a else "present",
                                                "absent" if k not in b else "present"))
            else:
                out += diff(a[k], b[k], path + "." + str(k))
            if len(out) >= 4:
                break
    elif isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b)):
            out += diff(x, y, "%s[%d]" % (path, i))
            if len(out) >= 4:
                break
    elif a != b or type(a) is not type(b):
        out.append("%s: %r vs %r" % (path or ".", a, b))
    return out[:4]


def get(tree, key):
    """A sweep result key ("memory.fits", "compute.step_breakdown.tp_comm") in a report."""
    for part in key.split("."):
        tree = tree[part]
    return tree


# ---------------------------------------------------------------- scenarios

MODELS = sorted(f[:-5] for f in os.listdir("presets/models") if f.endswith(".yaml"))
GPUS = sorted(f[:-5] for f in os.listdir("presets/gpus") if f.endswith(".yaml"))
_shape = {}


def shape(model):
    """heads, kv_heads, layers, experts, max_positions of a model preset (its report)."""
    if model not in _shape:
        r, rc, err = report_json(["--model", model])
        if r is None:
            sys.exit("napkin report --model %s: status %d: %s" % (model, rc, err))
        m = r["model"]
        _shape[model] = (m["heads"], m["kv_heads"], m["layers"], m["experts"], r["scenario"]["max_positions"])
    return _shape[model]


def pow2_upto(g, n):
    return 1 << g.randint(0, max(0, n.bit_length() - 1))


def draw(g):
    """One scenario as (key, value) pairs, the knobs a person types."""
    model = "mixtral-8x7b" if g.random() < 0.3 else g.choice(MODELS)
    heads, kv, layers, experts, maxpos = shape(model)
    maxpos = maxpos or 4096
    train = g.random() >= 0.25
    k = [("model", model), ("gpu", g.choice(GPUS)), ("mode", "train" if train else "infer")]
    tps = [t for t in (1, 2, 4, 8) if heads % t == 0 and (kv % t == 0 if kv >= t else t % kv == 0)]
    tp = g.choice(tps)
    pp = 1 if g.random() < 0.6 else pow2_upto(g, min(layers, 8))
    ep = pow2_upto(g, min(experts, 8)) if train and experts > 1 and g.random() < 0.6 else 1
    cp = pow2_upto(g, 8) if train and g.random() < 0.25 else 1
    dp = ep * (pow2_upto(g, 64) if g.random() < 0.7 else g.randint(1, 12))
    while tp * pp * cp * dp > 1024 and dp > ep:
        dp -= ep
    k.append(("gpus", str(tp * pp * cp * dp)))
    for key, v in (("tp", tp), ("pp", pp), ("cp", cp), ("ep", ep)):
        if v > 1:
            k.append((key, str(v)))
    if g.random() < 0.1:
        k.append(("gpu_memory", "%dGB" % g.randint(4, 200)))
    if train:
        s = max(min(128, maxpos), pow2_upto(g, min(maxpos, 16384)))
        if s % cp:
            s = cp * 128
        k += [("seq", str(s)), ("batch", str(g.randint(1, 16))), ("grad_accum", str(pow2_upto(g, 64))),
              ("precision", g.choice(["fp32", "amp-bf16", "amp-fp16", "mixed-bf16", "mixed-fp16", "bf16", "fp8-mixed"])),
              ("optimizer", g.choice(["adamw", "adam", "sgd", "sgd-momentum", "adam-8bit", "lion", "adafactor"])),
              ("recompute", g.choice(["none", "selective", "full"])),
              ("kernels", g.choice(["eager", "fused"])), ("zero", str(g.randint(0, 3)))]
        if g.random() < 0.4:
            k += [("finetune", g.choice(["lora", "qlora"])), ("lora_rank", str(pow2_upto(g, 256))),
                  ("lora_targets", g.choice(["q,v", "attention", "mlp", "all-linear", "o", "up,down"]))]
        if g.random() < 0.3:
            k.append(("offload", g.choice(["optimizer", "params", "nvme", "nvme-params"])))
        if g.random() < 0.4:
            k.append(("mfu", "%.3g" % g.uniform(0.05, 0.9)))
        if g.random() < 0.5:
            k.append(("price", "%.3g" % g.uniform(0.5, 8)))
    else:
        prompt = pow2_upto(g, maxpos // 2)
        k += [("batch", str(pow2_upto(g, 256))), ("prompt", str(prompt)),
              ("generate", str(g.randint(1, min(4096, maxpos - prompt)))),
              ("precision", "bf16" if g.random() < 0.7 else g.choice(["fp32", "mixed-fp16", "fp8-mixed"])),
              ("kv_dtype", g.choice(["auto", "bf16", "fp8-e4m3", "int8"]))]
        if g.random() < 0.5:
            k.append(("weight_format", g.choice(["dtype", "gptq-int4", "awq-int4", "nf4", "nf4-dq", "q8_0", "q4_k_m", "fp8"])))
        if g.random() < 0.4:
            k.append(("prefill_chunk", str(256 << g.randint(0, 4))))
        if g.random() < 0.4:
            k.append(("kv_block", str(1 << g.randint(0, 8))))
        if g.random() < 0.3:
            k.append(("sliding_window", str(512 << g.randint(0, 4))))
    return k


def flags(knobs, without=()):
    out = []
    for key, v in knobs:
        if key not in without:
            out += ["--" + key.replace("_", "-"), v]
    return out


# ---------------------------------------------------------------- the invariants

def check_round_trip(args, r):
    """report's `scenario`, loaded back, gives the same report."""
    path = save(r["scenario"], "scenario.json")
    back = ["report", "--scenario", path, "--format", "json"]
    rc, out, err = run(back)
    counts["round trips"] += 1
    show = "napkin report %s --format json | jq .scenario > s.json && napkin report --scenario s.json --format json" \
        % shlex.join(args)
    if rc != 0:
        fail("round_trip.loads", "the report's scenario is refused: %s" % err.strip()[:300], show)
        return
    d = diff(r, json.loads(out))
    if d:
        fail("round_trip.same", "; ".join(d), show)


PLAN_KEYS = (("memory", "total"), ("memory", "peak"), ("memory", "fits"), ("compute", "step_seconds"),
             ("compute", "train_days"), ("compute", "gpu_hours"))


def check_plan(args):
    """each candidate's scenario, through report, gives the candidate's figures."""
    plan = ["plan"] + args + ["--top", "3", "--format", "json"]
    rc, out, err = run(plan)
    if rc != 0:
        return  # no layout fits, or refused: nothing to compare
    counts["plans"] += 1
    for c in json.loads(out)["candidates"]:
        counts["candidates"] += 1
        path = save(c["scenario"], "candidate.json")
        show = "%s | jq '.candidates[%d].scenario' > c.json && napkin report --scenario c.json --format json" \
            % (cmdline(plan), c["rank"] - 1)
        rc, out2, err2 = run(["report", "--scenario", path, "--format", "json"])
        if rc != 0:
            fail("plan.candidate_loads", "candidate %d's scenario is refused: %s" % (c["rank"], err2.strip()[:300]), show)
            continue
        r = json.loads(out2)
        for group, key in PLAN_KEYS:
            if c[group][key] != r[group][key]:
                fail("plan.candidate_same", "candidate %d: %s.%s %r, report %r"
                     % (c["rank"], group, key, c[group][key], r[group][key]), show)


TRAIN_Y = ["memory.total", "memory.peak", "memory.fits", "memory.max_batch", "compute.step_seconds",
           "compute.train_days", "compute.mfu", "compute.cost", "compute.step_breakdown.dp_comm"]
INFER_Y = ["memory.total", "memory.fits", "inference.max_concurrent", "inference.ttft_seconds",
           "inference.tpot_seconds", "inference.decode_tokens_per_s"]


def sweep_range(g, knobs):
    d = dict(knobs)
    if d["mode"] == "train":
        choices = [("batch", "batch=1..8:x2"), ("grad_accum", "grad_accum=1..16:x4"), ("zero", "zero=0..3"),
                   ("mfu", "mfu=0.2..0.6:+0.2"), ("price", "price=0..3:+1.5")]
        if int(d["seq"]) >= 128 and shape(d["model"])[4] >= 512:
            choices.append(("seq", "seq=128..512:x2"))
        if "lora_rank" in d:
            choices.append(("lora_rank", "lora_rank=4..64:x4"))
    else:
        choices = [("batch", "batch=1..64:x4"), ("prompt", "prompt=128..1024:x2"), ("generate", "generate=1..1001:+250"),
                   ("kv_block", "kv_block=1..64:x4"), ("prefill_chunk", "prefill_chunk=0..2048:+1024")]
    return g.choice(choices)


def value_text(v):
    return str(int(v)) if isinstance(v, int) or (isinstance(v, float) and v.is_integer() and abs(v) < 1e15) else repr(v)


def check_sweep(g, knobs):
    """every point equals report at that point, null for null."""
    knob, rng = sweep_range(g, knobs)
    ys = TRAIN_Y if dict(knobs)["mode"] == "train" else INFER_Y
    base = flags(knobs, without=(knob,))
    sweep = ["sweep", rng] + base + ["--y", ",".join(ys), "--format", "json"]
    rc, out, err = run(sweep)
    if rc != 0:
        fail("sweep.runs", "status %d: %s" % (rc, err.strip()[:300]), sweep)
        return
    counts["sweeps"] += 1
    for pt in json.loads(out)["points"]:
        x = pt[knob]
        args = base + ["--" + knob.replace("_", "-"), value_text(x)]
        counts["points"] += 1
        r, rc, err = report_json(args)
        if (r is None) != ("error" in pt):
            fail("sweep.point_valid", "%s=%s: the sweep says %s, report %s" % (
                knob, x, "invalid: " + pt["error"][:200] if "error" in pt else "valid",
                "refuses it: " + err.strip()[:200] if r is None else "accepts it"),
                sweep, ["report"] + args + ["--format", "json"])
        if r is None or "error" in pt:
            continue
        for y in ys:
            want = get(r, y)
            if pt[y] != want or type(pt[y]) is not type(want):
                fail("sweep.point_same", "%s=%s: sweep %s = %r, report %r" % (knob, x, y, pt[y], want),
                     sweep, ["report"] + args + ["--format", "json"])


# ranges that are slow or hang to enumerate; each accepted or refused within BOUND
ADVERSARIAL = ["mfu=0.5..1:+1e-30", "gpu_memory=1GB..2GB:+1e-20B", "seq=1..100000000:x1.000000000000001",
               "batch=1..8:x1.00000001", "batch=1..8:x1.000000000000001", "seq=1..100000000:x1.0000000001",
               "price=0..1000000:+1e-300", "tokens=1..1e17:+1", "seq=1..200000:+1", "gpus=1..1048576:x1.5",
               "mfu=1e-300..1:x1.0000000000000002"]


def start_adversarial_ranges():
    """all at once, beside the scenarios (timeout(1) kills each after BOUND s), so the check
    costs BOUND at most even where they spin"""
    procs = []
    for rng in ADVERSARIAL:
        args = ["sweep", rng, "--format", "csv"]
        procs.append((args, subprocess.Popen(["timeout", str(BOUND), NAPKIN] + args, stdout=subprocess.DEVNULL,
                                             stderr=subprocess.DEVNULL)))
    return procs


def end_adversarial_ranges(procs):
    for args, p in procs:
        if p.wait() in (124, 137):
            fail("time.bound", "killed after %d s" % BOUND, args)


def main():
    t0 = time.monotonic()
    procs = start_adversarial_ranges()
    for i in range(SCENARIOS):
        g = random.Random(SEED * 1000003 + i)
        knobs = draw(g)
        args = flags(knobs)
        counts["scenarios"] += 1
        r, rc, err = report_json(args)
        if r is None:
            counts["refused"] += 1
            continue
        check_round_trip(args, r)
        if dict(knobs)["mode"] == "train" and i % 2 == 0:
            check_plan(args)
        check_sweep(g, knobs)
    end_adversarial_ranges(procs)
    valid = counts["scenarios"] - counts["refused"]
    if valid < MIN_VALID * counts["scenarios"]:
        fail("draw.mostly_valid", "only %d of %d scenarios are valid" % (valid, counts["scenarios"]))
    print("NAPKIN_INVARIANT_SEED=%d: %s; %.1f s; slowest %.2f s: %s" % (
        SEED, ", ".join("%s %d" % kv for kv in counts.items()), time.monotonic() - t0, slowest[0], slowest[1]))
    by = {}
    for name, what, commands in failures:
        by.setdefault(name, []).append((what, commands))
    for name, items in sorted(by.items()):
        print("invariant %s violated %d times" % (name, len(items)))
        for what, commands in items[:SHOW]:
            print("  %s" % what)
            for c in commands:
                print("    %s" % c)
    if failures:
        print("FAIL: %d violations (%s) (NAPKIN_INVARIANT_SEED=%d)" % (
            len(failures), ", ".join("%s ×%d" % (n, len(v)) for n, v in sorted(by.items())), SEED))
        return 1
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    finally:
        for f in os.listdir(TMP):
            os.remove(os.path.join(TMP, f))
        os.rmdir(TMP)
