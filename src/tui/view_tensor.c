/*
 * The tensor inspector (see view_teach.h): the scenario's big tensors, and a tensor to
 * transpose, view, slice and copy, with its strides and the bytes a copy moves.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "tensor.h"
#include "view_teach.h"
#include "wrap.h"

/* ---------------------------------------------------------------- tensor inspector */

#define HIST_MAX 16

struct tensors_view {
	struct teach_big_tensor big[TEACH_BIG_TENSORS_MAX];
	size_t n_big;
	int sel, first;
	struct teach_tensor hist[HIST_MAX];
	char hist_op[HIST_MAX][64];
	int n_hist;
	char note[600];
	char detail[600]; /* a matmul's point on the roofline, a copy's time over the host link */
	bool note_err;
	int note_rows; /* the rows the note may wrap into */
	int typing; /* 0, ':' (an operation) or 's' (a shape) */
	struct tui_teach_line in;
};

static struct tensors_view *tensors_state(struct tui_model *m)
{
	return m->view_state[TUI_VIEW_TENSORS];
}

static void inspect(struct tensors_view *v, const struct teach_tensor *t, const char *what)
{
	v->hist[0] = *t;
	util_strlcpy(v->hist_op[0], what, sizeof v->hist_op[0]);
	v->n_hist = 1;
	v->note[0] = '\0';
	v->detail[0] = '\0';
	v->note_err = false;
}

int tui_tensors_open(struct tui_model *m)
{
	struct tensors_view *v = calloc(1, sizeof *v);
	size_t i;

	if (v == NULL)
		return -1;
	m->view_state[TUI_VIEW_TENSORS] = v;
	if (m->have_res)
		v->n_big = teach_scenario_tensors(&m->sc, &m->res, v->big, TEACH_BIG_TENSORS_MAX);
	/* start on the queries (training) or the key cache (inference), else the first */
	for (i = 0; i < v->n_big; i++)
		if (strcmp(v->big[i].name, "q") == 0 || strcmp(v->big[i].name, "key_cache") == 0)
			v->sel = (int)i;
	if (v->n_big > 0)
		inspect(v, &v->big[v->sel].t, v->big[v->sel].name);
	else {
		struct teach_tensor t;
		teach_tensor_parse("batch=8 seq=4096 heads=32 head_dim=128", ENGINE_DT_BF16, &t, NULL);
		inspect(v, &t, "q");
	}
	return 0;
}

static void fmt_bytes2(double b, char *buf, size_t n)
{
	engine_fmt_bytes(b, true, buf, n);
}

/* What a matmul or a copy to the GPU costs on this scenario's GPU, in v->detail. */
static void op_detail(struct tui_model *m, struct tensors_view *v, const struct teach_tensor *from,
		      const struct teach_op_result *res)
{
	char a[40], b[40], c[40], d[40], e[40];
	size_t pos = 0;

	v->detail[0] = '\0';
	if (!m->have_res)
		return;
	if (res->kind == TEACH_OPK_MATMUL) {
		struct teach_roof rf;
		double bytes = res->bytes_read + res->bytes_written;
		engine_fmt_bytes(bytes, false, a, sizeof a);
		teach_fmt_sci(res->flops, 4, e, sizeof e);
		if (!teach_roof_place(&m->sc, &m->res, from->dtype, res->flops, bytes, &rf)) {
			util_bprintf(v->detail, sizeof v->detail, &pos,
				     _("%s FLOPs, %s moved (A and B read, C written): %.4g FLOP/B; %s has no %s peak"),
				     e, a, rf.intensity, m->sc.gpu.name, engine_dtype_info(from->dtype)->name);
			return;
		}
		engine_fmt_si(rf.attainable, "FLOP/s", b, sizeof b);
		engine_fmt_seconds(rf.seconds, c, sizeof c);
		util_bprintf(v->detail, sizeof v->detail, &pos,
			     _("%s FLOPs, %s moved (A and B read, C written): %.4g FLOP/B; ridge of %s at %s %.0f FLOP/B: "
			       "%s, attainable %s, %s at the roofline"),
			     e, a, rf.intensity, m->sc.gpu.name, engine_dtype_info(from->dtype)->name, rf.ridge,
			     rf.memory_bound ? _("memory-bound") : _("compute-bound"), b, c);
		if (from->device == TEACH_DEV_CPU)
			util_bprintf(v->detail, sizeof v->detail, &pos,
				     _(" (the tensor is on the CPU: these are the GPU's figures once %s moves it there)"),
				     "to(cuda)");
	} else if (res->kind == TEACH_OPK_TO_DEVICE) {
		double pin, pag;
		teach_h2d_seconds(&m->res, res->bytes_written, &pin, &pag);
		engine_fmt_bytes(res->bytes_written, false, a, sizeof a);
		engine_fmt_seconds(pin, b, sizeof b);
		engine_fmt_si(m->res.data.pinned_bw, "B/s", c, sizeof c);
		engine_fmt_seconds(pag, d, sizeof d);
		engine_fmt_si(m->res.data.pageable_bw, "B/s", e, sizeof e);
		util_bprintf(v->detail, sizeof v->detail, &pos,
			     _("%s over PCIe: pinned %s at %s, pageable %s at %s (the host link of the data-loading figures)"),
			     a, b, c, d, e);
	}
}

static void apply_typed(struct tui_model *m, struct tensors_view *v)
{
	struct napkin_err err;
	struct teach_tensor r;
	struct teach_op_result res;
	const struct teach_tensor *cur = &v->hist[v->n_hist - 1];

	util_err_clear(&err);
	if (v->typing == 's') {
		/* "[device] [dtype] dims": a leading device (cuda, cpu: torch.empty(...,
		 * device="cuda"); PyTorch's default is the CPU) and dtype name are optional */
		char first[32];
		const char *rest = v->in.text;
		enum engine_dtype dt = cur->dtype, d2;
		bool on_gpu = false;
		int w;
		for (w = 0; w < 2; w++) {
			size_t k;
			while (*rest == ' ')
				rest++;
			k = strcspn(rest, " ");
			if (k >= sizeof first)
				break;
			memcpy(first, rest, k);
			first[k] = '\0';
			if (strcmp(first, "cuda") == 0 || strcmp(first, "cpu") == 0) {
				on_gpu = first[1] == 'u';
				rest += k;
				continue;
			}
			d2 = engine_dtype_by_name(first);
			if (d2 == ENGINE_DT_AUTO || strchr(first, '=') != NULL)
				break;
			dt = d2;
			rest += k;
		}
		if (teach_tensor_parse(rest, dt, &r, &err) != NAPKIN_OK) {
			size_t pos = 0;
			util_bprintf(v->note, sizeof v->note, &pos, _("shape: %s"), err.msg);
			v->note_err = true;
			v->detail[0] = '\0';
			return;
		}
		r.device = on_gpu ? TEACH_DEV_CUDA : TEACH_DEV_CPU;
		inspect(v, &r, _("a new tensor"));
		return;
	}
	if (teach_tensor_op(cur, v->in.text, &r, &res, &err) != NAPKIN_OK) {
		size_t pos = 0;
		util_bprintf(v->note, sizeof v->note, &pos, C_("op and result", "%s: %s"), v->in.text, err.msg);
		v->note_err = true;
		v->detail[0] = '\0';
		return;
	}
	if (v->n_hist == HIST_MAX) {
		memmove(&v->hist[1], &v->hist[2], (HIST_MAX - 2) * sizeof v->hist[0]);
		memmove(&v->hist_op[1], &v->hist_op[2], (HIST_MAX - 2) * sizeof v->hist_op[0]);
		v->n_hist--;
	}
	v->hist[v->n_hist] = r;
	util_strlcpy(v->hist_op[v->n_hist], v->in.text, sizeof v->hist_op[v->n_hist]);
	v->n_hist++;
	util_strlcpy(v->note, res.note, sizeof v->note);
	v->note_err = false;
	v->note_rows = res.kind == TEACH_OPK_INIT ? 4 : 2;
	op_detail(m, v, cur, &res);
}

unsigned tui_tensors_key(struct tui_model *m, const struct tui_event *ev, uint64_t now)
{
	struct tensors_view *v = tensors_state(m);

	(void)now;
	if (v == NULL)
		return TUI_REACT_NONE;
	if (v->typing) {
		if (ev->key == TUI_KEY_ESC) {
			v->typing = 0;
		} else if (ev->key == TUI_KEY_ENTER) {
			if (v->in.len > 0)
				apply_typed(m, v);
			v->typing = 0;
		} else if (!tui_teach_input_key(&v->in, ev->key)) {
			return TUI_REACT_NONE;
		}
		return TUI_REACT_REDRAW;
	}
	switch (ev->key) {
	case TUI_KEY_ESC: case 'q': case 'T':
		tui_view_pop(m);
		return TUI_REACT_REDRAW;
	case TUI_KEY_UP: case 'k':
		if (v->sel > 0)
			v->sel--;
		return TUI_REACT_REDRAW;
	case TUI_KEY_DOWN: case 'j':
		if (v->sel + 1 < (int)v->n_big)
			v->sel++;
		return TUI_REACT_REDRAW;
	case TUI_KEY_ENTER:
		if (v->n_big > 0)
			inspect(v, &v->big[v->sel].t, v->big[v->sel].name);
		return TUI_REACT_REDRAW;
	case ':': case '/':
		v->typing = ':';
		v->in.len = 0;
		v->in.text[0] = '\0';
		return TUI_REACT_REDRAW;
	case 's':
		v->typing = 's';
		v->in.len = 0;
		v->in.text[0] = '\0';
		return TUI_REACT_REDRAW;
	case 'u':
		if (v->n_hist > 1) {
			v->n_hist--;
			snprintf(v->note, sizeof v->note, _("undid %s"), v->hist_op[v->n_hist]);
			v->note_err = false;
		}
		return TUI_REACT_REDRAW;
	case 'c':
		util_strlcpy(v->in.text, "contiguous()", sizeof v->in.text);
		v->in.len = (int)strlen(v->in.text);
		v->typing = ':';
		apply_typed(m, v);
		v->typing = 0;
		return TUI_REACT_REDRAW;
	case '?': case TUI_KEY_F1:
		tui_view_push(m, TUI_VIEW_HELP);
		return TUI_REACT_REDRAW;
	default:
		return TUI_REACT_NONE;
	}
}

/* The scenario's big tensors in r, by role, the selected one's line at the bottom: the
 * inspector's upper half, and a tensors step's slide. *sel and *first are the selection and
 * the first row shown (kept on screen). */
static void draw_big_table(struct tui_model *m, struct tui_canvas *c, const struct teach_big_tensor *big, size_t n_big,
			   int *sel, int *first, struct tui_rect r)
{
	struct tui_rect in = tui_rect_inner(r);
	int rows = in.h - 2, i, y;
	bool wide = in.w >= 100;
	int wname = 8, wshape;
	char line[600], shape[300], each[40], total[40], title[200];
	enum teach_tensor_role role = TEACH_ROLE_COUNT;

	/* the name column as wide as the longest name (narrower where the shapes need it) */
	for (i = 0; i < (int)n_big; i++)
		if ((int)strlen(big[i].name) + 2 > wname)
			wname = (int)strlen(big[i].name) + 2;
	if (wname > (wide ? 34 : 18))
		wname = wide ? 34 : 18;
	wshape = in.w - wname - (wide ? 38 : 27);
	snprintf(title, sizeof title,
		 m->sc.mode == ENGINE_MODE_TRAIN
			 ? _("Where the big tensors come from (the whole model, before TP/PP/ZeRO; one layer's activations at this micro-batch)")
			 : _("Where the big tensors come from (the whole model, before TP/PP/ZeRO; KV cache at this batch)"));
	if (tui_utf8_width(title) > r.w - 5)
		util_strlcpy(title, _("The big tensors (whole model, before TP/PP/ZeRO)"), sizeof title);
	tui_canvas_box(c, r, title, TUI_S_BORDER, TUI_S_TITLE);
	if (wshape < 12)
		wshape = 12;
	/* the column heads, each at its column (a translated head pads by display width) */
	tui_canvas_fill(c, tui_rect_make(in.x, in.y, in.w, 1), ' ', TUI_S_LABEL);
	tui_canvas_text(c, in.x + 1, in.y, wname - 1, _("tensor"), TUI_S_LABEL);
	tui_canvas_text(c, in.x + wname, in.y, wshape, _("shape"), TUI_S_LABEL);
	tui_canvas_text(c, in.x + wname + wshape + 1, in.y, 8, _("dtype"), TUI_S_LABEL);
	tui_canvas_text_right(c, in.x + wname + wshape + 15, in.y, 5, _("count"), TUI_S_LABEL);
	if (wide)
		tui_canvas_text_right(c, in.x + wname + wshape + 27, in.y, 11, _("each"), TUI_S_LABEL);
	tui_canvas_text_right(c, in.x + wname + wshape + 27 + (wide ? 11 : 0), in.y, 11, _("total"), TUI_S_LABEL);
	/* keep the selection on screen (role headings take rows too) */
	if (*sel < *first)
		*first = *sel;
	while (*sel - *first >= rows - 4 && *first < *sel)
		(*first)++;
	y = in.y + 1;
	for (i = *first; i < (int)n_big && y < in.y + in.h - 1; i++) {
		const struct teach_big_tensor *b = &big[i];
		if (b->role != role) {
			double sum = 0;
			size_t k;
			role = b->role;
			for (k = 0; k < n_big; k++)
				if (big[k].role == role)
					sum += big[k].total_bytes;
			fmt_bytes2(sum, total, sizeof total);
			snprintf(line, sizeof line, _(" %s: %s"), _(teach_role_name(role)), total);
			tui_canvas_text(c, in.x, y++, in.w, line, TUI_S_GROUP);
			if (y >= in.y + in.h - 1)
				break;
		}
		teach_tensor_format_shape(&b->t, shape, sizeof shape);
		fmt_bytes2(b->bytes, each, sizeof each);
		fmt_bytes2(b->total_bytes, total, sizeof total);
		snprintf(line, sizeof line, "%s%-*s", i == *sel ? "\xe2\x96\xb8" : " ", wname - 1, "");
		tui_canvas_text(c, in.x, y, in.w, line, i == *sel ? TUI_S_SELECTED : TUI_S_NORMAL);
		tui_canvas_text(c, in.x + 1, y, wname - 1, b->name, i == *sel ? TUI_S_SELECTED : TUI_S_NORMAL);
		tui_canvas_text(c, in.x + wname, y, wshape, shape, i == *sel ? TUI_S_SELECTED : TUI_S_NORMAL);
		snprintf(line, sizeof line, " %-8s %5.0f %*s%11s", engine_dtype_info(b->t.dtype)->name, b->count, wide ? 11 : 0,
			 wide ? each : "", total);
		tui_canvas_text(c, in.x + wname + wshape, y++, in.w - wname - wshape, line,
				i == *sel ? TUI_S_SELECTED : TUI_S_NORMAL);
	}
	if (*sel >= 0 && *sel < (int)n_big) {
		snprintf(line, sizeof line, C_("selected row", "\xe2\x96\xb8 %s: %s"), big[*sel].name, _(big[*sel].what));
		tui_canvas_text(c, in.x, in.y + in.h - 1, in.w, line, TUI_S_DIM);
	}
}

void tui_tensors_draw_big(struct tui_model *m, struct tui_canvas *c, struct tui_rect r)
{
	struct teach_big_tensor big[TEACH_BIG_TENSORS_MAX];
	size_t n = m->have_res ? teach_scenario_tensors(&m->sc, &m->res, big, TEACH_BIG_TENSORS_MAX) : 0;
	int sel = 0, first = 0;

	draw_big_table(m, c, big, n, &sel, &first, r);
}

void tui_tensors_draw(struct tui_model *m, struct tui_canvas *c, uint64_t now)
{
	struct tensors_view *v = tensors_state(m);
	const struct teach_tensor *t;
	struct tui_rect top, bot, in;
	char line[700], a[300], b[200], by[40], st[40];
	int hb, y, i;
	size_t pos = 0;

	(void)now;
	if (v == NULL)
		return;
	tui_canvas_clear(c, TUI_S_NORMAL);
	tui_teach_title_bar(m, c, _("tensor inspector"));
	hb = m->h >= 32 ? 12 : 10; /* room for a matmul's roofline lines */
	if (m->h - 2 - hb < 8)
		hb = m->h - 2 - 8 > 6 ? m->h - 2 - 8 : 6;
	if (v->note_err) {
		/* a refusal says why and what to do instead (view: reshape() or contiguous()):
		 * the inspector grows to hold it whole, the list above keeping 4 rows */
		char wb[2048];
		int need = 2 + 4 + teach_wrap(v->note, m->w - 4 - 9, wb, sizeof wb) + 1; /* border, 4 rows, it, a hint row */
		if (need > hb)
			hb = need < m->h - 2 - 4 ? need : m->h - 2 - 4;
	}
	top = tui_rect_make(0, 1, m->w, m->h - 2 - hb);
	bot = tui_rect_make(0, m->h - 1 - hb, m->w, hb);
	if (top.h >= 4)
		draw_big_table(m, c, v->big, v->n_big, &v->sel, &v->first, top);
	tui_canvas_box(c, bot, _("Inspector: shape, strides, storage (PyTorch's rules)"), TUI_S_BORDER_FOCUS, TUI_S_TITLE_FOCUS);
	in = tui_rect_inner(bot);
	in.x++;
	in.w -= 2;
	t = &v->hist[v->n_hist - 1];
	teach_tensor_format_shape(t, a, sizeof a);
	/* TRANSLATORS: the inspector's rows start with a label padded to 9 columns: tensor, strides, size, history, result */
	snprintf(line, sizeof line, _("tensor   %s  %s   rank %d"), a, engine_dtype_info(t->dtype)->name, t->ndim);
	y = in.y;
	tui_canvas_text(c, in.x, y++, in.w, line, TUI_S_VALUE);
	teach_tensor_format_strides(t, b, sizeof b);
	snprintf(line, sizeof line, _("strides  %s   storage offset %lld   %s"), b, (long long)t->offset,
		 teach_tensor_is_contiguous(t) ? _("contiguous") : _("NOT contiguous"));
	tui_canvas_text(c, in.x, y++, in.w, line, teach_tensor_is_contiguous(t) ? TUI_S_NORMAL : TUI_S_WARN);
	fmt_bytes2(teach_tensor_bytes(t), by, sizeof by);
	fmt_bytes2(teach_tensor_storage_bytes(t), st, sizeof st);
	snprintf(line, sizeof line, _("size     %lld elements \xc3\x97 %g B = %s (storage %s), on %s"),
		 (long long)teach_tensor_numel(t), engine_dtype_info(t->dtype)->bytes, by, st, teach_device_name(t->device));
	tui_canvas_text(c, in.x, y++, in.w, line, TUI_S_NORMAL);
	line[0] = '\0';
	util_bprintf(line, sizeof line, &pos, _("history  %s"), v->hist_op[0]);
	for (i = 1; i < v->n_hist; i++)
		util_bprintf(line, sizeof line, &pos, " \xe2\x86\x92 %s", v->hist_op[i]);
	tui_canvas_text(c, in.x, y++, in.w, line, TUI_S_DIM);
	if (v->note[0] != '\0') {
		struct tui_rect nr = tui_rect_make(in.x + 9, y, in.w - 9, 2);
		tui_canvas_text(c, in.x, y, 9, _("result"), TUI_S_LABEL);
		int nrows = v->detail[0] != '\0' ? 1 : v->note_rows > 2 && !v->note_err ? v->note_rows : 2;
		if (v->note_err) /* every row left: the hint below gives way */
			nrows = in.y + in.h - y;
		nr.h = nrows;
		y += tui_teach_draw_wrapped(c, nr, y, nrows, v->note, 0,
					    v->note_err ? TUI_S_BAD : TUI_S_GOOD);
		if (v->detail[0] != '\0' && !v->note_err) {
			int rows = in.y + in.h - 1 - y;
			if (rows > 3)
				rows = 3;
			if (rows > 0)
				y += tui_teach_draw_wrapped(c, tui_rect_make(in.x + 9, y, in.w - 9, rows), y, rows, v->detail, 0,
							    TUI_S_VALUE);
		}
	}
	if (v->typing) {
		snprintf(line, sizeof line, "%s %s\xe2\x96\x8f", v->typing == 's' ? _("shape>") : _("op>   "), v->in.text);
		tui_canvas_text(c, in.x, in.y + in.h - 1, in.w, line, TUI_S_INPUT);
	} else {
		/* what can be typed, wrapped into the rows left at the bottom */
		const char *hint =
			_("type : and an operation: transpose(seq, heads) \xc2\xb7 view(batch, heads, -1) \xc2\xb7 reshape(...) "
			  "\xc2\xb7 narrow(seq, 0, 1024) \xc2\xb7 slice(seq, 0, end, 2) \xc2\xb7 expand(...) \xc2\xb7 contiguous() "
			  "\xc2\xb7 matmul(K, N) or @ [K, N] \xc2\xb7 to(cuda) \xc2\xb7 to(fp8); "
			  "or s and a shape: bf16 batch=8 seq=4k (cuda bf16 4096x4096 on the GPU)");
		char buf[1024];
		int hy = in.y + in.h - teach_wrap(hint, in.w, buf, sizeof buf);
		if (hy < y)
			hy = y;
		tui_teach_draw_wrapped(c, tui_rect_make(in.x, hy, in.w, in.y + in.h - hy), hy, in.y + in.h - hy, hint, 0,
				       TUI_S_DIM);
	}
}
