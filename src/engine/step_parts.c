/* The step breakdown's parts (engine_step_breakdown) by index: their JSON names, their
 * labels for people, and where the throughput came from. Split from step.c, the model. */
#include "internal.h"

static const char *const part_names[ENGINE_STEP_PARTS] = {
	"matmul", "attention", "elementwise", "recompute", "optimizer", "tp_comm",
	"cp_comm", "ep_comm", "pp_comm", "dp_comm", "bubble", "offload",
};
static const char *const part_labels[ENGINE_STEP_PARTS] = {
	N_("matmul"), N_("attention"), N_("element-wise"), N_("recompute"), N_("optimizer"), N_("TP comm"),
	N_("CP comm"), N_("EP comm"), N_("PP comm"), N_("DP comm"), N_("bubble"), N_("offload"),
};

double engine_step_part(const struct engine_step_breakdown *b, int i)
{
	switch (i) {
	case 0: return b->matmul;
	case 1: return b->attention;
	case 2: return b->elementwise;
	case 3: return b->recompute;
	case 4: return b->optimizer;
	case 5: return b->tp_comm;
	case 6: return b->cp_comm;
	case 7: return b->ep_comm;
	case 8: return b->pp_comm;
	case 9: return b->dp_comm;
	case 10: return b->bubble;
	case 11: return b->offload;
	default: return 0.0;
	}
}

const char *engine_step_part_name(int i)
{
	return i >= 0 && i < ENGINE_STEP_PARTS ? part_names[i] : "";
}

const char *engine_step_part_label(int i)
{
	return i >= 0 && i < ENGINE_STEP_PARTS ? part_labels[i] : "";
}

const char *engine_mfu_source_name(enum engine_throughput_source s)
{
	switch (s) {
	case ENGINE_TPUT_PREDICTED: return N_("predicted"); /* also the JSON report's value: translate only in text */
	case ENGINE_TPUT_MFU: return N_("assumed");
	default: return N_("measured");
	}
}
