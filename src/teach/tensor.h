/*
 * teach/tensor: a tensor inspector, pure C (no I/O, no allocation).
 *
 * A tensor as PyTorch keeps it: a storage, an offset into it, a shape and strides (in
 * elements), a dtype. Shapes have named dimensions ("batch=8 seq=4096 heads=32
 * head_dim=128", einops-style). The operations follow PyTorch's documented rules:
 *
 *  - transpose/permute swap sizes and strides (no copy);
 *  - view succeeds only when every merged run of dimensions d..d+k satisfies
 *    stride[i] = stride[i+1]·size[i+1] (size-1 dimensions ignored), and says why not
 *    (torch.Tensor.view; the algorithm is ATen's computeStride);
 *  - reshape is a view when one exists, otherwise a contiguous copy;
 *  - narrow/slice/select move the storage offset and scale strides (no copy);
 *  - expand gives new or size-1 dimensions stride 0 (no copy);
 *  - contiguous() copies only when the tensor is not contiguous (is_contiguous ignores
 *    the strides of size-1 dimensions; an empty tensor is contiguous).
 *
 * Also "where the scenario's big tensors come from": the weight matrices, one layer's
 * activations, the KV cache and the logits of an engine scenario, each with its named
 * shape, dtype and bytes, consistent with the engine's memory figures.
 *
 * Every struct is caller-owned plain data.
 */
#ifndef NAPKIN_TEACH_TENSOR_H
#define NAPKIN_TEACH_TENSOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine.h"
#include "util.h"

#define TEACH_MAX_DIMS 8
#define TEACH_DIM_NAME_MAX 24

/* A tensor's device: PyTorch makes a tensor on the CPU unless told otherwise
 * (torch.get_default_device() is "cpu"); .to("cuda") copies it to the GPU. */
enum teach_device { TEACH_DEV_CPU, TEACH_DEV_CUDA };

struct teach_tensor {
	int ndim;
	int64_t size[TEACH_MAX_DIMS];
	int64_t stride[TEACH_MAX_DIMS];          /* in elements; 0 for an expanded dimension */
	char name[TEACH_MAX_DIMS][TEACH_DIM_NAME_MAX]; /* "" when unnamed */
	int64_t offset;                          /* storage offset, in elements */
	int64_t storage;                         /* elements in the storage the tensor views */
	enum engine_dtype dtype;
	enum teach_device device;                /* where the storage lives (torch.Tensor.device) */
};

/* What kind of operation it was: a change of layout, a matmul (its FLOPs), a copy to
 * another device (over the host link). */
enum teach_op_kind { TEACH_OPK_LAYOUT, TEACH_OPK_MATMUL, TEACH_OPK_TO_DEVICE, TEACH_OPK_INIT };

/* What an operation did to memory. */
struct teach_op_result {
	bool copied;          /* a new storage was allocated and filled */
	double bytes_read;    /* copy: every element read once; matmul: A and B read once */
	double bytes_written; /* copy: every element written once; matmul: C written once */
	enum teach_op_kind kind;
	double flops;         /* matmul: 2 per multiply-add, 2·B·M·K·N */
	char note[512];       /* one sentence: what happened and why (init: its table of variances) */
};

/* A contiguous tensor of ndim dimensions (sizes >= 0; names may be NULL). Returns 0 or
 * NAPKIN_EINVAL / NAPKIN_ELIMIT. */
int teach_tensor_make(struct teach_tensor *t, enum engine_dtype dt, int ndim, const int64_t *sizes,
		      const char *const *names, struct napkin_err *err);
/* Parses "batch=8 seq=4096 heads=32 head_dim=128", "[8, 4096]" or "8x4096" (separators:
 * spaces, commas, 'x', '×'; sizes take k = 1024, M = 2^20 as sequence lengths do) into a
 * contiguous tensor. */
int teach_tensor_parse(const char *shape, enum engine_dtype dt, struct teach_tensor *t, struct napkin_err *err);

int64_t teach_tensor_numel(const struct teach_tensor *t);
double teach_tensor_bytes(const struct teach_tensor *t);        /* numel × bytes per element */
double teach_tensor_storage_bytes(const struct teach_tensor *t); /* storage × bytes per element */
bool teach_tensor_is_contiguous(const struct teach_tensor *t);
/* Dimension by name or index ("seq", "1", "-1"). Returns 0 or an error naming the dims. */
int teach_tensor_dim(const struct teach_tensor *t, const char *name_or_index, int *dim, struct napkin_err *err);

/* "[batch=8, seq=4096, hidden=4096]" (unnamed dims print the size alone). */
void teach_tensor_format_shape(const struct teach_tensor *t, char *buf, size_t n);
/* "(16777216, 4096, 1)" */
void teach_tensor_format_strides(const struct teach_tensor *t, char *buf, size_t n);

/* The operations. Each writes *out (which may alias t) only on success. */
int teach_tensor_transpose(const struct teach_tensor *t, int a, int b, struct teach_tensor *out,
			   struct napkin_err *err);
int teach_tensor_permute(const struct teach_tensor *t, const int *order, int n, struct teach_tensor *out,
			 struct napkin_err *err);
/* New shape of ndim sizes (one may be -1, inferred); names may be NULL or hold NULLs. On
 * failure err says which dimensions cannot be merged and why. */
int teach_tensor_view(const struct teach_tensor *t, int ndim, const int64_t *sizes, const char *const *names,
		      struct teach_tensor *out, struct napkin_err *err);
/* view when possible, else a contiguous copy (res says which, and the bytes moved). */
int teach_tensor_reshape(const struct teach_tensor *t, int ndim, const int64_t *sizes, const char *const *names,
			 struct teach_tensor *out, struct teach_op_result *res, struct napkin_err *err);
int teach_tensor_narrow(const struct teach_tensor *t, int dim, int64_t start, int64_t length,
			struct teach_tensor *out, struct napkin_err *err);
/* Python slicing t[..., start:stop:step, ...] on one dimension (step > 0; start and stop
 * are clamped, negative ones count from the end as in Python). */
int teach_tensor_slice(const struct teach_tensor *t, int dim, int64_t start, int64_t stop, int64_t step,
		       struct teach_tensor *out, struct napkin_err *err);
/* t.select(dim, index): drops the dimension. */
int teach_tensor_select(const struct teach_tensor *t, int dim, int64_t index, struct teach_tensor *out,
			struct napkin_err *err);
/* t.expand(sizes): -1 keeps a size; size-1 and new leading dimensions get stride 0. */
int teach_tensor_expand(const struct teach_tensor *t, int ndim, const int64_t *sizes, struct teach_tensor *out,
			struct napkin_err *err);
/* t.contiguous(): itself when contiguous, else a copy (read + write every element). */
void teach_tensor_contiguous(const struct teach_tensor *t, struct teach_tensor *out, struct teach_op_result *res);

/* One operation as text, as a student types it:
 *   transpose(seq, heads)   t(0, 1) is also accepted as transpose
 *   permute(batch, heads, seq, head_dim)
 *   view(batch, seq, hidden=4096)   reshape(-1, 128)   (a bare name keeps that dim's size)
 *   narrow(seq, 0, 1024)    slice(seq, 0, 4096, 2)    select(batch, 0)
 *   expand(4, -1, -1)       contiguous()
 *   matmul(4096, 11008)     @ [hidden, ffn=11008]   (t @ other: teach_tensor_matmul)
 *   to(cuda)  to("cpu")  cuda()  cpu()  to(fp8)     (a copy to a device or a dtype)
 *   init(xavier)  init(normal, 32)   (a weight [out, in] initialised: the activations'
 *                                     variance through that many such layers, initvar.h)
 * res (may be NULL) says whether it copied and how many bytes that moved. */
int teach_tensor_op(const struct teach_tensor *t, const char *op, struct teach_tensor *out,
		    struct teach_op_result *res, struct napkin_err *err);

/* torch.matmul(t, other) with other of shape `other` ("[K, N]", "4096x4096", "[B, K, N]";
 * names as in shapes): t is [..., M, K], the result [..., M, N] (the batch dimensions
 * broadcast as torch.matmul's do), contiguous, in t's dtype and on t's device. res->flops
 * is 2·(batch)·M·K·N (one multiply and one add per term of each output), bytes_read A's
 * and B's elements once, bytes_written C's: the least a matmul moves through HBM. */
int teach_tensor_matmul(const struct teach_tensor *t, const char *other, struct teach_tensor *out,
			struct teach_op_result *res, struct napkin_err *err);
/* "A rank-3 tensor on cuda:0": ndim is the rank (torch.Tensor.dim()). */
const char *teach_device_name(enum teach_device d);
/* Whether t is non-overlapping and dense (its elements fill a block of storage with no
 * gaps and no repeats, in some order of dimensions): .to() keeps such a tensor's strides
 * (memory_format=torch.preserve_format) and makes any other one contiguous. */
bool teach_tensor_is_dense(const struct teach_tensor *t);

/* "1.374e11": v to `digits` significant digits as the chapter writes numbers ("%g" without
 * the exponent's '+' and leading zeros) */
void teach_fmt_sci(double v, int digits, char *buf, size_t n);

/* One operation placed on the scenario's GPU, as the roofline pane places its points. */
struct teach_roof {
	double flops, bytes;
	double intensity;     /* FLOP/B */
	double peak;          /* FLOP/s at the dtype */
	double bandwidth;     /* HBM bytes/s */
	double ridge;         /* peak ÷ bandwidth, FLOP/B */
	double attainable;    /* min(peak, intensity × bandwidth) */
	double seconds;       /* at the roofline: max(flops ÷ peak, bytes ÷ bandwidth) */
	bool memory_bound;
};
/* flops and bytes in dtype dt on sc's GPU: the peak is the roofline pane's (r->roofline)
 * when dt is its dtype, else the GPU's peak at dt (engine_gpu_peak). Returns false when
 * the GPU has no peak at dt (out then holds the bytes' time alone). */
bool teach_roof_place(const struct engine_scenario *sc, const struct engine_result *r, enum engine_dtype dt,
		      double flops, double bytes, struct teach_roof *out);
/* A host-to-device copy of `bytes` over the host link, at the rates the data-loading
 * figures use (r->data: pinned, and pageable staged through a pinned buffer). */
void teach_h2d_seconds(const struct engine_result *r, double bytes, double *pinned_s, double *pageable_s);

/* ------------------------------------------------------------ the scenario's tensors */

enum teach_tensor_role {
	TEACH_ROLE_WEIGHT,
	TEACH_ROLE_ACTIVATION, /* one layer, one micro-batch, kept for the backward pass */
	TEACH_ROLE_KV_CACHE,
	TEACH_ROLE_LOGITS,
	TEACH_ROLE_COUNT,
};

struct teach_big_tensor {
	char name[48];        /* "q_proj.weight" (Hugging Face Llama names) */
	const char *what;     /* one line */
	enum teach_tensor_role role;
	struct teach_tensor t;
	double count;         /* how many such tensors (layers × experts) */
	double bytes;         /* one of them */
	double total_bytes;   /* count × bytes */
};

#define TEACH_BIG_TENSORS_MAX 64

/* Lists the whole model's tensors (before any TP/PP/ZeRO sharding) in the dtypes of r
 * (from engine_compute/engine_evaluate on sc): in training the weights, one layer's
 * activations for one micro-batch and the logits; in inference the weights, the KV cache
 * and the logits. With tp = pp = 1 their totals equal the engine's memory.weights (no
 * ZeRO-3), memory.activations_per_layer, memory.kv_cache and memory.logits. Returns the
 * count written (at most max). */
size_t teach_scenario_tensors(const struct engine_scenario *sc, const struct engine_result *r,
			      struct teach_big_tensor *out, size_t max);
const char *teach_role_name(enum teach_tensor_role role);

#endif
