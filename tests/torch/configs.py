"""The configurations measure.py runs, napkin's knobs for each, and the comparison.

Shapes are small (fp32 matmuls go through the reference BLAS here, a few GFLOP/s) but
keep every term visible: the s x s scores, the vocabulary, the MLP width.
Dropout is measured on the GPT-2 model only: Hugging Face's Llama has just an attention
dropout (0 by default), which napkin's `dropout` knob (Korthikanti's: embeddings,
attention probabilities, both residual branches) does not describe.
"""


def gpt2(name, precision="fp32", seq=128, batch=2, dropout=False, recompute="none", vocab=2048):
    c = {"name": name, "arch": "gpt2", "fused": False, "layers": 2, "hidden": 128, "heads": 4,
         "kv_heads": 4, "head_dim": 32, "ffn": 512, "vocab": vocab, "seq": seq, "batch": batch,
         "precision": precision, "dropout": 0.1 if dropout else 0.0, "recompute": recompute}
    c["napkin"] = common(c) + ["--mlp", "plain", "--norm", "layernorm", "--bias", "all",
                               "--position", "learned", "--max_positions", str(seq),
                               "--tied_embeddings", "on", "--dropout", "on" if dropout else "off"]
    return c


def llama(name, precision="fp32", seq=128, batch=2, kv_heads=4, recompute="none", fused=False, vocab=2048,
          loss="full", layers=2, every=1, uniform=0):
    c = {"name": name, "arch": "llama", "fused": fused, "layers": layers, "hidden": 128, "heads": 4,
         "kv_heads": kv_heads, "head_dim": 32, "ffn": 352, "vocab": vocab, "seq": seq, "batch": batch,
         "precision": precision, "dropout": 0.0, "recompute": recompute, "loss": loss, "every": every,
         "uniform": uniform}
    c["napkin"] = common(c) + ["--mlp", "gated", "--norm", "rmsnorm", "--bias", "none",
                               "--position", "rope", "--max_positions", str(seq),
                               "--tied_embeddings", "off", "--dropout", "off"]
    if every > 1:
        # torchtitan's every k-th block: layers / k of them recompute, the last among them
        c["napkin"] += ["--recompute_layers", str(layers // every)]
    if every > 1 or recompute == "selective-op":
        c["napkin"] += ["--stack", "torchtitan"]
    if uniform:
        # Megatron's uniform method: chunks of `uniform` layers, each checkpointed at its input
        c["napkin"] += ["--recompute_layers", str(uniform), "--recompute_method", "uniform"]
    return c


LORA_NAMES = {"q": "q_proj", "k": "k_proj", "v": "v_proj", "o": "o_proj", "gate": "gate_proj", "up": "up_proj",
              "down": "down_proj"}


def lora(c, targets, rank=8, dropout=0.0, layers=4):
    """The same model fine-tuned with LoRA (models.LoRALinear): four layers, so that the
    first layer, whose input needs no gradient and so keeps less, weighs a quarter."""
    c = dict(c)
    c["name"] += " lora %s r%d%s" % (",".join(targets), rank, " p%.1f" % dropout if dropout else "")
    c["layers"] = layers
    c["lora"] = [LORA_NAMES[t] for t in targets]
    c["lora_rank"], c["lora_dropout"] = rank, dropout
    c["napkin"] = [a for a in c["napkin"]]
    c["napkin"][c["napkin"].index("--layers") + 1] = str(layers)
    c["napkin"] += ["--finetune", "lora", "--lora_targets", ",".join(targets), "--lora_rank", str(rank),
                    "--lora_dropout", str(dropout)]
    return c


def common(c):
    return ["--layers", str(c["layers"]), "--hidden", str(c["hidden"]), "--heads", str(c["heads"]),
            "--kv_heads", str(c["kv_heads"]), "--head_dim", str(c["head_dim"]), "--ffn", str(c["ffn"]),
            "--vocab", str(c["vocab"]), "--seq", str(c["seq"]), "--batch", str(c["batch"]),
            "--precision", c["precision"], "--recompute", c["recompute"], "--flash_attention", "off",
            "--optimizer", "adamw", "--grad_accum", "1", "--overhead", "0",
            "--kernels", "fused" if c["fused"] else "eager", "--loss", c.get("loss", "full")]


CONFIGS = [
    gpt2("gpt2 fp32 s128 b2"),
    gpt2("gpt2 fp32 s128 b2 dropout", dropout=True),
    gpt2("gpt2 amp-bf16 s256 b2 dropout", precision="amp-bf16", seq=256, dropout=True),
    gpt2("gpt2 amp-bf16 s128 b4", precision="amp-bf16", batch=4),
    gpt2("gpt2 fp32 s128 b2 full", recompute="full"),
    # nanoGPT without autocast: softmax (and the loss) in the activations' dtype
    gpt2("gpt2 bf16 s256 b2", precision="bf16", seq=256),
    gpt2("gpt2 bf16 s256 b2 dropout", precision="bf16", seq=256, dropout=True),
    gpt2("gpt2 fp32 s16 b1 v8192 (end of backward)", seq=16, batch=1, vocab=8192),
    llama("llama fp32 s16 b1 v8192 (optimizer peak)", seq=16, batch=1, vocab=8192),
    llama("llama fp32 s512 b1 v256 (attention peak)", seq=512, batch=1, vocab=256),
    llama("llama amp-bf16 s512 b1 v256 gqa", precision="amp-bf16", seq=512, batch=1, vocab=256, kv_heads=2),
    llama("llama fp32 s128 b2"),
    llama("llama fp32 s128 b2 gqa", kv_heads=2),
    llama("llama amp-bf16 s256 b2 gqa", precision="amp-bf16", seq=256, kv_heads=2),
    llama("llama bf16 s256 b2", precision="bf16", seq=256),
    llama("llama bf16 s128 b4 gqa", precision="bf16", batch=4, kv_heads=2),
    # Hugging Face's loss upcasts the logits to fp32: the head dominates with a larger vocabulary
    llama("llama bf16 s128 b2 v8192", precision="bf16", vocab=8192),
    # the LM head and the loss a chunk of tokens at a time (Liger Kernel's algorithm)
    llama("llama bf16 s256 b2 chunked", precision="bf16", seq=256, loss="chunked"),
    llama("llama bf16 s128 b2 v8192 chunked", precision="bf16", vocab=8192, loss="chunked"),
    llama("llama fp32 s128 b2 chunked", loss="chunked"),
    llama("fused llama bf16 s256 b2 gqa chunked", precision="bf16", seq=256, kv_heads=2, fused=True,
          loss="chunked"),
    llama("llama amp-bf16 s128 b2 full", precision="amp-bf16", recompute="full"),
    llama("llama fp32 s128 b2 full gqa", kv_heads=2, recompute="full"),
    llama("fused llama fp32 s128 b2", fused=True),
    llama("fused llama amp-bf16 s256 b2 gqa", precision="amp-bf16", seq=256, kv_heads=2, fused=True),
    llama("fused llama bf16 s256 b2 gqa", precision="bf16", seq=256, kv_heads=2, fused=True),
    llama("fused llama bf16 s128 b4 full", precision="bf16", batch=4, recompute="full", fused=True),
    llama("fused llama bf16 s512 b1 v256", precision="bf16", seq=512, batch=1, vocab=256, fused=True),
    llama("fused llama bf16 s512 b1 v256 selective", precision="bf16", seq=512, batch=1, vocab=256, fused=True,
          recompute="selective"),
    llama("fused llama amp-bf16 s256 b2 selective", precision="amp-bf16", seq=256, fused=True, recompute="selective"),
    # torchtitan's recompute flavours: selective-op (every second mm's output and the batched
    # matmuls' kept), and a checkpoint on every k-th block
    llama("llama bf16 s256 b2 gqa selective-op", precision="bf16", seq=256, kv_heads=2, recompute="selective-op"),
    llama("llama amp-bf16 s256 b2 selective-op", precision="amp-bf16", seq=256, recompute="selective-op"),
    llama("llama fp32 s128 b2 selective-op", recompute="selective-op"),
    llama("llama fp32 s128 b2 l4 every 2", recompute="full", layers=4, every=2),
    llama("llama bf16 s256 b2 gqa l4 every 2", precision="bf16", seq=256, kv_heads=2, recompute="full", layers=4,
          every=2),
    llama("llama fp32 s512 b1 v256 l4 every 2 (attention peak)", seq=512, batch=1, vocab=256, recompute="full",
          layers=4, every=2),
    llama("llama fp32 s512 b1 v256 selective-op (attention peak)", seq=512, batch=1, vocab=256,
          recompute="selective-op"),
    llama("llama bf16 s256 b2 gqa l4 uniform 2", precision="bf16", seq=256, kv_heads=2, recompute="full", layers=4,
          uniform=2),
    llama("llama fp32 s512 b1 v256 l4 uniform 2 (attention peak)", seq=512, batch=1, vocab=256, recompute="full",
          layers=4, uniform=2),
    llama("llama amp-bf16 s128 b2 l6 every 3", precision="amp-bf16", recompute="full", layers=6, every=3),
    lora(llama("llama fp32 s128 b2"), ["q", "v"]),
    lora(llama("llama fp32 s128 b2"), ["q", "k", "v", "o", "gate", "up", "down"]),
    lora(llama("llama fp32 s128 b2"), ["q", "v"], dropout=0.1),
    lora(llama("llama bf16 s256 b2 gqa", precision="bf16", seq=256, kv_heads=2), ["q", "v"], rank=16),
    lora(llama("llama amp-bf16 s256 b2", precision="amp-bf16", seq=256), ["q", "k", "v", "o"]),
]


# Measured but not asserted, with the reason (the report lists them as open).
KNOWN = {}


def compare(c, saved, steps, start, fixed, nap):
    """Measured (converted to CUDA's 1-byte dropout masks) against napkin, per component."""
    L = c["layers"]
    by = saved["by_scope"]
    masks = saved["masks"]
    adj = {s: m[0] - m[1] for s, m in masks.items()}  # CPU mask bytes minus CUDA's 1 byte each
    layer_scopes = ["layer%d" % i for i in range(L)]
    layer_cpu = sum(by.get(s, 0) for s in layer_scopes) / L
    layer_adj = sum(adj.get(s, 0) for s in layer_scopes) / L
    layer = layer_cpu - layer_adj
    head = by.get("head", 0) + (0 if saved["logits_saved"] else saved["logits_bytes"])
    acts = sum(by.get(s, 0) for s in layer_scopes) + by.get("embed", 0) - sum(adj.values())
    st = steps[1]
    data = 2 * c["batch"] * c["seq"] * 8  # input ids and labels (int64)
    adj_peak = sum(adj.values()) if st["phase"] in ("forward", "backward") else 0
    peak = st["peak"] - start - fixed - data - adj_peak
    n_layer = nap["activations_per_layer"]
    n_logits = nap["logits"]
    n_peak = nap.get("peak", nap["total"]) - nap["overhead"]

    def cmp(m, n):
        return {"torch": m, "napkin": n, "ratio": (n / m) if m else float("nan")}

    return {
        "name": c["name"], "kernels": "fused" if c["fused"] else "eager",
        "layer": cmp(layer, n_layer), "logits": cmp(head, n_logits), "peak": cmp(peak, n_peak),
        "activations": cmp(acts, nap["activations"]),
        "mask_adj": layer_adj * L + adj.get("embed", 0), "phase": st["phase"],
        "napkin_phase": nap.get("peak_phase", "?"), "first_step_phase": steps[0]["phase"],
        "first_step_peak": steps[0]["peak"] - start - fixed - data, "params": saved["params"],
        "states": st["states"], "weight_casts": saved["weight_casts"],
    }


def mib(x):
    return "%.3f" % (x / 1048576.0)


def line(r):
    return "layer %s/%s (%.3f)  logits %s/%s (%.3f)  peak %s/%s (%.3f) %s|%s  MiB torch/napkin" % (
        mib(r["layer"]["torch"]), mib(r["layer"]["napkin"]), r["layer"]["ratio"],
        mib(r["logits"]["torch"]), mib(r["logits"]["napkin"]), r["logits"]["ratio"],
        mib(r["peak"]["torch"]), mib(r["peak"]["napkin"]), r["peak"]["ratio"], r["phase"], r["napkin_phase"])


def markdown(results):
    out = ["| configuration | kernels | saved per layer, PyTorch | napkin | ratio | logits+loss, PyTorch | napkin "
           "| ratio | peak, PyTorch | napkin | ratio | peak phase (PyTorch / napkin) | mask adj. |",
           "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|"]
    for r in results:
        out.append("| %s | %s | %d | %d | %.3f | %d | %d | %.3f | %d | %d | %.3f | %s / %s | %d |" % (
            r["name"], r["kernels"], r["layer"]["torch"], r["layer"]["napkin"], r["layer"]["ratio"],
            r["logits"]["torch"], r["logits"]["napkin"], r["logits"]["ratio"],
            r["peak"]["torch"], r["peak"]["napkin"], r["peak"]["ratio"], r["phase"], r["napkin_phase"],
            r["mask_adj"]))
    return "\n".join(out) + "\n"
