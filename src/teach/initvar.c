/*
 * Initialisation and the variance of activations through a stack of linear layers
 * (the chapter, §3.5: nn.Parameter, 参数初始化, Xavier Initialization, Activation
 * Explosion or Vanishing).
 *
 * A layer y = W·x with fan_in inputs, W's entries independent with mean 0 and variance σ²,
 * x's entries independent with mean 0 and variance v: each output is a sum of fan_in
 * products of independent zero-mean terms, so Var(y) = fan_in·σ²·v (Glorot & Bengio 2010,
 * "Understanding the difficulty of training deep feedforward neural networks", eq. 5 with
 * the linear regime of eq. 6). Through L such layers: Var_L = (fan_in·σ²)^L · Var_0.
 *
 * σ² by scheme: N(0, 1) (torch.randn, a naive init) 1; Xavier/Glorot (Glorot & Bengio 2010,
 * eq. 12; torch.nn.init.xavier_normal_, gain 1) 2/(fan_in + fan_out); LeCun 1/fan_in (the
 * forward condition alone, Glorot & Bengio eq. 10); Kaiming/He for ReLU 2/fan_in (He et al.
 * 2015, eq. 10; torch.nn.init.kaiming_normal_).
 */
#include <math.h>
#include <string.h>

#include "initvar.h"

static const char *const names[TEACH_INIT_COUNT] = {"normal", "xavier", "lecun", "kaiming"};

const char *teach_init_name(enum teach_init init)
{
	return (int)init >= 0 && init < TEACH_INIT_COUNT ? names[init] : "?";
}

int teach_init_by_name(const char *name)
{
	int i;

	for (i = 0; i < TEACH_INIT_COUNT; i++)
		if (strcmp(name, names[i]) == 0)
			return i;
	if (strcmp(name, "randn") == 0 || strcmp(name, "naive") == 0)
		return TEACH_INIT_NORMAL;
	if (strcmp(name, "glorot") == 0 || strcmp(name, "xavier_normal") == 0)
		return TEACH_INIT_XAVIER;
	if (strcmp(name, "he") == 0 || strcmp(name, "kaiming_normal") == 0)
		return TEACH_INIT_KAIMING;
	return -1;
}

double teach_init_weight_var(enum teach_init init, double fan_in, double fan_out)
{
	switch (init) {
	case TEACH_INIT_XAVIER:
		return 2.0 / (fan_in + fan_out);
	case TEACH_INIT_LECUN:
		return 1.0 / fan_in;
	case TEACH_INIT_KAIMING:
		return 2.0 / fan_in;
	case TEACH_INIT_NORMAL:
	default:
		return 1.0;
	}
}

double teach_init_gain(enum teach_init init, double fan_in, double fan_out)
{
	return fan_in * teach_init_weight_var(init, fan_in, fan_out);
}

void teach_init_variance(enum teach_init init, double fan_in, double fan_out, int layers, double var0, double *out)
{
	double g = teach_init_gain(init, fan_in, fan_out);
	int l;

	out[0] = var0;
	for (l = 1; l <= layers; l++)
		out[l] = out[l - 1] * g;
}

int teach_init_overflow_layer(enum teach_init init, double fan_in, double fan_out, double var0, double max_finite)
{
	/* the activations' typical size is the standard deviation: sqrt(var0)·sqrt(g)^l;
	 * the first l where it passes max_finite */
	double g = teach_init_gain(init, fan_in, fan_out);
	double l;

	if (g <= 1.0 || var0 <= 0 || max_finite <= 0)
		return sqrt(var0) > max_finite ? 0 : -1;
	l = (log(max_finite) - 0.5 * log(var0)) / (0.5 * log(g));
	return (int)floor(l) + 1;
}
