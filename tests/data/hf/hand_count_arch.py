#!/usr/bin/env python3
"""Independent hand count of parameters and KV cache for today's model architectures: the counters.

Pure Python (no torch, no transformers). Reads the config.json files in this folder and counts,
module by module, the tensors that Hugging Face transformers' modelling code creates for them.
Each formula quotes the line of the modelling code it comes from (transformers, src/transformers/
models/<name>/modeling_<name>.py or modular_<name>.py, unless another file is named). Buffers that
are not saved (rotary inv_freq, Gemma's embed_scale: register_buffer(..., persistent=False)) are not
parameters and are not counted; persistent buffers that the checkpoints hold (DeepSeek-V3's router
e_score_correction_bias) are counted, as the safetensors totals count them.

"active" is what one token touches: every dense weight, the routed experts it is sent to (top-k),
shared experts, routers, the lm_head; the input embedding table is left out of "active" (one row is
read) and shown separately. KV is elements per token per layer (multiply by bytes per element);
sliding / chunked layers hold at most the window; linear attention / SSM layers hold a fixed state
per sequence instead.

The counters live here; hand_count.py holds the published figures, prints the tables and runs them.
"""
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def load(name):
    with open(os.path.join(HERE, name)) as f:
        return json.load(f)  # json accepts nemotron-h's "Infinity" as Python does


class Count:
    def __init__(self, model):
        self.model = model
        self.rows = []  # (module, per_layer_count, layers, active_per_layer)
        self.notes = []
        self.kv = []  # (layer kind, layers, text)

    def add(self, module, n, times=1, active=None):
        self.rows.append((module, n, times, n if active is None else active))

    def total(self):
        return sum(n * t for _, n, t, _ in self.rows)

    def active(self):
        return sum(a * t for m, _, t, a in self.rows if not m.startswith("embed_tokens"))


def fmt(n):
    return "{:,}".format(int(round(n)))


def linear(i, o, bias=False):
    return i * o + (o if bias else 0)


# ---------------------------------------------------------------------------------------------
# Shared pieces


def swiglu_mlp(h, i, bias=False):
    # gate_proj = nn.Linear(hidden_size, intermediate_size, bias=False); up_proj likewise;
    # down_proj = nn.Linear(intermediate_size, hidden_size, bias=False)  (LlamaMLP, Qwen3MLP,
    # DeepseekV3MLP, Gemma3MLP, MistralMLP, Llama4TextMLP)
    return linear(h, i, bias) * 2 + linear(i, h, bias)


def gqa_attention(c, h, heads, kv, hd, bias=False, qk_norm=False, q_gate=False):
    # q_proj = nn.Linear(hidden_size, num_attention_heads * head_dim, bias=config.attention_bias)
    # k_proj / v_proj = nn.Linear(hidden_size, num_key_value_heads * head_dim, bias=...)
    # o_proj = nn.Linear(num_attention_heads * head_dim, hidden_size, bias=...)
    rows = []
    q_out = heads * hd * (2 if q_gate else 1)  # Qwen3Next: q_proj(..., heads * head_dim * 2) (gate)
    rows.append(("q_proj", linear(h, q_out, bias)))
    rows.append(("k_proj", linear(h, kv * hd, bias)))
    rows.append(("v_proj", linear(h, kv * hd, bias)))
    rows.append(("o_proj", linear(heads * hd, h, bias)))
    if qk_norm:
        # self.q_norm = Qwen3RMSNorm(self.head_dim, ...); self.k_norm = ... (Qwen3, Gemma3, Qwen3Next)
        rows.append(("q_norm + k_norm", 2 * hd))
    return rows


def embed_head(cnt, vocab, h, tied):
    # self.embed_tokens = nn.Embedding(config.vocab_size, config.hidden_size, self.padding_idx)
    cnt.add("embed_tokens", vocab * h)
    # self.norm = XRMSNorm(config.hidden_size, eps=config.rms_norm_eps)
    cnt.add("final norm", h)
    # self.lm_head = nn.Linear(config.hidden_size, config.vocab_size, bias=False); tied: same tensor
    if not tied:
        cnt.add("lm_head", h * vocab)
    else:
        cnt.notes.append("lm_head tied to embed_tokens (counted once, in embed_tokens)")
        cnt.tied = True
        # the head still reads the whole table per token
        cnt.add("lm_head (tied, active only)", 0, 1, h * vocab)


# ---------------------------------------------------------------------------------------------
# DeepSeek-V3 / Kimi-K2 (modeling_deepseek_v3.py) and DeepSeek-V2-Lite (modeling_deepseek_v2.py)


def mla_rows(c, h):
    heads = c["num_attention_heads"]
    nope, rope, vd = c["qk_nope_head_dim"], c["qk_rope_head_dim"], c["v_head_dim"]
    kvr, qr = c["kv_lora_rank"], c.get("q_lora_rank")
    bias = c.get("attention_bias", False)
    qk = nope + rope
    rows = []
    if qr is None:
        # self.q_proj = nn.Linear(config.hidden_size, self.num_heads * self.qk_head_dim, bias=False)
        rows.append(("q_proj", linear(h, heads * qk)))
    else:
        # self.q_a_proj = nn.Linear(config.hidden_size, config.q_lora_rank, bias=config.attention_bias)
        rows.append(("q_a_proj", linear(h, qr, bias)))
        # self.q_a_layernorm = DeepseekV3RMSNorm(config.q_lora_rank)
        rows.append(("q_a_layernorm", qr))
        # self.q_b_proj = nn.Linear(config.q_lora_rank, self.num_heads * self.qk_head_dim, bias=False)
        rows.append(("q_b_proj", linear(qr, heads * qk)))
    # self.kv_a_proj_with_mqa = nn.Linear(hidden_size, kv_lora_rank + qk_rope_head_dim, bias=attention_bias)
    rows.append(("kv_a_proj_with_mqa", linear(h, kvr + rope, bias)))
    # self.kv_a_layernorm = DeepseekV3RMSNorm(self.kv_lora_rank)
    rows.append(("kv_a_layernorm", kvr))
    # self.kv_b_proj = nn.Linear(kv_lora_rank, num_heads * (qk_nope_head_dim + v_head_dim), bias=False)
    rows.append(("kv_b_proj", linear(kvr, heads * (nope + vd))))
    # self.o_proj = nn.Linear(self.num_heads * self.v_head_dim, config.hidden_size, bias=attention_bias)
    rows.append(("o_proj", linear(heads * vd, h, bias)))
    return rows


def deepseek(c, name):
    cnt = Count(name)
    h, L, V = c["hidden_size"], c["num_hidden_layers"], c["vocab_size"]
    E, k = c["n_routed_experts"], c["num_experts_per_tok"]
    mi, ns = c["moe_intermediate_size"], c["n_shared_experts"]
    dense = c["first_k_dense_replace"]  # if layer_idx >= config.first_k_dense_replace: DeepseekV3MoE
    assert c.get("moe_layer_freq", 1) == 1
    moe = L - dense
    attn = mla_rows(c, h)
    for m, n in attn:
        cnt.add("attn." + m, n, L)
    # input_layernorm + post_attention_layernorm = DeepseekV3RMSNorm(config.hidden_size)
    cnt.add("input_layernorm + post_attention_layernorm", 2 * h, L)
    # self.mlp = DeepseekV3MLP(config)  (dense layers, intermediate_size)
    cnt.add("mlp (dense layers)", swiglu_mlp(h, c["intermediate_size"]), dense)
    # self.experts = nn.ModuleList([DeepseekV3MLP(config, intermediate_size=moe_intermediate_size) ...])
    one = swiglu_mlp(h, mi)
    cnt.add("moe.experts (%d x %d)" % (E, one), E * one, moe, k * one)
    # self.shared_experts = DeepseekV3MLP(intermediate_size=config.moe_intermediate_size * n_shared_experts)
    cnt.add("moe.shared_experts", swiglu_mlp(h, mi * ns), moe)
    # DeepseekV3TopkRouter: self.weight = nn.Parameter(torch.empty((n_routed_experts, hidden_size)))
    cnt.add("moe.gate.weight", E * h, moe)
    if c.get("topk_method") == "noaux_tc":
        # self.register_buffer("e_score_correction_bias", torch.zeros(self.n_routed_experts))
        # (persistent: it is in the checkpoint and in HF's safetensors total)
        cnt.add("moe.gate.e_score_correction_bias", E, moe)
    embed_head(cnt, V, h, c.get("tie_word_embeddings", False))
    # KV: the cache holds the compressed latent (kv_lora_rank) and the shared rope key per token
    # (DeepSeek-V2 paper, sec. 2.1.2: (d_c + d_h^R) * l elements per token); transformers' eager
    # code expands it to full K/V, an inference engine with MLA keeps the latent.
    lat = c["kv_lora_rank"] + c["qk_rope_head_dim"]
    full = 2 * c["num_attention_heads"] * (c["qk_nope_head_dim"] + c["qk_rope_head_dim"])
    cnt.kv.append(("MLA", L, "%d elements (kv_lora_rank + qk_rope_head_dim); expanded K+V would be %d" % (lat, full)))
    nmtp = c.get("num_nextn_predict_layers", 0)
    if nmtp:
        # Not built by transformers (DeepseekV3Model: _keys_to_ignore_on_load_unexpected =
        # [r"model\.layers\.61.*"]); the checkpoint's layer 61 holds, per DeepSeek-V3's
        # inference/model.py and the safetensors index: embed_tokens, enorm, hnorm, eh_proj
        # (2H -> H), one MoE decoder layer, shared_head.norm, shared_head.head.
        layer = sum(n for _, n in attn) + 2 * h + E * one + swiglu_mlp(h, mi * ns) + E * h + E
        mtp = nmtp * (layer + 2 * h * h + 3 * h + 2 * V * h)
        cnt.notes.append("MTP module (num_nextn_predict_layers=%d) not counted in total: %s" % (nmtp, fmt(mtp)))
        cnt.mtp = mtp
    q = c.get("quantization_config") or {}
    if q.get("quant_method") == "fp8" and q.get("weight_block_size"):
        # The FP8 checkpoints store, beside each FP8 nn.Linear weight (out, in) of the decoder layers, an F32
        # weight_scale_inv of shape (ceil(out/128), ceil(in/128)) (DeepSeek-V3 inference/kernel.py
        # weight_dequant, block_size 128). The router gate, embeddings, lm_head, norms and the MTP eh_proj
        # stay BF16. HF's safetensors total counts these scale tensors as parameters.
        bo, bi = q["weight_block_size"]
        sc = lambda o, i: -(-o // bo) * -(-i // bi)
        heads, nope, rope, vd = c["num_attention_heads"], c["qk_nope_head_dim"], c["qk_rope_head_dim"], c["v_head_dim"]
        kvr, qr = c["kv_lora_rank"], c.get("q_lora_rank")
        a = sc(kvr + rope, h) + sc(heads * (nope + vd), kvr) + sc(h, heads * vd)
        a += sc(qr, h) + sc(heads * (nope + rope), qr) if qr else sc(heads * (nope + rope), h)
        mlp = lambda i: 2 * sc(i, h) + sc(h, i)
        scales = dense * (a + mlp(c["intermediate_size"])) + (moe + nmtp) * (a + (E + ns) * mlp(mi))
        cnt.fp8_scales = scales
        cnt.notes.append("FP8 block scales (weight_scale_inv, %dx%d blocks) in the checkpoint: %s" % (bo, bi, fmt(scales)))
    return cnt


# ---------------------------------------------------------------------------------------------
# Qwen3 (modeling_qwen3.py), Qwen3-MoE (modeling_qwen3_moe.py)


def qwen3(c, name):
    cnt = Count(name)
    h, L, V = c["hidden_size"], c["num_hidden_layers"], c["vocab_size"]
    heads, kv, hd = c["num_attention_heads"], c["num_key_value_heads"], c["head_dim"]
    for m, n in gqa_attention(c, h, heads, kv, hd, c.get("attention_bias", False), qk_norm=True):
        cnt.add("attn." + m, n, L)
    cnt.add("input_layernorm + post_attention_layernorm", 2 * h, L)
    E = c.get("num_experts", 0)
    if E:
        k, mi = c["num_experts_per_tok"], c["moe_intermediate_size"]
        step, only = c.get("decoder_sparse_step", 1), c.get("mlp_only_layers", [])
        # if (layer_idx not in config.mlp_only_layers) and (num_experts > 0 and (layer_idx + 1) % decoder_sparse_step == 0)
        moe = sum(1 for i in range(L) if i not in only and (i + 1) % step == 0)
        one = swiglu_mlp(h, mi)
        # Qwen3MoeSparseMoeBlock: self.experts = ... Qwen3MoeMLP(config, intermediate_size=moe_intermediate_size)
        cnt.add("moe.experts (%d x %d)" % (E, one), E * one, moe, k * one)
        # self.gate = nn.Linear(config.hidden_size, config.num_experts, bias=False)
        cnt.add("moe.gate", E * h, moe)
        if L - moe:
            cnt.add("mlp (dense layers)", swiglu_mlp(h, c["intermediate_size"]), L - moe)
    else:
        cnt.add("mlp", swiglu_mlp(h, c["intermediate_size"]), L)
    embed_head(cnt, V, h, c.get("tie_word_embeddings", False))
    cnt.kv.append(("full attention", L, "%d elements (2 x %d kv heads x %d)" % (2 * kv * hd, kv, hd)))
    return cnt


# ---------------------------------------------------------------------------------------------
# Qwen3-Next (modular_qwen3_next.py)


def qwen3_next(c, name):
    cnt = Count(name)
    h, L, V = c["hidden_size"], c["num_hidden_layers"], c["vocab_size"]
    heads, kv, hd = c["num_attention_heads"], c["num_key_value_heads"], c["head_dim"]
    every = c["full_attention_interval"]
    # configuration_qwen3_next.py: layer_types = ["linear_attention" if bool((i + 1) % interval) else "full_attention"]
    full = sum(1 for i in range(L) if (i + 1) % every == 0)
    lin = L - full
    for m, n in gqa_attention(c, h, heads, kv, hd, c.get("attention_bias", False), qk_norm=True, q_gate=True):
        cnt.add("full attn." + m, n, full)
    nv, nk = c["linear_num_value_heads"], c["linear_num_key_heads"]
    dk, dv, K = c["linear_key_head_dim"], c["linear_value_head_dim"], c["linear_conv_kernel_dim"]
    key_dim, value_dim = dk * nk, dv * nv
    conv_dim = 2 * key_dim + value_dim
    # self.conv1d = nn.Conv1d(conv_dim, conv_dim, bias=False, kernel_size=conv_kernel_size, groups=conv_dim)
    cnt.add("linear attn.conv1d", conv_dim * K, lin)
    # self.in_proj_qkvz = nn.Linear(hidden_size, key_dim * 2 + value_dim * 2, bias=False)
    cnt.add("linear attn.in_proj_qkvz", h * (2 * key_dim + 2 * value_dim), lin)
    # self.in_proj_ba = nn.Linear(hidden_size, num_v_heads * 2, bias=False)
    cnt.add("linear attn.in_proj_ba", h * 2 * nv, lin)
    # self.dt_bias = nn.Parameter(torch.ones(num_v_heads)); self.A_log = nn.Parameter(torch.log(A))
    cnt.add("linear attn.dt_bias + A_log", 2 * nv, lin)
    # self.norm = Qwen3NextRMSNormGated(self.head_v_dim, ...)
    cnt.add("linear attn.norm (gated)", dv, lin)
    # self.out_proj = nn.Linear(self.value_dim, self.hidden_size, bias=False)
    cnt.add("linear attn.out_proj", value_dim * h, lin)
    cnt.add("input_layernorm + post_attention_layernorm", 2 * h, L)
    E, k, mi, si = c["num_experts"], c["num_experts_per_tok"], c["moe_intermediate_size"], c["shared_expert_intermediate_size"]
    one = swiglu_mlp(h, mi)
    # Qwen3NextSparseMoeBlock(Qwen2MoeSparseMoeBlock): gate = nn.Linear(hidden, num_experts, bias=False),
    # experts, shared_expert = MLP(intermediate_size=shared_expert_intermediate_size),
    # shared_expert_gate = nn.Linear(hidden_size, 1, bias=False)   (modeling_qwen2_moe.py)
    cnt.add("moe.experts (%d x %d)" % (E, one), E * one, L, k * one)
    cnt.add("moe.gate", E * h, L)
    cnt.add("moe.shared_expert", swiglu_mlp(h, si), L)
    cnt.add("moe.shared_expert_gate", h, L)
    embed_head(cnt, V, h, c.get("tie_word_embeddings", False))
    cnt.kv.append(("full attention", full, "%d elements (2 x %d x %d)" % (2 * kv * hd, kv, hd)))
    state = nv * dk * dv + conv_dim * (K - 1)
    cnt.kv.append(("gated delta net", lin, "0 per token; a fixed %d elements per sequence (recurrent %d x %d x %d + conv %d x %d)"
                   % (state, nv, dk, dv, conv_dim, K - 1)))
    # The checkpoint's mtp.* weights are not built (_keys_to_ignore_on_load_unexpected = [r"^mtp.*"]).
    # Counted here as the checkpoint names them: mtp.fc (2H -> H, no bias), mtp.pre_fc_norm_embedding and
    # mtp.pre_fc_norm_hidden (H each), mtp.layers.0 (one full-attention MoE decoder layer as above), mtp.norm
    # (H); embeddings and head shared with the main model. Inferred structure: the sum equals the gap between
    # the HF safetensors total and the main model exactly (see README).
    attn = sum(n for _, n in gqa_attention(c, h, heads, kv, hd, c.get("attention_bias", False), qk_norm=True, q_gate=True))
    layer = attn + 2 * h + E * one + E * h + swiglu_mlp(h, si) + h
    cnt.mtp = 2 * h * h + 2 * h + layer + h
    cnt.notes.append("MTP module (mtp.*, 1 layer) not counted in total: %s" % fmt(cnt.mtp))
    return cnt


# ---------------------------------------------------------------------------------------------
# Gemma 3 (modeling_gemma3.py; defaults from configuration_gemma3.py Gemma3TextConfig.__init__)

GEMMA3_TEXT_DEFAULTS = dict(vocab_size=262208, num_attention_heads=8, num_key_value_heads=4, head_dim=256,
                            sliding_window=4096, sliding_window_pattern=6, tie_word_embeddings=True)


def siglip(v):
    # modeling_siglip.py. SiglipVisionEmbeddings: patch_embedding = nn.Conv2d(num_channels, embed_dim,
    # kernel_size=patch_size, stride=patch_size) (bias); position_embedding = nn.Embedding(num_positions, embed_dim)
    d, I, n, p, img = v["hidden_size"], v["intermediate_size"], v["num_hidden_layers"], v["patch_size"], v["image_size"]
    ch = v.get("num_channels", 3)
    emb = ch * p * p * d + d + (img // p) ** 2 * d
    # SiglipAttention: k_proj, v_proj, q_proj, out_proj = nn.Linear(embed_dim, embed_dim) (bias);
    # SiglipMLP: fc1 = nn.Linear(hidden_size, intermediate_size), fc2 = nn.Linear(intermediate_size, hidden_size);
    # layer_norm1, layer_norm2 = nn.LayerNorm(embed_dim) (weight + bias)
    layer = 4 * linear(d, d, True) + linear(d, I, True) + linear(I, d, True) + 2 * 2 * d
    # post_layernorm = nn.LayerNorm(embed_dim); no head (vision_use_head false)
    assert not v.get("vision_use_head", True)
    return emb, layer, n, 2 * d


def gemma3(c, name):
    cnt = Count(name)
    t = dict(GEMMA3_TEXT_DEFAULTS)
    t.update(c.get("text_config", c))
    if "text_config" in c and "tie_word_embeddings" in c:
        t["tie_word_embeddings"] = c["tie_word_embeddings"]
    h, L, V = t["hidden_size"], t["num_hidden_layers"], t["vocab_size"]
    heads, kv, hd = t["num_attention_heads"], t["num_key_value_heads"], t["head_dim"]
    for m, n in gqa_attention(t, h, heads, kv, hd, t.get("attention_bias", False), qk_norm=True):
        cnt.add("attn." + m, n, L)
    # input_layernorm, post_attention_layernorm, pre_feedforward_layernorm, post_feedforward_layernorm
    cnt.add("4 layer norms (Gemma3RMSNorm(hidden_size))", 4 * h, L)
    cnt.add("mlp", swiglu_mlp(h, t["intermediate_size"]), L)
    embed_head(cnt, V, h, t["tie_word_embeddings"])
    # layer_types: "sliding_attention" if bool((i + 1) % sliding_window_pattern) else "full_attention"
    pat, win = t["sliding_window_pattern"], t["sliding_window"]
    full = sum(1 for i in range(L) if (i + 1) % pat == 0)
    e = 2 * kv * hd
    cnt.kv.append(("sliding (window %d)" % win, L - full, "%d elements per token, at most %d tokens" % (e, win)))
    cnt.kv.append(("full attention", full, "%d elements (2 x %d x %d)" % (e, kv, hd)))
    if "vision_config" in c:
        v = c["vision_config"]
        emb, layer, n, post = siglip(v)
        cnt.vision = emb + layer * n + post
        # Gemma3MultiModalProjector: mm_input_projection_weight = nn.Parameter(torch.zeros(vision hidden, text hidden));
        # mm_soft_emb_norm = Gemma3RMSNorm(config.vision_config.hidden_size)
        cnt.projector = v["hidden_size"] * h + v["hidden_size"]
    return cnt


# ---------------------------------------------------------------------------------------------
# Llama 4 (modeling_llama4.py)


def llama4(c, name, vision=None):
    cnt = Count(name)
    t = c["text_config"]
    h, L, V = t["hidden_size"], t["num_hidden_layers"], t["vocab_size"]
    heads, kv, hd = t["num_attention_heads"], t["num_key_value_heads"], t["head_dim"]
    # attention q/k/v/o as Llama; qk_norm = Llama4TextL2Norm(eps) has no weight
    for m, n in gqa_attention(t, h, heads, kv, hd, t.get("attention_bias", False)):
        cnt.add("attn." + m, n, L)
    cnt.add("input_layernorm + post_attention_layernorm", 2 * h, L)
    step = t["interleave_moe_layer_step"]
    # configuration_llama4.py: moe_layers = list(range(interleave_moe_layer_step - 1, num_hidden_layers, step))
    moe = len(range(step - 1, L, step))
    E, k, I = t["num_local_experts"], t["num_experts_per_tok"], t["intermediate_size"]
    # Llama4TextExperts: gate_up_proj = nn.Parameter(torch.zeros(num_experts, hidden_size, 2 * expert_dim));
    # down_proj = nn.Parameter(torch.empty((num_experts, expert_dim, hidden_size)))
    one = h * 2 * I + I * h
    cnt.add("feed_forward.experts (%d x %d)" % (E, one), E * one, moe, k * one)
    # Llama4Router(nn.Linear): super().__init__(config.hidden_size, config.num_local_experts, bias=False)
    cnt.add("feed_forward.router", h * E, moe)
    # self.shared_expert = Llama4TextMLP(config)  (intermediate_size)
    cnt.add("feed_forward.shared_expert", swiglu_mlp(h, I), moe)
    if L - moe:
        # dense layers: Llama4TextMLP(config, intermediate_size=config.intermediate_size_mlp)
        cnt.add("feed_forward (dense layers)", swiglu_mlp(h, t["intermediate_size_mlp"]), L - moe)
    embed_head(cnt, V, h, c.get("tie_word_embeddings", False))
    # no_rope_layers default: [int((layer_idx + 1) % no_rope_layer_interval != 0)], interval 4; rope layers
    # use chunked attention (attention_chunk_size): at most one chunk of keys per token
    nope = L // 4
    e = 2 * kv * hd
    cnt.kv.append(("chunked (rope) layers", L - nope, "%d elements per token, at most %d tokens (one chunk)" % (e, t["attention_chunk_size"])))
    cnt.kv.append(("global NoPE layers", nope, "%d elements (2 x %d x %d)" % (e, kv, hd)))
    if vision:
        v = vision
        d, Iv, n, p, img = v["hidden_size"], v["intermediate_size"], v["num_hidden_layers"], v["patch_size"], v["image_size"]
        # Llama4UnfoldConvolution: linear = nn.Linear(num_channels * patch_size**2, hidden_size, bias=False);
        # class_embedding (hidden); positional_embedding_vlm ((image/patch)**2 + 1, hidden);
        # layernorm_pre, layernorm_post = nn.LayerNorm(hidden) (weight + bias)
        emb = 3 * p * p * d + d + ((img // p) ** 2 + 1) * d + 2 * 2 * d
        # Llama4VisionEncoderLayer: q/k/v/o_proj nn.Linear(..., bias=True); mlp fc1/fc2 with bias; 2 LayerNorms
        layer = 4 * linear(d, d, True) + linear(d, Iv, True) + linear(Iv, d, True) + 2 * 2 * d
        # Llama4VisionPixelShuffleMLP -> Llama4VisionMLP2: fc1 = nn.Linear(intermediate_size, projector_input_dim,
        # bias=False); fc2 = nn.Linear(projector_output_dim, projector_output_dim, bias=False)
        adapter = Iv * v["projector_input_dim"] + v["projector_output_dim"] * v["projector_output_dim"]
        cnt.vision = emb + layer * n + adapter
        # Llama4MultiModalProjector: linear_1 = nn.Linear(vision_output_dim, text hidden_size, bias=False)
        cnt.projector = v["vision_output_dim"] * h
    return cnt


# ---------------------------------------------------------------------------------------------
# Mistral 3 (modeling_mistral3.py, text: modeling_mistral.py, vision: modeling_pixtral.py)


def mistral3(c, name):
    cnt = Count(name)
    t = c["text_config"]
    h, L, V = t["hidden_size"], t["num_hidden_layers"], t["vocab_size"]
    heads, kv, hd = t["num_attention_heads"], t["num_key_value_heads"], t["head_dim"]
    for m, n in gqa_attention(t, h, heads, kv, hd):
        cnt.add("attn." + m, n, L)
    cnt.add("input_layernorm + post_attention_layernorm", 2 * h, L)
    cnt.add("mlp", swiglu_mlp(h, t["intermediate_size"]), L)
    embed_head(cnt, V, h, c.get("tie_word_embeddings", False))
    cnt.kv.append(("full attention", L, "%d elements (2 x %d x %d)" % (2 * kv * hd, kv, hd)))
    v = c["vision_config"]
    d, Iv, n, p = v["hidden_size"], v["intermediate_size"], v["num_hidden_layers"], v["patch_size"]
    # PixtralVisionModel: patch_conv = nn.Conv2d(num_channels, hidden_size, patch_size, stride, bias=False);
    # ln_pre = PixtralRMSNorm(hidden_size); layers: attention_norm, ffn_norm (RMSNorm),
    # q/k/v/o_proj = nn.Linear(hidden, hidden, bias=False), feed_forward gate/up/down (bias=False)
    emb = v.get("num_channels", 3) * p * p * d + d
    layer = 4 * d * d + swiglu_mlp(d, Iv) + 2 * d
    cnt.vision = emb + layer * n
    # Mistral3MultiModalProjector: norm = Mistral3RMSNorm(vision hidden); patch_merger.merging_layer =
    # nn.Linear(hidden * spatial_merge_size**2, hidden, bias=False); linear_1 = nn.Linear(vision hidden *
    # num_feature_layers, text hidden, bias=multimodal_projector_bias); linear_2 = nn.Linear(text, text, bias=...)
    m = c.get("spatial_merge_size", 2)
    b = c.get("multimodal_projector_bias", False)
    cnt.projector = d + d * m * m * d + linear(d, h, b) + linear(h, h, b)
    return cnt


# ---------------------------------------------------------------------------------------------
# gpt-oss (modeling_gpt_oss.py)


def gpt_oss(c, name):
    cnt = Count(name)
    h, L, V = c["hidden_size"], c["num_hidden_layers"], c["vocab_size"]
    heads, kv, hd = c["num_attention_heads"], c["num_key_value_heads"], c["head_dim"]
    for m, n in gqa_attention(c, h, heads, kv, hd, c["attention_bias"]):
        cnt.add("attn." + m + " (+bias)", n, L)
    # self.sinks = nn.Parameter(torch.empty(config.num_attention_heads))
    cnt.add("attn.sinks", heads, L)
    cnt.add("input_layernorm + post_attention_layernorm", 2 * h, L)
    E, k, I = c["num_local_experts"], c["num_experts_per_tok"], c["intermediate_size"]
    # GptOssExperts: gate_up_proj (E, hidden, 2 * expert_dim); gate_up_proj_bias (E, 2 * expert_dim);
    # down_proj (E, expert_dim, hidden); down_proj_bias (E, hidden)
    one = h * 2 * I + 2 * I + I * h + h
    cnt.add("mlp.experts (%d x %d, with biases)" % (E, one), E * one, L, k * one)
    # GptOssTopKRouter: weight = nn.Parameter(torch.empty(num_experts, hidden_dim)); bias = (num_experts)
    cnt.add("mlp.router (+bias)", E * h + E, L)
    embed_head(cnt, V, h, c.get("tie_word_embeddings", False))
    types = c["layer_types"]
    s = types.count("sliding_attention")
    e = 2 * kv * hd
    cnt.kv.append(("sliding (window %d)" % c["sliding_window"], s, "%d elements per token, at most %d tokens" % (e, c["sliding_window"])))
    cnt.kv.append(("full attention", L - s, "%d elements (2 x %d x %d)" % (e, kv, hd)))
    return cnt


# ---------------------------------------------------------------------------------------------
# Kimi-Linear (the model's own modeling_kimi.py, KimiDeltaAttention / KimiMLAAttention / KimiSparseMoeBlock)


def kimi_linear(c, name):
    cnt = Count(name)
    h, L, V = c["hidden_size"], c["num_hidden_layers"], c["vocab_size"]
    la = c["linear_attn_config"]
    kda = len(la["kda_layers"])  # 1-based layer numbers
    mla = len(la["full_attn_layers"])
    assert kda + mla == L
    for m, n in mla_rows(c, h):
        cnt.add("MLA." + m, n, mla)
    nh, hd, K = la["num_heads"], la["head_dim"], la["short_conv_kernel_size"]
    p = nh * hd
    # q_proj, k_proj, v_proj = nn.Linear(hidden_size, num_heads * head_dim, bias=False)
    cnt.add("KDA.q/k/v_proj", 3 * h * p, kda)
    # q_conv1d, k_conv1d, v_conv1d = ShortConvolution(hidden_size=projection_size, kernel_size=conv_size)
    # (fla: depthwise nn.Conv1d, weight (C, 1, K), no bias)
    cnt.add("KDA.q/k/v_conv1d", 3 * p * K, kda)
    # A_log = nn.Parameter(... (num_heads) ...); dt_bias = nn.Parameter(torch.empty(projection_size))
    cnt.add("KDA.A_log + dt_bias", nh + p, kda)
    # f_a_proj = nn.Linear(hidden_size, head_dim); f_b_proj = nn.Linear(head_dim, projection_size)
    cnt.add("KDA.f_a_proj + f_b_proj", h * hd + hd * p, kda)
    # b_proj = nn.Linear(hidden_size, num_heads, bias=False)
    cnt.add("KDA.b_proj", h * nh, kda)
    # g_a_proj = nn.Linear(hidden_size, head_dim); g_b_proj = nn.Linear(head_dim, projection_size)
    cnt.add("KDA.g_a_proj + g_b_proj", h * hd + hd * p, kda)
    # o_norm = FusedRMSNormGated(head_dim, ...); o_proj = nn.Linear(projection_size, hidden_size, bias=False)
    cnt.add("KDA.o_norm + o_proj", hd + p * h, kda)
    cnt.add("input_layernorm + post_attention_layernorm", 2 * h, L)
    dense = c["first_k_dense_replace"]
    E, k, mi, ns = c["num_experts"], c["num_experts_per_token"], c["moe_intermediate_size"], c["num_shared_experts"]
    cnt.add("mlp (dense layers)", swiglu_mlp(h, c["intermediate_size"]), dense)
    one = swiglu_mlp(h, mi)
    # block_sparse_moe.experts.N.w1/w2/w3; shared_experts (moe_intermediate_size * num_shared_experts);
    # gate.weight (num_experts, hidden) and gate.e_score_correction_bias (num_experts)
    cnt.add("moe.experts (%d x %d)" % (E, one), E * one, L - dense, k * one)
    cnt.add("moe.shared_experts", swiglu_mlp(h, mi * ns), L - dense)
    cnt.add("moe.gate + e_score_correction_bias", E * h + E, L - dense)
    embed_head(cnt, V, h, c.get("tie_word_embeddings", False))
    cnt.kv.append(("MLA", mla, "%d elements (kv_lora_rank + qk_rope_head_dim)" % (c["kv_lora_rank"] + c["qk_rope_head_dim"])))
    state = nh * hd * hd + 3 * p * (K - 1)
    cnt.kv.append(("KDA", kda, "0 per token; a fixed %d elements per sequence (recurrent %d x %d x %d + 3 convs %d x %d)"
                   % (state, nh, hd, hd, p, K - 1)))
    return cnt


# ---------------------------------------------------------------------------------------------
# Nemotron-H (modular_nemotron_h.py)


def nemotron_h(c, name):
    cnt = Count(name)
    h, V = c["hidden_size"], c["vocab_size"]
    pat = c["hybrid_override_pattern"]
    assert len(pat) == c["num_hidden_layers"]
    nm, na, nf = pat.count("M"), pat.count("*"), pat.count("-")
    # NemotronHBlock: self.norm = NemotronHRMSNorm(config.hidden_size) (one per block)
    cnt.add("block norm", h, len(pat))
    nh, hdm, ng, N, K = c["mamba_num_heads"], c["mamba_head_dim"], c["n_groups"], c["ssm_state_size"], c["conv_kernel"]
    inter = nh * hdm  # self.intermediate_size = config.mamba_num_heads * config.mamba_head_dim
    conv_dim = inter + 2 * ng * N  # Zamba2MambaMixer: conv_dim = intermediate_size + 2 * n_groups * ssm_state_size
    # in_proj = nn.Linear(hidden_size, intermediate_size + conv_dim + num_heads, bias=config.use_bias)
    cnt.add("mamba.in_proj", linear(h, inter + conv_dim + nh, c["use_bias"]), nm)
    # conv1d = nn.Conv1d(conv_dim, conv_dim, bias=config.use_conv_bias, kernel_size=conv_kernel, groups=conv_dim)
    cnt.add("mamba.conv1d", conv_dim * K + (conv_dim if c["use_conv_bias"] else 0), nm)
    # Zamba2MambaMixer: dt_bias, A_log, D = nn.Parameter(torch.ones(num_heads)) ...
    cnt.add("mamba.dt_bias + A_log + D", 3 * nh, nm)
    # norm = Zamba2RMSNormGated(intermediate_size, group_size=intermediate_size // n_groups)
    cnt.add("mamba.norm", inter, nm)
    # out_proj = nn.Linear(intermediate_size, hidden_size, bias=config.use_bias)
    cnt.add("mamba.out_proj", linear(inter, h, c["use_bias"]), nm)
    heads, kv = c["num_attention_heads"], c["num_key_value_heads"]
    hd = c.get("attention_head_dim") or h // heads
    for m, n in gqa_attention(c, h, heads, kv, hd, c.get("attention_bias", False)):
        cnt.add("attention." + m, n, na)
    # NemotronHMLP: up_proj = nn.Linear(hidden, intermediate, bias=mlp_bias); down_proj likewise (relu2, no gate)
    I = c["intermediate_size"]
    cnt.add("mlp (up + down)", linear(h, I, c["mlp_bias"]) + linear(I, h, c["mlp_bias"]), nf)
    embed_head(cnt, V, h, c.get("tie_word_embeddings", False))
    cnt.kv.append(("attention", na, "%d elements (2 x %d x %d)" % (2 * kv * hd, kv, hd)))
    state = nh * hdm * N + conv_dim * (K - 1)
    cnt.kv.append(("mamba2", nm, "0 per token; a fixed %d elements per sequence (ssm %d x %d x %d + conv %d x %d)"
                   % (state, nh, hdm, N, conv_dim, K - 1)))
    return cnt
