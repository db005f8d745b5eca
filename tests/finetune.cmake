# Fine-tuning and offload times against published measured throughput (issue 14).
napkin_add_test(NAME finetune_runs SOURCES unit/test_finetune_runs.c LIBS napkin_presets LABELS unit)
