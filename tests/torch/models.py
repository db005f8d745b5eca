"""Reference models in plain PyTorch, written the way the code people train with writes them.

- GPT2: nanoGPT's model.py (Karpathy): learned positions, LayerNorm (nn.LayerNorm, one
  native kernel), plain GELU MLP (nn.GELU), biases, tied embeddings, dropout on the
  embeddings, the attention probabilities and both residual branches. With native LayerNorm,
  GELU and softmax this is the block Korthikanti et al. 2022 count: napkin's `fused` profile.
- Llama: Hugging Face transformers' modeling_llama.py (4.3x-4.4x), eager attention:
  LlamaRMSNorm in Python (upcast to fp32, variance, rsqrt, cast back, times weight), RoPE
  by rotate_half, GQA by repeat_kv, softmax(dtype=torch.float32).to(q.dtype), SwiGLU as
  down(silu(gate(x)) * up(x)), attention dropout only (config.attention_dropout): napkin's
  `eager` profile.
- The loss: nanoGPT's F.cross_entropy on the logits as they are (GPT2), Hugging Face's
  ForCausalLMLoss (transformers' loss/loss_utils.py, >= 4.46) for the Llama: the logits
  upcast to fp32 first (hf_causal_lm_loss); with c["loss"] == "chunked" the LM head and the
  loss a chunk of tokens at a time (ChunkedLinearCrossEntropyFn, Liger Kernel's algorithm).
- recompute "selective-op": torchtitan's per-op selective checkpointing (every second mm's
  output and the batched matmuls' kept, the rest recomputed: SelectiveOpCheckpointFn);
  "full" with every = k: a checkpoint on every k-th block (torchtitan's selective_ac_option k).
- Llama with fused=True: the same model through autograd Functions that keep exactly what
  the fused kernels of Megatron-LM / Apex / Transformer Engine keep for the backward (the
  installed PyTorch 1.13 has no fused RMSNorm, SwiGLU or scaled_dot_product_attention):
  RMSNorm keeps its input and 1/rms (Apex FusedRMSNorm), SwiGLU keeps gate and up
  (Megatron's bias_swiglu), softmax keeps its 16-bit output (Megatron's
  FusedScaleMaskSoftmax). GQA through repeat_kv stays (Megatron also expands K and V).

Where PyTorch 1.13 on the CPU differs from what the code does on CUDA, the model does
what CUDA does, and says so:
- 1.13's mean(dim) keeps its input for the backward; PyTorch >= 2.0 keeps only sizes.
  mean_last() is sum(dim) / n, which keeps nothing, as mean does today.
- CUDA autocast runs softmax in fp32 (its fp32 op list); 1.13's CPU autocast runs it in
  bf16. softmax_autocast() casts to fp32 when CPU autocast is on, as CUDA would.
- Dropout masks (CPU F.dropout keeps a mask in the input's dtype, CUDA's native_dropout a
  1-byte mask) are not changed here: measure.py counts them and converts explicitly.
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.utils.checkpoint

from sac import SelectiveOpCheckpointFn


class Marks:
    """Where the forward is: measure.py sets .scope_fn to learn which layer saved what."""

    def __init__(self):
        self.scope_fn = None

    def __call__(self, scope):
        if self.scope_fn is not None:
            self.scope_fn(scope)


def mean_last(x):
    # PyTorch >= 2.0: mean's backward keeps only the sizes (1.13 kept the input)
    return x.sum(-1, keepdim=True) * (1.0 / x.shape[-1])


def softmax_autocast(x, dim=-1):
    # CUDA autocast: softmax is on the fp32 list; 1.13 CPU autocast runs it in bf16
    if torch.is_autocast_cpu_enabled():
        x = x.float()
    return F.softmax(x, dim=dim)


def dropout(x, p, training, marks):
    if p == 0.0 or not training:
        return x
    marks("dropout-begin")
    y = F.dropout(x, p, training)
    marks("dropout-end")
    return y


# ---------------------------------------------------------------- GPT-2 (nanoGPT)

class GPT2Attention(nn.Module):
    def __init__(self, c, marks):
        super().__init__()
        d = c["hidden"]
        self.c_attn = nn.Linear(d, 3 * d)
        self.c_proj = nn.Linear(d, d)
        self.nh, self.p, self.marks = c["heads"], c["dropout"], marks
        # True above the diagonal: sliced, never rebuilt, so what masked_fill keeps is a buffer
        # (Hugging Face's GPT-2 slices its causal buffer the same way)
        self.register_buffer("masked", torch.ones(c["seq"], c["seq"], dtype=torch.bool).triu(1)
                             .view(1, 1, c["seq"], c["seq"]))

    def forward(self, x):
        B, T, C = x.size()
        q, k, v = self.c_attn(x).split(C, dim=2)
        k = k.view(B, T, self.nh, C // self.nh).transpose(1, 2)
        q = q.view(B, T, self.nh, C // self.nh).transpose(1, 2)
        v = v.view(B, T, self.nh, C // self.nh).transpose(1, 2)
        att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(k.size(-1)))
        att = att.masked_fill(self.masked[:, :, :T, :T], float("-inf"))
        att = softmax_autocast(att, dim=-1)
        att = dropout(att, self.p, self.training, self.marks)
        y = att @ v
        y = y.transpose(1, 2).contiguous().view(B, T, C)
        return dropout(self.c_proj(y), self.p, self.training, self.marks)


class GPT2MLP(nn.Module):
    def __init__(self, c, marks):
        super().__init__()
        self.c_fc = nn.Linear(c["hidden"], c["ffn"])
        self.gelu = nn.GELU()
        self.c_proj = nn.Linear(c["ffn"], c["hidden"])
        self.p, self.marks = c["dropout"], marks

    def forward(self, x):
        return dropout(self.c_proj(self.gelu(self.c_fc(x))), self.p, self.training, self.marks)


class GPT2Block(nn.Module):
    def __init__(self, c, marks):
        super().__init__()
        self.ln_1 = nn.LayerNorm(c["hidden"])
        self.attn = GPT2Attention(c, marks)
        self.ln_2 = nn.LayerNorm(c["hidden"])
        self.mlp = GPT2MLP(c, marks)

    def forward(self, x):
        x = x + self.attn(self.ln_1(x))
        x = x + self.mlp(self.ln_2(x))
        return x


class GPT2(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.marks = Marks()
        self.c = c
        self.wte = nn.Embedding(c["vocab"], c["hidden"])
        self.wpe = nn.Embedding(c["seq"], c["hidden"])
        self.h = nn.ModuleList([GPT2Block(c, self.marks) for _ in range(c["layers"])])
        self.ln_f = nn.LayerNorm(c["hidden"])
        self.lm_head = nn.Linear(c["hidden"], c["vocab"], bias=False)
        self.wte.weight = self.lm_head.weight  # tied

    def forward(self, idx):
        self.marks("embed")
        pos = torch.arange(0, idx.size(1), dtype=torch.long)
        x = dropout(self.wte(idx) + self.wpe(pos), self.c["dropout"], self.training, self.marks)
        return self.run_layers(x)

    def run_layers(self, x):
        for i, block in enumerate(self.h):
            self.marks("layer%d" % i)
            x = layer_call(block, x, self.c["recompute"])
        self.marks("head")
        return self.lm_head(self.ln_f(x))


def chunk_forward(layers, x):
    for layer in layers:
        x = layer(x)
    return x


def layer_call(block, x, recompute, i=0, every=1):
    # "selective" is handled inside the attention (fused models only)
    if recompute == "full" and (i + 1) % every == 0:
        # one checkpoint per layer (Megatron's "full" uniform method, HF's gradient_checkpointing);
        # every > 1: torchtitan's selective_ac_option k, a checkpoint on every k-th block
        # (_apply_layer_sac: its 1-based block count % k == 0), the others kept whole
        return torch.utils.checkpoint.checkpoint(block, x)
    if recompute == "selective-op":
        return SelectiveOpCheckpointFn.apply(x, block)
    return block(x)


# ---------------------------------------------------------------- Llama (Hugging Face, eager)

class LlamaRMSNorm(nn.Module):
    def __init__(self, d, eps=1e-6):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(d))
        self.eps = eps

    def forward(self, hidden_states):
        input_dtype = hidden_states.dtype
        hidden_states = hidden_states.to(torch.float32)
        variance = mean_last(hidden_states.pow(2))
        hidden_states = hidden_states * torch.rsqrt(variance + self.eps)
        return self.weight * hidden_states.to(input_dtype)


class FusedRMSNormFn(torch.autograd.Function):
    """What Apex's FusedRMSNorm / TE's RMSNorm keep: the input and 1/rms (fp32, per row)."""

    @staticmethod
    def forward(ctx, x, weight, eps):
        xf = x.float()
        rstd = torch.rsqrt(xf.pow(2).mean(-1, keepdim=True) + eps)
        ctx.save_for_backward(x, weight, rstd)
        return (weight * (xf * rstd).to(x.dtype)).to(x.dtype)

    @staticmethod
    def backward(ctx, g):
        x, weight, rstd = ctx.saved_tensors
        d = x.shape[-1]
        xhat = x.to(torch.float32, copy=True).mul_(rstd)
        dw = (g.float() * xhat).reshape(-1, d).sum(0)
        wg = g.to(torch.float32, copy=True).mul_(weight.float())
        dot = (wg.unsqueeze(-2) @ xhat.unsqueeze(-1)).squeeze(-1)
        dx = wg.sub_(xhat.mul_(dot / d)).mul_(rstd)
        del xhat
        return dx.to(x.dtype), dw.to(weight.dtype), None


class FusedRMSNorm(LlamaRMSNorm):
    def forward(self, hidden_states):
        return FusedRMSNormFn.apply(hidden_states, self.weight, self.eps)


class FusedSwiGLUFn(torch.autograd.Function):
    """Megatron's bias_swiglu: keeps gate and up, recomputes silu(gate) in the backward."""

    @staticmethod
    def forward(ctx, gate, up):
        ctx.save_for_backward(gate, up)
        return F.silu(gate) * up

    @staticmethod
    def backward(ctx, g):
        # in the input's dtype, in place, as a fused kernel keeps its temporaries in
        # registers: what it hands back is d(gate) and d(up), one buffer of scratch
        gate, up = ctx.saved_tensors
        sig = torch.sigmoid(gate)
        dgate = (1 - sig).mul_(gate).add_(1).mul_(sig).mul_(up).mul_(g)
        dup = sig.mul_(gate).mul_(g)
        return dgate, dup


class FusedAttentionFn(torch.autograd.Function):
    """Core attention as fused kernels run it (Megatron's FusedScaleMaskSoftmax between
    the two batched matmuls, with K and V at their own head count as Transformer Engine
    and flash-attn take them): keeps Q, K, V and the softmax output in the input's dtype."""

    @staticmethod
    def forward(ctx, q, k, v, mask, scale):
        n_rep = q.size(1) // k.size(1)
        ke, ve = repeat_kv(k, n_rep), repeat_kv(v, n_rep)
        # the scores, scaled and masked in place, then the softmax: two s x s buffers at
        # most, as the fused kernel's input and output
        s = torch.matmul(q, ke.transpose(2, 3))
        s.mul_(scale).masked_fill_(mask, float("-inf"))
        p = F.softmax(s, dim=-1)
        del s
        ctx.save_for_backward(q, k, v, p)
        ctx.scale, ctx.n_rep = scale, n_rep
        return torch.matmul(p, ve)

    @staticmethod
    def backward(ctx, g):
        # as the fused kernels work: the only s x s buffer is dP = dO V^T, which the
        # softmax backward (Megatron's scaled_masked_softmax_backward) turns into dS in
        # place; its row sums come from dO . O (FlashAttention's D), O recomputed small
        q, k, v, p = ctx.saved_tensors
        n_rep, scale = ctx.n_rep, ctx.scale
        ke, ve = repeat_kv(k, n_rep), repeat_kv(v, n_rep)
        rows = (g * torch.matmul(p, ve)).sum(-1, keepdim=True)
        ds = torch.matmul(g, ve.transpose(2, 3))
        ds.sub_(rows).mul_(p).mul_(scale)
        dq = torch.matmul(ds, ke)
        dk = torch.matmul(ds.transpose(2, 3), q)
        del ds
        dv = torch.matmul(p.transpose(2, 3), g)
        b, h, s, d = k.shape
        dk = dk.view(b, h, n_rep, s, d).sum(2)
        dv = dv.view(b, h, n_rep, s, d).sum(2)
        return dq, dk, dv, None, None


class FusedCrossEntropyFn(torch.autograd.Function):
    """Megatron's cross-entropy (vocab_parallel_cross_entropy on fp32 logits): keeps the
    fp32 softmax and turns it into the gradient in place in the backward."""

    @staticmethod
    def forward(ctx, logits, target):
        # one fp32 buffer, worked in place (Megatron subtracts the max and exponentiates
        # in place on logits.float())
        sm = logits.float()
        if sm.data_ptr() == logits.data_ptr():
            sm = sm.clone()  # fp32 logits: a buffer of its own (the input is not ours to change)
        sm.sub_(sm.max(-1, keepdim=True)[0])
        sm.exp_()
        z = sm.sum(-1, keepdim=True)
        sm.div_(z)
        loss = -(sm.gather(-1, target[:, None]).log()).mean()
        ctx.save_for_backward(sm, target)
        ctx.dtype = logits.dtype
        return loss

    @staticmethod
    def backward(ctx, g):
        sm, target = ctx.saved_tensors
        sm.scatter_add_(-1, target[:, None], torch.full_like(target[:, None], -1, dtype=sm.dtype))
        sm.mul_(g / target.numel())
        return sm.to(ctx.dtype), None


def rotate_half(x):
    x1 = x[..., : x.shape[-1] // 2]
    x2 = x[..., x.shape[-1] // 2:]
    return torch.cat((-x2, x1), dim=-1)


def repeat_kv(hidden_states, n_rep):
    batch, num_key_value_heads, slen, head_dim = hidden_states.shape
    if n_rep == 1:
        return hidden_states
    hidden_states = hidden_states[:, :, None, :, :].expand(batch, num_key_value_heads, n_rep, slen, head_dim)
    return hidden_states.reshape(batch, num_key_value_heads * n_rep, slen, head_dim)


class LlamaRotaryEmbedding(nn.Module):
    def __init__(self, dim, max_pos, base=10000.0):
        super().__init__()
        inv_freq = 1.0 / (base ** (torch.arange(0, dim, 2).float() / dim))
        t = torch.arange(max_pos, dtype=torch.float32)
        freqs = torch.outer(t, inv_freq)
        emb = torch.cat((freqs, freqs), dim=-1)
        self.register_buffer("cos_cached", emb.cos(), persistent=False)
        self.register_buffer("sin_cached", emb.sin(), persistent=False)

    def forward(self, x, seq_len):
        return self.cos_cached[:seq_len].to(dtype=x.dtype), self.sin_cached[:seq_len].to(dtype=x.dtype)


class LlamaAttention(nn.Module):
    def __init__(self, c, marks):
        super().__init__()
        d, self.nh, self.nkv, self.dh = c["hidden"], c["heads"], c["kv_heads"], c["head_dim"]
        self.q_proj = nn.Linear(d, self.nh * self.dh, bias=False)
        self.k_proj = nn.Linear(d, self.nkv * self.dh, bias=False)
        self.v_proj = nn.Linear(d, self.nkv * self.dh, bias=False)
        self.o_proj = nn.Linear(self.nh * self.dh, d, bias=False)
        self.rotary_emb = LlamaRotaryEmbedding(self.dh, c["seq"])
        self.p, self.fused, self.marks = c["dropout"], c["fused"], marks
        self.recompute = c["recompute"]

    def forward(self, hidden_states, attention_mask):
        bsz, q_len, _ = hidden_states.size()
        q = self.q_proj(hidden_states).view(bsz, q_len, self.nh, self.dh).transpose(1, 2)
        k = self.k_proj(hidden_states).view(bsz, q_len, self.nkv, self.dh).transpose(1, 2)
        v = self.v_proj(hidden_states).view(bsz, q_len, self.nkv, self.dh).transpose(1, 2)
        cos, sin = self.rotary_emb(v, seq_len=q_len)
        q = (q * cos) + (rotate_half(q) * sin)
        k = (k * cos) + (rotate_half(k) * sin)
        if self.fused and self.recompute == "selective":
            # Megatron's selective recomputation: the core attention checkpointed, its
            # inputs kept, the s x s probabilities recomputed in the backward
            mask = self.masked
            out = torch.utils.checkpoint.checkpoint(
                lambda q_, k_, v_: FusedAttentionFn.apply(q_, k_, v_, mask, 1.0 / math.sqrt(self.dh)), q, k, v)
        elif self.fused:
            out = FusedAttentionFn.apply(q, k, v, self.masked, 1.0 / math.sqrt(self.dh))
        else:
            k = repeat_kv(k, self.nh // self.nkv)
            v = repeat_kv(v, self.nh // self.nkv)
            attn = torch.matmul(q, k.transpose(2, 3)) / math.sqrt(self.dh)
            attn = attn + attention_mask
            attn = nn.functional.softmax(attn, dim=-1, dtype=torch.float32).to(q.dtype)
            attn = dropout(attn, self.p, self.training, self.marks)
            out = torch.matmul(attn, v)
        out = out.transpose(1, 2).contiguous().reshape(bsz, q_len, self.nh * self.dh)
        return self.o_proj(out)


class LlamaMLP(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.gate_proj = nn.Linear(c["hidden"], c["ffn"], bias=False)
        self.up_proj = nn.Linear(c["hidden"], c["ffn"], bias=False)
        self.down_proj = nn.Linear(c["ffn"], c["hidden"], bias=False)
        self.act_fn = nn.SiLU()
        self.fused = c["fused"]

    def forward(self, x):
        if self.fused:
            return self.down_proj(FusedSwiGLUFn.apply(self.gate_proj(x), self.up_proj(x)))
        return self.down_proj(self.act_fn(self.gate_proj(x)) * self.up_proj(x))


class LlamaDecoderLayer(nn.Module):
    def __init__(self, c, marks):
        super().__init__()
        norm = FusedRMSNorm if c["fused"] else LlamaRMSNorm
        self.self_attn = LlamaAttention(c, marks)
        self.mlp = LlamaMLP(c)
        self.input_layernorm = norm(c["hidden"])
        self.post_attention_layernorm = norm(c["hidden"])
        self.mask = None

    def forward(self, hidden_states):
        residual = hidden_states
        hidden_states = self.input_layernorm(hidden_states)
        hidden_states = self.self_attn(hidden_states, self.mask)
        hidden_states = residual + hidden_states
        residual = hidden_states
        hidden_states = self.post_attention_layernorm(hidden_states)
        hidden_states = self.mlp(hidden_states)
        return residual + hidden_states


class Llama(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.marks = Marks()
        self.c = c
        self.embed_tokens = nn.Embedding(c["vocab"], c["hidden"])
        self.layers = nn.ModuleList([LlamaDecoderLayer(c, self.marks) for _ in range(c["layers"])])
        self.norm = (FusedRMSNorm if c["fused"] else LlamaRMSNorm)(c["hidden"])
        self.lm_head = nn.Linear(c["hidden"], c["vocab"], bias=False)
        # Hugging Face's _prepare_4d_causal_attention_mask: an s x s additive mask in the
        # embeddings' dtype, expanded to [b, 1, s, s]. HF builds it in every forward; here it
        # is a buffer, so measure.py counts it with the model's fixed bytes (napkin leaves
        # it out: s^2 numbers, not per layer)
        self.register_buffer("causal", torch.full((c["seq"], c["seq"]), torch.finfo(torch.float32).min)
                             .triu(1)[None, None], persistent=False)
        # the fused kernels take one boolean mask, shared by every layer (Megatron's
        # attention_mask), a buffer for the same reason
        self.register_buffer("masked", torch.ones(c["seq"], c["seq"], dtype=torch.bool).triu(1)[None, None],
                             persistent=False)

    def forward(self, idx):
        self.marks("embed")
        x = self.embed_tokens(idx)
        s = idx.size(1)
        mask = self.causal[:, :, :s, :s].expand(idx.size(0), 1, s, s)
        for layer in self.layers:
            layer.mask = mask
            layer.self_attn.masked = self.masked[:, :, :s, :s]
        chunk = self.c.get("uniform", 0)
        for i, layer in enumerate(self.layers):
            self.marks("layer%d" % i)
            if chunk and i % chunk == 0:
                # Megatron's --recompute-method uniform --recompute-num-layers N: one checkpoint
                # at the input of each chunk of N layers, the chunk recomputed whole
                run = self.layers[i:i + chunk]
                x = torch.utils.checkpoint.checkpoint(lambda h, run=run: chunk_forward(run, h), x)
            elif not chunk:
                x = layer_call(layer, x, self.c["recompute"], i, self.c.get("every", 1))
        self.marks("head")
        if self.c.get("loss") == "chunked":
            return self.norm(x)  # the LM head runs inside the chunked loss
        return self.lm_head(self.norm(x))


def hf_causal_lm_loss(logits, labels, vocab_size, ignore_index=-100):
    """Hugging Face's ForCausalLMLoss (transformers/loss/loss_utils.py, 4.46 on) as it is
    written: the logits upcast to fp32 ("Upcast to float if we need to compute the loss to
    avoid potential precision issues"), the labels shifted by padding, then
    nn.functional.cross_entropy. The model returns its own 16-bit logits, which the loop
    keeps (CausalLMOutputWithPast.logits)."""
    logits = logits.float()
    labels = F.pad(labels, (0, 1), value=ignore_index)
    shift_labels = labels[..., 1:].contiguous()
    logits = logits.view(-1, vocab_size)
    shift_labels = shift_labels.view(-1)
    return F.cross_entropy(logits, shift_labels, ignore_index=ignore_index, reduction="mean")


def chunk_tokens(bt, hidden, vocab):
    """Liger Kernel's chunk size (fused_linear_cross_entropy.py,
    fused_linear_cross_entropy_forward): inc_factor = cdiv(V, H), chunk_size =
    next_power_of_2(cdiv(BT, inc_factor)), so that a chunk's logits are about as large as
    the hidden states."""
    inc = -(-vocab // hidden)
    n = -(-bt // inc)
    return min(bt, 1 << (n - 1).bit_length())


class ChunkedLinearCrossEntropyFn(torch.autograd.Function):
    """The LM head and the cross-entropy a chunk of tokens at a time, no full-sequence
    logits: Liger Kernel's LigerFusedLinearCrossEntropyFunction (Hsu et al. 2024, "Liger
    Kernel: Efficient Triton Kernels for LLM Training", §3.3; its
    fused_linear_cross_entropy_forward), written here in PyTorch. The forward computes, for
    each chunk, the logits, their softmax in fp32 (Liger's Triton kernel upcasts to fp32;
    here .float() makes that one chunk's fp32 buffer), the loss and the logits' gradient,
    and from it the chunk's rows of the hidden states' gradient and its share of the head
    weight's gradient; the backward only scales the two by the loss's gradient. What it
    keeps from the forward to the backward: grad_input (the hidden states' shape and
    dtype), which Liger saves with save_for_backward, and grad_weight (the weight's shape
    and dtype: the head's gradient, made in the forward), kept here as an attribute of ctx
    so that the harness counts it as the gradient it is, not as an activation."""

    @staticmethod
    def forward(ctx, h, weight, target):
        bt, hidden = h.shape
        vocab = weight.shape[0]
        chunk = chunk_tokens(bt, hidden, vocab)
        grad_input = torch.zeros_like(h)
        grad_weight = torch.zeros_like(weight) if weight.requires_grad else None
        total = torch.zeros((), dtype=torch.float32)
        for a in range(0, bt, chunk):
            hc, tc = h[a:a + chunk], target[a:a + chunk]
            lc = hc @ weight.t()
            lc = lc.float() if lc.dtype != torch.float32 else lc  # one chunk's fp32 logits
            lc.sub_(lc.max(-1, keepdim=True)[0])
            lc.exp_()
            z = lc.sum(-1, keepdim=True)
            lc.div_(z)  # softmax, in place
            total -= lc.gather(-1, tc[:, None]).log().sum()
            lc.scatter_add_(-1, tc[:, None], torch.full_like(tc[:, None], -1, dtype=lc.dtype))
            lc.mul_(1.0 / bt)  # d(mean loss)/d(logits), in place
            gc = lc.to(h.dtype) if h.dtype != torch.float32 else lc
            del lc
            grad_input[a:a + chunk] = gc @ weight
            if grad_weight is not None:
                grad_weight.addmm_(gc.t(), hc)
            del gc
        ctx.save_for_backward(grad_input)
        ctx.grad_weight = grad_weight
        return total / bt

    @staticmethod
    def backward(ctx, g):
        (grad_input,) = ctx.saved_tensors
        grad_weight, ctx.grad_weight = ctx.grad_weight, None
        if g.item() != 1.0:  # Liger: element_mul in place, skipped when the loss is the root
            grad_input.mul_(g)
            if grad_weight is not None:
                grad_weight.mul_(g)
        return grad_input, grad_weight, None


class LoRALinear(nn.Module):
    """Hugging Face PEFT's LoRA layer as lora.Linear.forward computes it:
    base(x) + B(A(dropout(x))) · (alpha / r), the base frozen; B starts at zero in PEFT,
    random here so that its gradient flows as it does after the first step."""

    def __init__(self, base, r, p):
        super().__init__()
        self.base = base
        self.lora_A = nn.Linear(base.in_features, r, bias=False)
        self.lora_B = nn.Linear(r, base.out_features, bias=False)
        nn.init.normal_(self.lora_B.weight, std=0.02)
        self.p = p
        self.scaling = 2.0

    def forward(self, x):
        h = nn.functional.dropout(x, self.p, self.training) if self.p > 0 else x
        return self.base(x) + self.lora_B(self.lora_A(h)) * self.scaling


def add_lora(model, c):
    """Every base parameter frozen (PEFT's get_peft_model), adapters on c["lora"]'s linears."""
    for prm in model.parameters():
        prm.requires_grad_(False)
    for mod in list(model.modules()):
        for name in c["lora"]:
            if isinstance(getattr(mod, name, None), nn.Linear):
                setattr(mod, name, LoRALinear(getattr(mod, name), c["lora_rank"], c["lora_dropout"]))
    return model


def build(c):
    m = GPT2(c) if c["arch"] == "gpt2" else Llama(c)
    return add_lora(m, c) if c.get("lora") else m
