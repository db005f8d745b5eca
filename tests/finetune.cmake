# Fine-tuning and offload times against published measured throughput (issue 14).
napkin_add_test(NAME finetune_runs SOURCES unit/test_finetune_runs.c LIBS napkin_presets LABELS unit)
# Memory figures against hand-derived counts and the report's contract: MoE fine-tuning
# under expert parallelism, the fewest GPUs with cp and ep, offload's peak within the
# total, LoRA that adapts nothing, no part negative (test_memory_trust.c).
napkin_add_test(NAME memory_trust SOURCES unit/test_memory_trust.c LIBS napkin_presets LABELS unit)
