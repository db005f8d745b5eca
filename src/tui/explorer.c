/*
 * The explorer's top: the view table, the one list of views (as the knob table is the one
 * list of knobs), and the entry points that tie the model to it. Every other file of the
 * TUI lies below this one: the model (model*.c) and the view stack (view_stack.c) reach a
 * view only through the table's function pointers, the panes and views draw with paint.c,
 * and nothing calls back up here.
 *
 * A row says: the view's name and title (its section in `?` help), the main-screen action
 * that opens it (its key is in the key table, keys.c; `?` help names it), whether it fills
 * the screen or lies over the main screen, how to draw it, its key handler, its optional
 * open, close and start (what its key does instead of a plain push), its footer (the keys
 * that matter in it), its lines in `?` help (or none: help lists the footer's keys), and
 * what it needs. See tui.h for how to add a view.
 */
#include "i18n.h"
#include "model.h"
#include "view_gpu.h"
#include "view_teach.h"
#include "view_trade.h"

static const struct tui_view views[TUI_VIEW_COUNT] = {
	[TUI_VIEW_MAIN] = {.name = "main", .kind = TUI_VIEW_FULL, .draw = tui_draw_main, .key = tui_main_view_key},
	[TUI_VIEW_PICKER] = {
		.name = "picker", .title = N_("Picker (model, GPU)"), .kind = TUI_VIEW_OVERLAY,
		.draw = tui_picker_draw, .key = tui_picker_key, .close = tui_picker_close,
		.footer = N_("type|filter or path|Tab|complete path|\xe2\x86\x91\xe2\x86\x93|move|Enter|use|Esc|close"),
		.help = N_("  type       filter by id, name or key figures\n"
			"  \xe2\x86\x91\xe2\x86\x93 PgUp PgDn  move        Enter  use the preset        Esc  close\n"),
		.needs = TUI_NEEDS_REGISTRY,
	},
	[TUI_VIEW_PROMPT] = {
		.name = "prompt", .title = N_("Prompt (a value, a path)"), .kind = TUI_VIEW_OVERLAY,
		.draw = tui_prompt_draw, .key = tui_prompt_key,
		.footer = N_("Enter|apply|Esc|cancel|Tab|complete path|\xe2\x86\x90\xe2\x86\x92|move|C-u|clear"),
		.help = N_("  Enter      apply; a bad value is refused and the old one kept\n"
			"  Esc        cancel     \xe2\x86\x90\xe2\x86\x92 Home End  move     Backspace  delete     C-u  clear\n"),
	},
	[TUI_VIEW_SWEEP] = {
		.name = "sweep", .title = N_("Sweep"), .opened_by = TUI_ACT_SWEEP, .kind = TUI_VIEW_FULL,
		.draw = tui_sweep_draw, .key = tui_sweep_key, .open = tui_sweep_open,
		.footer = TUI_SWEEP_FOOTER, .help = TUI_SWEEP_HELP,
	},
	[TUI_VIEW_HEAT] = {
		.name = "heatmap", .title = N_("Heatmap"), .opened_by = TUI_ACT_HEAT, .kind = TUI_VIEW_FULL,
		.draw = tui_heat_draw, .key = tui_heat_key, .open = tui_heat_open,
		.footer = TUI_HEAT_FOOTER, .help = TUI_HEAT_HELP,
	},
	[TUI_VIEW_COMPARE] = {
		.name = "compare", .title = N_("Compare"), .opened_by = TUI_ACT_COMPARE, .kind = TUI_VIEW_FULL,
		.draw = tui_compare_draw, .key = tui_compare_key, .open = tui_compare_open,
		.footer = TUI_COMPARE_FOOTER, .help = TUI_COMPARE_HELP,
		.needs = TUI_NEEDS_REGISTRY, /* a GPU to add comes from the picker */
	},
	[TUI_VIEW_PLAN] = {
		.name = "plan", .title = N_("Plan"), .opened_by = TUI_ACT_PLAN, .kind = TUI_VIEW_FULL,
		.draw = tui_plan_draw, .key = tui_plan_key, .open = tui_plan_open,
		.footer = TUI_PLAN_FOOTER, .help = TUI_PLAN_HELP,
	},
	[TUI_VIEW_OPS] = {
		.name = "ops", .title = N_("Ops of a layer"), .opened_by = TUI_ACT_OPS, .kind = TUI_VIEW_FULL,
		.draw = tui_ops_draw, .key = tui_ops_key, .open = tui_ops_open,
		.footer = TUI_OPS_FOOTER, .help = TUI_OPS_HELP,
	},
	[TUI_VIEW_LESSON] = {
		.name = "lesson", .title = N_("Lessons"), .opened_by = TUI_ACT_LESSON, .kind = TUI_VIEW_OVERLAY,
		.draw = tui_lesson_draw, .key = tui_lesson_key, .open = tui_lesson_open, .close = tui_lesson_close,
		.footer = TUI_LESSON_FOOTER, .needs = TUI_NEEDS_LESSONS,
	},
	[TUI_VIEW_SLIDE] = {
		/* opened from a lesson (B) or by napkin lesson N --slides, above the lesson's panel */
		.name = "slide", .title = N_("Slides (B in a lesson)"), .kind = TUI_VIEW_FULL,
		.draw = tui_slide_draw, .key = tui_slide_key,
		.footer = TUI_SLIDE_FOOTER, .help = TUI_SLIDE_HELP, .needs = TUI_NEEDS_LESSONS,
	},
	[TUI_VIEW_TENSORS] = {
		.name = "tensors", .title = N_("Tensor inspector"), .opened_by = TUI_ACT_TENSORS, .kind = TUI_VIEW_FULL,
		.draw = tui_tensors_draw, .key = tui_tensors_key, .open = tui_tensors_open,
		.footer = TUI_TENSORS_FOOTER,
	},
	[TUI_VIEW_DTYPELAB] = {
		.name = "dtypelab", .title = N_("Dtype lab"), .opened_by = TUI_ACT_DTYPELAB, .kind = TUI_VIEW_FULL,
		.draw = tui_dtypelab_draw, .key = tui_dtypelab_key, .open = tui_dtypelab_open,
		.footer = TUI_DTYPELAB_FOOTER,
	},
	[TUI_VIEW_PROBE] = {
		.name = "probe", .title = N_("GPU probe"), .opened_by = TUI_ACT_PROBE, .kind = TUI_VIEW_OVERLAY,
		.draw = tui_probe_draw, .key = tui_probe_key, .close = tui_probe_close,
		.start = tui_gpu_probe_start, /* starts the probe, then shows its progress */
		.footer = TUI_PROBE_FOOTER, .needs = TUI_NEEDS_PROBE,
	},
	[TUI_VIEW_GPULIVE] = {
		.name = "gpu-live", .title = N_("Live GPU panel"), .opened_by = TUI_ACT_GPULIVE, .kind = TUI_VIEW_OVERLAY,
		.draw = tui_gpulive_draw, .key = tui_gpulive_key, .open = tui_gpulive_open, .close = tui_gpulive_close,
		.footer = TUI_GPULIVE_FOOTER, .needs = TUI_NEEDS_PROBE,
	},
	[TUI_VIEW_HELP] = {
		.name = "help", .opened_by = TUI_ACT_HELP, .kind = TUI_VIEW_OVERLAY,
		.draw = tui_help_draw, .key = tui_help_key, .open = tui_help_open,
		.footer = N_("\xe2\x86\x91\xe2\x86\x93|scroll|Esc|close"),
	},
	[TUI_VIEW_EXPLAIN] = {
		/* help's own keys are listed here, with explain's: the two scroll alike */
		.name = "explain", .title = N_("Explain and help"), .kind = TUI_VIEW_OVERLAY,
		.draw = tui_explain_draw, .key = tui_explain_key,
		.footer = N_("\xe2\x86\x91\xe2\x86\x93 PgUp PgDn|scroll|Esc e|close|?|help"),
		.help = N_("  \xe2\x86\x91\xe2\x86\x93 PgUp PgDn Home End   scroll          Esc q e  close\n"),
	},
};

_Static_assert(sizeof views / sizeof views[0] == TUI_VIEW_COUNT, "one row per view id");

int tui_model_init(struct tui_model *m, const struct engine_scenario *sc, struct preset_registry *reg,
		   const struct tui_options *opt)
{
	int rc = tui_model_setup(m, sc, reg, opt, views);

	/* napkin lesson N: start in it (keeping the student's progress); with --slides, on its slide */
	if (rc == NAPKIN_OK && opt != NULL && opt->lesson != NULL)
		m->progress = opt->lesson_progress;
	if (rc == NAPKIN_OK && opt != NULL && opt->lesson != NULL &&
	    tui_lesson_start(m, opt->lesson, opt->lesson_number, opt->lang, opt->lesson_step) == 0 && opt->lesson_slides)
		tui_view_push(m, TUI_VIEW_SLIDE);
	return rc;
}

void tui_model_fini(struct tui_model *m)
{
	while (m->n_views > 1)
		tui_view_pop(m);
	tui_gpu_fini(m);
	tui_model_release(m);
}

int tui_model_timeout(const struct tui_model *m, uint64_t now)
{
	int hl = tui_model_hl_timeout(m, now);
	int gpu = tui_gpu_timeout(m, now); /* a probe or the live panel running; -1 when not */

	if (hl < 0)
		return gpu;
	return gpu >= 0 && gpu < hl ? gpu : hl;
}

unsigned tui_model_tick(struct tui_model *m, uint64_t now)
{
	unsigned flags = tui_gpu_tick(m, now);

	return flags | tui_model_hl_tick(m, now);
}
