/*
 * replay: runs a fuzz target's LLVMFuzzerTestOneInput on files, without libFuzzer, so that
 * the crashes fuzzing found stay fixed in every build (gcc included).
 *
 *   replay_fuzz_gpu FILE|DIR...     every file given, and every file in each directory
 *
 * Prints one line per input when NAPKIN_FUZZ_VERBOSE is set; a broken property aborts (the
 * test fails). Exits 0 when every input ran, 2 on bad usage or an unreadable input.
 */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz.h"

struct input {
	char *path;
	uint8_t *data;
	size_t size;
};

struct inputs {
	struct input *v;
	size_t n, cap;
};

static int read_input(const char *path, struct inputs *in)
{
	FILE *f = fopen(path, "rb");
	uint8_t *data = NULL;
	size_t size = 0, cap = 0, r;
	struct input *it;

	if (f == NULL) {
		perror(path);
		return -1;
	}
	do {
		if (size == cap) {
			uint8_t *nd;
			cap = cap == 0 ? 65536 : cap * 2;
			nd = realloc(data, cap);
			if (nd == NULL) {
				fclose(f);
				free(data);
				return -1;
			}
			data = nd;
		}
		r = fread(data + size, 1, cap - size, f);
		size += r;
	} while (r > 0);
	fclose(f);
	if (in->n == in->cap) {
		struct input *nv;
		in->cap = in->cap == 0 ? 64 : in->cap * 2;
		nv = realloc(in->v, in->cap * sizeof *nv);
		if (nv == NULL) {
			free(data);
			return -1;
		}
		in->v = nv;
	}
	it = &in->v[in->n++];
	it->path = strdup(path);
	it->data = data;
	it->size = size;
	return it->path != NULL ? 0 : -1;
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The files of a directory, in name order, skipping dot files (README aside, any file is an input). */
static int read_dir(const char *dir, struct inputs *in)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char **names = NULL;
	size_t n = 0, cap = 0, i;
	int rc = 0;

	if (d == NULL) {
		perror(dir);
		return -1;
	}
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.' || strcmp(e->d_name, "README.md") == 0)
			continue;
		if (n == cap) {
			char **nn;
			cap = cap == 0 ? 64 : cap * 2;
			nn = realloc(names, cap * sizeof *nn);
			if (nn == NULL) {
				rc = -1;
				break;
			}
			names = nn;
		}
		names[n] = malloc(strlen(dir) + strlen(e->d_name) + 2);
		if (names[n] == NULL) {
			rc = -1;
			break;
		}
		sprintf(names[n], "%s/%s", dir, e->d_name);
		n++;
	}
	closedir(d);
	if (names != NULL)
		qsort(names, n, sizeof *names, cmp_names);
	for (i = 0; i < n; i++) {
		struct stat st;
		if (rc == 0 && stat(names[i], &st) == 0 && S_ISREG(st.st_mode))
			rc = read_input(names[i], in);
		free(names[i]);
	}
	free(names);
	return rc;
}

int main(int argc, char **argv)
{
	struct inputs in = {NULL, 0, 0};
	size_t i;
	int a, rc = 0;
	bool verbose = getenv("NAPKIN_FUZZ_VERBOSE") != NULL;

	if (argc < 2) {
		fprintf(stderr, "usage: %s FILE|DIR...\n", argv[0]);
		return 2;
	}
	/* read everything first: the target's initialisation may change the environment */
	for (a = 1; a < argc && rc == 0; a++) {
		struct stat st;
		if (stat(argv[a], &st) != 0) {
			perror(argv[a]);
			rc = -1;
		} else {
			rc = S_ISDIR(st.st_mode) ? read_dir(argv[a], &in) : read_input(argv[a], &in);
		}
	}
	if (rc != 0) {
		fprintf(stderr, "%s: cannot read the inputs\n", argv[0]);
		return 2;
	}
	LLVMFuzzerInitialize(&argc, &argv);
	for (i = 0; i < in.n; i++) {
		if (verbose)
			fprintf(stderr, "replay %s (%zu bytes)\n", in.v[i].path, in.v[i].size);
		LLVMFuzzerTestOneInput(in.v[i].data, in.v[i].size);
	}
	printf("%s: %zu inputs replayed\n", argv[0], in.n);
	for (i = 0; i < in.n; i++) {
		free(in.v[i].path);
		free(in.v[i].data);
	}
	free(in.v);
	return 0;
}
