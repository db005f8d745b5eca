#!/usr/bin/env python3
"""Independent hand count of parameters and KV cache for today's model architectures.

Pure Python (no torch, no transformers): reads the config.json files in this folder, counts every
tensor transformers' modelling code creates for them (the counters, each formula quoting its
modelling-code line, are in hand_count_arch.py), and prints per model a table of modules and counts,
the total and the active count per token beside the published figures, and the KV cache (or fixed
state) per token per layer. See README.md for where each config and each published figure comes from.

Run: python3 tests/data/hf/hand_count.py
"""
import sys

from hand_count_arch import (deepseek, fmt, gemma3, gpt_oss, kimi_linear, llama4, load, mistral3, nemotron_h,
                             qwen3, qwen3_next)


# ---------------------------------------------------------------------------------------------
# Published figures. "card": the model card's rounded total / active; "exact": an exact count with
# its source, where one was found. None: not found.

LLAMA4_SCOUT_VISION = {  # the vision_config transformers prints for meta-llama/Llama-4-Scout-17B-16E (see README)
    "hidden_size": 1408, "image_size": 336, "intermediate_size": 5632, "num_hidden_layers": 34,
    "patch_size": 14, "projector_input_dim": 4096, "projector_output_dim": 4096, "vision_output_dim": 4096,
}

HF = "the Hugging Face safetensors total (the Hub API's safetensors.total) as quoted in public code"
MODELS = [
    # file, counter, name, card total, card active, card source, exact, exact source
    ("deepseek-v3.json", deepseek, "DeepSeek-V3", 671e9, 37e9,
     "README: 671B total, 37B activated; 685B on HF = 671B main + 14B MTP", 684531386000, HF),
    ("kimi-k2-instruct.json", deepseek, "Kimi-K2-Instruct", 1.0e12, 32e9,
     "model card: 1T total, 32B activated", None, None),
    ("deepseek-v2-lite-layers.json", deepseek, "DeepSeek-V2-Lite", 15.7e9, 2.4e9,
     "model card: 15.7B total, 2.4B activated", 15706484224, HF),
    ("qwen3-8b.json", qwen3, "Qwen3-8B", 8.2e9, None,
     "model card: 8.2B, 6.95B non-embedding", 8190735360, HF),
    ("qwen3-30b-a3b.json", qwen3, "Qwen3-30B-A3B", 30.5e9, 3.3e9,
     "model card: 30.5B total, 3.3B activated, 29.9B non-embedding", 30532122624,
     HF + "; also a sum of the checkpoint's tensor shapes and llama.cpp's general.parameter_count"),
    ("qwen3-235b-a22b.json", qwen3, "Qwen3-235B-A22B", 235e9, 22e9,
     "model card: 235B total, 22B activated, 234B non-embedding", 235093634560, HF),
    ("qwen3-next-80b-a3b-thinking.json", qwen3_next, "Qwen3-Next-80B-A3B", 80e9, 3e9,
     "model card: 80B total, 3B activated", 81324862720, HF + " (Instruct and Thinking alike)"),
    ("gemma-3-27b-it.json", gemma3, "gemma-3-27b-it", 27e9, None, "model card: 27B", 27432406640,
     "llama.cpp's n_params for a gemma-3-27b-it GGUF; a public table of HF totals"),
    ("gemma-3-4b-it-layers.json", gemma3, "gemma-3-4b-it", 4e9, None, "model card: 4B", 4300079472,
     HF + "; sum(p.numel()) of Gemma3ForConditionalGeneration"),
    ("gemma-3-1b-it.json", gemma3, "gemma-3-1b-it", 1e9, None, "model card: 1B", 999885952, HF),
    ("llama-4-scout-text.json", None, "Llama-4-Scout-17B-16E-Instruct", 109e9, 17e9,
     "model card: 109B total, 17B activated", 108641793536, HF),
    ("mistral-small-3.1-24b.json", mistral3, "Mistral-Small-3.1-24B-Instruct-2503", 24e9, None,
     "model card: 24B", 24011361280, "keras-hub's preset table (mistral_small_3.1) and HF totals of the 3.2 repo"),
    ("gpt-oss-120b.json", gpt_oss, "gpt-oss-120b", 117e9, 5.1e9,
     "model card: 117B total, 5.1B active", 116829156672, "llama.cpp / Ollama general.parameter_count; HF total"),
    ("gpt-oss-20b.json", gpt_oss, "gpt-oss-20b", 21e9, 3.6e9,
     "model card: 21B total, 3.6B active", 20914757184, "llama.cpp / Ollama general.parameter_count; HF total"),
    ("kimi-linear-48b-a3b-layers.json", kimi_linear, "Kimi-Linear-48B-A3B-Instruct", 48e9, 3e9,
     "README: 48B total, 3B activated", None, None),
    ("nemotron-h-56b.json", nemotron_h, "Nemotron-H-56B-Base-8K", 56e9, None,
     "model card: 56B", None, None),
]


def short(n):
    if n is None:
        return "-"
    return "%.2fB" % (n / 1e9) if n < 1e12 else "%.3fT" % (n / 1e12)


def report(cnt, card_total, card_active, card_src, exact, exact_src, out):
    w = out.write
    w("\n== %s ==\n" % cnt.model)
    w("  %-46s %16s %6s %18s\n" % ("module", "per layer", "x", "total"))
    for m, n, t, a in cnt.rows:
        if n == 0:
            continue
        w("  %-46s %16s %6d %18s\n" % (m, fmt(n), t, fmt(n * t)))
    total = cnt.total()
    emb = sum(n for m, n, t, a in cnt.rows if m.startswith("embed_tokens"))
    if getattr(cnt, "tied", False):
        emb = 0  # the tied table is already in "active" as the head
    w("  %-46s %42s\n" % ("TOTAL (language model)", fmt(total)))
    vis = getattr(cnt, "vision", None)
    if vis is not None:
        proj = cnt.projector
        w("  %-46s %42s\n" % ("vision tower", fmt(vis)))
        w("  %-46s %42s\n" % ("multimodal projector", fmt(proj)))
        w("  %-46s %42s\n" % ("TOTAL with vision", fmt(total + vis + proj)))
    mtp = getattr(cnt, "mtp", None)
    if mtp:
        w("  %-46s %42s\n" % ("TOTAL with MTP module", fmt(total + mtp)))
    sc = getattr(cnt, "fp8_scales", None)
    if sc:
        w("  %-46s %42s\n" % ("TOTAL as stored (+MTP, +FP8 block scales)", fmt(total + (mtp or 0) + sc)))
    w("  %-46s %42s\n" % ("active per token (without embed_tokens)", fmt(cnt.active())))
    w("  %-46s %42s\n" % ("active per token (with embed_tokens)", fmt(cnt.active() + emb)))
    w("  published: total %s, active %s (%s)\n" % (short(card_total), short(card_active), card_src))
    if exact:
        w("  published exact: %s (%s)\n" % (fmt(exact), exact_src))
    for kind, n, txt in cnt.kv:
        w("  KV per token per layer, %s (%d layers): %s\n" % (kind, n, txt))
    for note in cnt.notes:
        w("  note: %s\n" % note)
    full = total + (vis or 0) + (getattr(cnt, "projector", 0) or 0)
    return full, cnt.active(), emb


def main():
    out = sys.stdout
    summary = []
    for f, fn, name, ct, ca, cs, ex, es in MODELS:
        c = load(f)
        if fn is None:  # Llama 4: the text config file plus the printed vision config
            cnt = llama4(c, name, LLAMA4_SCOUT_VISION)
        else:
            cnt = fn(c, name)
        full, act, emb = report(cnt, ct, ca, cs, ex, es, out)
        stored = full + (getattr(cnt, "mtp", 0) or 0) + (getattr(cnt, "fp8_scales", 0) or 0)
        summary.append((name, cnt.total(), stored, act, emb, ct, ca, ex))
    out.write("\n== summary (stored = as the checkpoint holds it: + vision tower and projector, + MTP, + FP8 scales) ==\n")
    out.write("  %-36s %18s %18s %16s %8s %8s %18s %s\n" % ("model", "LM total", "stored", "active (no emb)",
                                                       "card", "card act", "published exact", "diff"))
    for name, t, stored, act, emb, ct, ca, ex in summary:
        diff = "" if ex is None else ("%+d" % (stored - ex) if stored != ex else "0")
        out.write("  %-36s %18s %18s %16s %8s %8s %18s %s\n" % (name, fmt(t), fmt(stored), fmt(act), short(ct), short(ca),
                                                            fmt(ex) if ex else "-", diff))


if __name__ == "__main__":
    main()
