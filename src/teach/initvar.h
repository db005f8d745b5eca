/*
 * teach/initvar: how an initialisation scheme grows or keeps the variance of activations
 * through L linear layers (the chapter's §3.5; sources in initvar.c). Pure functions.
 */
#ifndef NAPKIN_TEACH_INITVAR_H
#define NAPKIN_TEACH_INITVAR_H

#define TEACH_INIT_MAX_LAYERS 1024

enum teach_init {
	TEACH_INIT_NORMAL,  /* N(0, 1): torch.randn, σ² = 1 */
	TEACH_INIT_XAVIER,  /* Glorot & Bengio: σ² = 2 / (fan_in + fan_out) */
	TEACH_INIT_LECUN,   /* σ² = 1 / fan_in */
	TEACH_INIT_KAIMING, /* He et al. (ReLU): σ² = 2 / fan_in */
	TEACH_INIT_COUNT,
};

const char *teach_init_name(enum teach_init init);     /* "xavier" */
/* "normal"/"randn"/"naive", "xavier"/"glorot", "lecun", "kaiming"/"he"; -1 when unknown */
int teach_init_by_name(const char *name);
/* σ², the variance of each weight */
double teach_init_weight_var(enum teach_init init, double fan_in, double fan_out);
/* fan_in·σ²: what one layer multiplies the activations' variance by */
double teach_init_gain(enum teach_init init, double fan_in, double fan_out);
/* out[0..layers]: the variance after each layer, out[0] = var0 (out holds layers + 1) */
void teach_init_variance(enum teach_init init, double fan_in, double fan_out, int layers, double var0, double *out);
/* The first layer whose activations' standard deviation passes max_finite (a dtype's
 * largest value); -1 when it never does (gain <= 1). */
int teach_init_overflow_layer(enum teach_init init, double fan_in, double fan_out, double var0, double max_finite);

#endif
