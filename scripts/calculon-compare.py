#!/usr/bin/env python3
"""Side-by-side of napkin and Calculon on napkin's published validation runs.

Usage: scripts/calculon-compare.py CALCULON_CHECKOUT [--napkin PATH] [--python PATH]

The runs, their layouts and their published figures are read from napkin's own test
files (tests/unit/test_step_runs.c: the struct table `runs[]`; tests/unit/step_runs_typed.h:
the typed knob strings of `vruns[]` and `fruns[]`). For every run Calculon can express (a
Megatron-style dense transformer with multi-head attention, a two-matrix MLP, no context
parallelism, BF16/FP16, ZeRO 0 or 1, on A100 or H100), the script writes Calculon's
application and execution JSON, runs Calculon's `llm` command on its shipped system file
(systems/a100_80g.json, systems/h100_80g_nvl8.json), runs `napkin report --format json` on
the same knobs, and prints published, napkin and Calculon step seconds with the errors
(predicted / published - 1), then the medians of |error| over the runs both express.
The runs it skips are listed with the reason.

Calculon needs numpy and pandas (its package imports them); --python names an
interpreter that has them (default: this one). This script itself is stdlib only and is
not part of ctest.
"""

import argparse
import copy
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TEST_C = os.path.join(ROOT, "tests", "unit", "test_step_runs.c")
TYPED_H = os.path.join(ROOT, "tests", "unit", "step_runs_typed.h")


# --- reading napkin's test files -------------------------------------------------------

def c_tokens(text):
    """Tokens of C source: string literals (unquoted, kept as ('s', text)), names, numbers
    and punctuation; comments dropped."""
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    text = re.sub(r"//[^\n]*", " ", text)
    tok = re.compile(r'"((?:[^"\\]|\\.)*)"|([A-Za-z_]\w*)|([0-9][0-9.eE+-]*)|(\S)')
    out = []
    for m in tok.finditer(text):
        if m.group(1) is not None:
            out.append(("s", m.group(1)))
        elif m.group(2):
            out.append(("n", m.group(2)))
        elif m.group(3):
            out.append(("d", m.group(3)))
        else:
            out.append(("p", m.group(4)))
    return out


def c_defines(text):
    """#define NAME followed by string literals and other such names: NAME -> string."""
    defs = {}
    text = text.replace("\\\n", " ")
    for m in re.finditer(r"^#define\s+(\w+)\s+(.*)$", text, flags=re.M):
        body = c_tokens(m.group(2))
        if body and all(k in ("s", "n") for k, _ in body):
            if all(k == "s" or v in defs for k, v in body):
                defs[m.group(1)] = "".join(v if k == "s" else defs[v] for k, v in body)
    return defs


def c_array(text, name, defs):
    """The rows of `static const struct X name[] = { {...}, ... };` as lists of fields:
    a string (adjacent literals and string macros joined), a number, or a bare name."""
    start = re.search(r"\b%s\[\]\s*=\s*\{" % re.escape(name), text)
    body = text[start.end():]
    toks = c_tokens(body)
    rows, row, field, depth = [], None, [], 0
    for kind, val in toks:
        if kind == "p" and val == "{":
            depth += 1
            row, field = [], []
            continue
        if kind == "p" and val == "}":
            if depth == 0:
                break
            depth -= 1
            row.append(field)
            rows.append(row)
            row = None
            continue
        if kind == "p" and val == ";" and depth == 0:
            break
        if row is None:
            continue
        if kind == "p" and val == ",":
            row.append(field)
            field = []
        else:
            field.append((kind, val))
    out = []
    for r in rows:
        vals = []
        for f in r:
            if all(k == "s" or (k == "n" and v in defs) for k, v in f) and f:
                vals.append("".join(v if k == "s" else defs[v] for k, v in f))
            elif len(f) == 1 and f[0][0] == "d":
                vals.append(float(f[0][1]))
            elif len(f) == 1:
                vals.append(f[0][1])
            else:
                vals.append(" ".join(v for _, v in f))
        out.append(vals)
    return out


def knobs_dict(s):
    d = {}
    for kv in s.split():
        k, v = kv.split("=", 1)
        d[k] = v
    return d


def megatron_flops(B, s, l, h, V):
    """Megatron's hardware FLOPs of one step with full recomputation (Narayanan et al.
    2021, section 5.1): 96 B s l h^2 (1 + s/(6h) + V/(16 l h)); the count the N21, S22
    and BLOOM figures are published in."""
    return 96.0 * B * s * l * h * h * (1.0 + s / (6.0 * h) + V / (16.0 * l * h))


def load_runs():
    """Every validation run as a dict: name, src, knobs (napkin's), published step (s) or
    the published figure to convert once napkin gives tokens per step."""
    with open(TEST_C, encoding="utf-8") as f:
        ctext = f.read()
    with open(TYPED_H, encoding="utf-8") as f:
        htext = f.read()
    runs = []
    # runs[]: name, src, hidden, layers, heads, tp, pp, vpp, gpus, gbs, mbs, recompute,
    # sp, overlap, zero, tflops, seconds; typed here as scenario() of test_step_runs.c does
    for r in c_array(ctext, "runs", {}):
        (name, src, h, l, a, tp, pp, vpp, gpus, gbs, mbs, rec, sp, ov, zero, tfl,
         sec) = r
        dp = gpus / (tp * pp)
        k = {
            "layers": l, "hidden": h, "heads": a, "kv_heads": a, "head_dim": h / a,
            "ffn": 4 * h, "vocab": 51200, "mlp": "plain", "norm": "layernorm",
            "bias": "all", "position": "learned", "max_positions": 2048,
            "tied_embeddings": "on", "dropout": "on", "seq": 2048,
            # MT-NLG trained in bf16 (S22), the others in fp16, as the test types them
            "precision": "mixed-bf16" if src == "S22" else "mixed-fp16",
            "flash_attention": "off", "gpus": gpus, "tp": tp,
            "pp": pp, "vpp": vpp, "batch": mbs, "grad_accum": gbs / (dp * mbs),
            "zero": zero, "recompute": "full" if rec == "FULL" else "selective",
            "sequence_parallel": "on" if sp == "true" else "off",
            "overlap": "on" if ov == "true" else "off",
            "stack": "deepspeed" if zero == 3 or src == "S22" else "megatron",
            "kernels": "fused", "tp_overlap": "off", "pp_overlap": "off", "mfu": "auto",
            "gpu": "a100-80gb-sxm",
        }
        k = {key: ("%g" % v if isinstance(v, float) else v) for key, v in k.items()}
        pub = sec if sec > 0 else megatron_flops(gbs, 2048, l, h, 51200) / (tfl * 1e12 * gpus)
        runs.append({"name": name, "src": src, "knobs": k, "published": pub})
    # lruns[]: Llama 3.1 BF16 on H100 with CP 2 (lscenario); listed, Calculon has no CP
    for r in c_array(ctext, "lruns", {}):
        runs.append({"name": r[0] + " BF16", "src": "DGXC", "knobs": {"cp": "%g" % r[8],
                     "model": "llama-3.1"}, "published": r[11]})
    defs = c_defines(htext)
    for r in c_array(htext, "vruns", defs):
        name, src, knobs, sec, tps = r
        runs.append({"name": name, "src": src, "knobs": knobs_dict(knobs),
                     "published": sec if sec > 0 else None, "tps_gpu": tps})
    for r in c_array(htext, "fruns", defs):
        name, src, knobs, tfl, count, B, s, l, h, V = r
        k = knobs_dict(knobs)
        pub = None
        if count == "COUNT_MEGATRON":
            pub = megatron_flops(B, s, l, h, V) / (tfl * 1e12 * float(k["gpus"]))
        runs.append({"name": name, "src": src, "knobs": k, "published": pub,
                     "model_tflops": tfl if count == "COUNT_MODEL" else None})
    return runs


# --- napkin ------------------------------------------------------------------------------

def napkin_report(napkin, knobs):
    args = [napkin, "report"]
    for k, v in knobs.items():
        args += ["--" + k, str(v)]
    out = subprocess.run(args + ["--format", "json"], check=True, capture_output=True,
                         text=True).stdout
    return json.loads(out)


# --- Calculon ----------------------------------------------------------------------------

def why_not(knobs, rep):
    """Why Calculon cannot express a run (None when it can)."""
    sc = rep["scenario"]
    gpu = sc["gpu"]
    if not (gpu.startswith("a100") or gpu.startswith("h100")):
        return "GPU %s (Calculon ships A100 and H100 systems only)" % gpu
    if "fp8" in sc["precision"]:
        return "FP8"
    if int(sc["zero"]) > 1:
        return "ZeRO-%d / FSDP (Calculon: optimizer sharding only)" % int(sc["zero"])
    if int(sc["cp"]) > 1:
        return "context parallelism (not in Calculon)"
    if int(sc["experts"]) > 1:
        return "MoE"
    if sc["mlp"] != "plain":
        return "gated MLP (%s; Calculon's MLP has two matrices)" % sc["mlp"]
    if int(sc["kv_heads"]) != int(sc["heads"]):
        return "grouped-query attention (Calculon: multi-head or multi-query only)"
    if int(sc["layers"]) % (int(sc["pp"]) * int(sc["vpp"])) != 0:
        return "layers not a multiple of pp x vpp (Calculon needs equal chunks)"
    return None


def calculon_inputs(rep, system):
    sc = rep["scenario"]
    par = rep["parallel"]
    tp, pp, dp = int(par["tp"]), int(par["pp"]), int(par["dp"])
    app = {
        "hidden": int(sc["hidden"]), "feedforward": int(sc["ffn"]),
        "seq_size": int(sc["seq"]), "attn_heads": int(sc["heads"]),
        "attn_size": int(sc["head_dim"]), "num_blocks": int(sc["layers"]),
    }
    sp = sc["sequence_parallel"] == "on" and tp > 1
    rec = {"full": "full", "selective": "attn_only", "none": "none"}[sc["recompute"]]
    mbs = int(sc["batch"])
    gbs = mbs * int(round(float(sc["grad_accum"]))) * dp
    # network tiers of Calculon's DGX systems: 0 = NVLink (8 GPUs, must be filled),
    # 1 = the scale-out network; DP rides NVLink only when the whole job fits in a node
    dp_net = 0 if pp == 1 and tp * dp <= 8 and 8 % (tp * dp) == 0 else 1
    exe = {
        "num_procs": tp * pp * dp, "tensor_par": tp, "pipeline_par": pp, "data_par": dp,
        "tensor_par_net": 0, "pipeline_par_net": 1, "data_par_net": dp_net,
        "batch_size": gbs, "microbatch_size": mbs,
        "datatype": "float16", "fused_activation": sc["kernels"] == "fused",
        "attention_type": "multihead", "activation_recompute": rec,
        "pipeline_interleaving": int(sc["vpp"]) if pp > 1 else 1,
        "optimizer_sharding": int(sc["zero"]) == 1 and dp > 1,
        # without sequence parallelism TP all-reduces; Megatron's pipeline still sends
        # 1/t of the activation a rank (scatter-gather, Narayanan et al. 2021 section 4.1)
        "tensor_par_comm_type": "rs_ag" if sp else ("p2p_rs_ag" if tp > 1 and pp > 1
                                                     else "ar"),
        "tensor_par_overlap": "none",
        # Megatron re-gathers the sequence-parallel input in backward instead of keeping it
        "seq_par_ag_redo": sp and rec != "full",
        "data_par_overlap": sc["overlap"] == "on" and dp > 1,
        "weight_offload": False, "activations_offload": False,
        "optimizer_offload": False, "training": True,
    }
    syst = copy.deepcopy(system)
    # a run's own scale-out bandwidth (BLOOM's Omni-Path) replaces the system's tier 1
    syst["networks"][1]["bandwidth"] = float(sc["network_bw"]) / 1e9
    return app, exe, syst


def run_calculon(checkout, python, app, exe, syst):
    with tempfile.TemporaryDirectory() as d:
        paths = {}
        for name, obj in (("app", app), ("exe", exe), ("sys", syst)):
            paths[name] = os.path.join(d, name + ".json")
            with open(paths[name], "w", encoding="utf-8") as f:
                json.dump(obj, f)
        stats = os.path.join(d, "stats.json")
        env = dict(os.environ, PYTHONPATH=checkout)
        p = subprocess.run([python, os.path.join(checkout, "bin", "calculon"), "llm",
                            paths["app"], paths["exe"], paths["sys"], stats],
                           capture_output=True, text=True, env=env)
        if p.returncode != 0 or not os.path.exists(stats):
            err = (p.stdout + p.stderr).strip().splitlines()
            return None, err[-1] if err else "failed"
        with open(stats, encoding="utf-8") as f:
            return json.load(f), None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("calculon", help="path of a Calculon checkout")
    ap.add_argument("--napkin", default=os.path.join(ROOT, "build", "napkin"))
    ap.add_argument("--python", default=sys.executable,
                    help="interpreter for Calculon (needs numpy and pandas)")
    args = ap.parse_args()
    # Calculon imports numpy and pandas: an interpreter without them would skip every run
    # and still exit 0, so it is refused before anything runs
    try:
        probe = subprocess.run([args.python, "-c", "import numpy, pandas"], capture_output=True, text=True)
        last = (probe.stderr.strip().splitlines() or ["?"])[-1]
    except OSError as e:
        probe, last = None, e.strerror
    if probe is None or probe.returncode != 0:
        sys.exit(f"calculon-compare: {args.python} cannot import numpy and pandas ({last}); "
                 "install them (Debian: apt-get install python3-numpy python3-pandas python3-psutil) "
                 "or name an interpreter that has them with --python PATH")

    systems = {}
    for fam, fname in (("a100", "a100_80g.json"), ("h100", "h100_80g_nvl8.json")):
        with open(os.path.join(args.calculon, "systems", fname), encoding="utf-8") as f:
            systems[fam] = json.load(f)

    rows, skipped = [], []
    for r in load_runs():
        k = r["knobs"]
        if "model" in k and k["model"] == "llama-3.1":
            skipped.append((r, "context parallelism (not in Calculon)"))
            continue
        rep = napkin_report(args.napkin, k)
        if r.get("tps_gpu"):
            r["published"] = rep["compute"]["tokens_per_step"] / (
                r["tps_gpu"] * float(rep["parallel"]["gpus"]))
        reason = why_not(k, rep)
        if reason is None and r["published"] is None:
            reason = "published in model FLOPs (napkin's own count)"
        if reason:
            skipped.append((r, reason))
            continue
        pub = r["published"]
        nap = rep["compute"]["step_seconds"]
        fam = rep["scenario"]["gpu"][:4]
        app, exe, syst = calculon_inputs(rep, systems[fam])
        stats, err = run_calculon(args.calculon, args.python, app, exe, syst)
        note = ""
        if stats is None and "Mem tier1" in err:
            # over Calculon's 80 GiB: time it anyway, as Calculon's own validation does
            # with its unbounded-memory A100 (systems/a100_80e.json)
            syst["mem1"]["GiB"] = 1e9
            stats, err = run_calculon(args.calculon, args.python, app, exe, syst)
            note = "m"
        if stats is None:
            skipped.append((r, "Calculon: " + err))
            continue
        cal = stats["total_time"]
        cal_off = cal
        if exe["data_par_overlap"]:
            # Calculon's DP overlap as it is: its overlap window subtracts each block's
            # memory times from the backward time and goes negative on small, memory-bound
            # blocks, so "overlapped" DP reads longer than DP with no overlap; the same
            # run with the overlap off is kept beside it
            exe_off = dict(exe, data_par_overlap=False)
            st_off, _ = run_calculon(args.calculon, args.python, app, exe_off, syst)
            if st_off is not None:
                cal_off = st_off["total_time"]
        rows.append((r["name"], r["src"], pub, nap, nap / pub - 1, cal, cal / pub - 1, note,
                     cal_off))

    print("| run | source | published (s) | napkin (s) | napkin error | Calculon (s) "
          "| Calculon error |")
    print("|---|---|---|---|---|---|---|")
    for name, src, pub, nap, ne, cal, ce, note, cal_off in rows:
        mark = " (m)" if note else ""
        if cal_off != cal:
            mark += " (o: %.2f, %+.1f%%)" % (cal_off, 100 * (cal_off / pub - 1))
        print("| %s | %s | %.2f | %.2f | %+.1f%% | %.2f%s | %+.1f%% |" %
              (name, src, pub, nap, 100 * ne, cal, mark, 100 * ce))
    if rows:
        mn = statistics.median(abs(x[4]) for x in rows)
        mc = statistics.median(abs(x[6]) for x in rows)
        print()
        print("runs both express: %d; median |error|: napkin %.1f%%, Calculon %.1f%%" %
              (len(rows), 100 * mn, 100 * mc))
        groups = {}
        for x in rows:
            groups.setdefault(x[1].split()[0], []).append(x)
        for g, xs in groups.items():
            print("  %s (%d runs): napkin %.1f%%, Calculon %.1f%%" %
                  (g, len(xs), 100 * statistics.median(abs(x[4]) for x in xs),
                   100 * statistics.median(abs(x[6]) for x in xs)))
        if any(x[8] != x[5] for x in rows):
            mo = statistics.median(abs(x[8] / x[2] - 1) for x in rows)
            print("  Calculon with its DP overlap off where it was on (o): %.1f%%" % (100 * mo))
        if any(x[7] for x in rows):
            print("(m): over Calculon's 80 GiB of memory, timed with the memory unbounded")
    print()
    print("skipped (%d):" % len(skipped))
    for r, why in skipped:
        print("  %s (%s): %s" % (r["name"], r["src"], why))
    return 0


if __name__ == "__main__":
    sys.exit(main())
