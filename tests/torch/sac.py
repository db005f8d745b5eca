"""torchtitan's per-op selective activation checkpointing for the reference models
(models.py, recompute "selective-op"), written for PyTorch 1.13, which has no
torch.utils.checkpoint.create_selective_checkpoint_contexts: a dispatch mode that keeps
the outputs the policy saves in the forward and hands them back in the recompute."""
import torch
from torch.utils._python_dispatch import TorchDispatchMode


class _SaveListMode(TorchDispatchMode):
    """torchtitan's per-op policy (torchtitan/distributed/activation_checkpoint.py,
    SelectiveAC._wrap_block's wrapped_policy) for the ops this model calls: the outputs of
    aten.mm, except every second one (a count of the block's mm calls: the even ones are
    recomputed), and of aten.bmm (in the save list through PyTorch's compute-intensive ops,
    torch/_functorch/partitioners.py get_default_op_list) are MUST_SAVE; every other op is
    recomputed. The forward records them, the recompute takes them back in order instead
    of running the op, as create_selective_checkpoint_contexts' caching and replaying
    modes do (PyTorch 1.13 has no create_selective_checkpoint_contexts)."""

    def __init__(self, cache, replay):
        super().__init__()
        self.cache, self.replay, self.mm, self.at = cache, replay, 0, 0

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        save = False
        if func is torch.ops.aten.mm.default:
            self.mm += 1
            save = self.mm % 2 == 1
        elif func is torch.ops.aten.bmm.default:
            save = True
        if save and self.replay:
            out = self.cache[self.at]
            self.at += 1
            return out
        out = func(*args, **kwargs)
        if save:
            self.cache.append(out)
        return out


class SelectiveOpCheckpointFn(torch.autograd.Function):
    """A block under torchtitan's selective-op checkpointing: the forward runs without a
    graph and keeps the block's input and the outputs its policy saves (save_for_backward,
    so saved_tensors_hooks sees them); the backward runs the block again, those ops
    replayed from what was kept, and back-propagates through it (torch.utils.checkpoint's
    reentrant form, with the policy's cache)."""

    @staticmethod
    def forward(ctx, x, block):
        cache = []
        with _SaveListMode(cache, replay=False):
            out = block(x)
        ctx.block = block
        # the recompute runs under the forward's autocast, as torch.utils.checkpoint's does
        ctx.amp = (torch.is_autocast_cpu_enabled(), torch.get_autocast_cpu_dtype())
        ctx.save_for_backward(x, *cache)
        return out

    @staticmethod
    def backward(ctx, g):
        x, *cache = ctx.saved_tensors
        x = x.detach().requires_grad_(True)
        with torch.enable_grad(), torch.autocast("cpu", dtype=ctx.amp[1], enabled=ctx.amp[0]):
            with _SaveListMode(list(cache), replay=True):
                out = ctx.block(x)
            torch.autograd.backward(out, g)
        return x.grad, None
