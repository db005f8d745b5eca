/*
 * The datasheet preset that matches a probed device: every GPU preset of the registry is a
 * candidate for probe_match (by the name NVML reports, memory as a tie-break). Shared by
 * `napkin probe` and the explorer's GPU probe.
 */
#include <stdlib.h>

#include "presets.h"
#include "probe.h"

int probe_find_datasheet(struct preset_registry *reg, const struct probe_device *d, struct engine_gpu *out)
{
	struct probe_candidate *cands;
	struct engine_gpu *gpus;
	struct napkin_err err;
	size_t n, i;
	int best;

	if (!reg || !d || !d->name[0])
		return 0;
	n = preset_count(reg, PRESET_GPU);
	if (n == 0)
		return 0;
	cands = calloc(n, sizeof *cands);
	gpus = calloc(n, sizeof *gpus);
	if (!cands || !gpus) {
		free(cands);
		free(gpus);
		return -1;
	}
	for (i = 0; i < n; i++) {
		const struct preset_info *info = preset_at(reg, PRESET_GPU, i);
		cands[i].id = info->id;
		cands[i].name = info->name;
		util_err_clear(&err);
		if (preset_gpu(reg, info->id, &gpus[i], &err) == NAPKIN_OK)
			cands[i].memory_bytes = gpus[i].memory_bytes;
	}
	best = probe_match(d->name, PROBE_HAS(d, PROBE_F_MEM_TOTAL) ? d->mem_total : 0.0, cands, n);
	if (best >= 0)
		*out = gpus[best];
	free(cands);
	free(gpus);
	return best >= 0 ? 1 : 0;
}
