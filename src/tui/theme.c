/* The themes: dark, light, projector and projector-light, in colour and in monochrome. */
#include <string.h>

#include "theme.h"

#define B TUI_A_BOLD
#define R TUI_A_REVERSE
#define U TUI_A_UNDERLINE
#define D TUI_A_DIM

/* black 0, red 1, green 2, yellow 3, blue 4, magenta 5, cyan 6, white 7.
 * The default theme, also when the terminal does not say its background: no foreground
 * on the terminal's own background is yellow, white or black (yellow and white vanish on
 * a white terminal, black on a dark one); those appear only over a background of their
 * own (the header, highlights). Group headers are magenta, the roof red. */
static const struct tui_style_def dark[TUI_S_COUNT] = {
	[TUI_S_NORMAL] = {-1, -1, 0},        [TUI_S_DIM] = {-1, -1, D},
	[TUI_S_HEADER] = {0, 6, 0},          [TUI_S_FOOTER] = {-1, -1, 0},
	[TUI_S_FOOTER_KEY] = {0, 6, 0},      [TUI_S_BORDER] = {4, -1, 0},
	[TUI_S_BORDER_FOCUS] = {6, -1, B},   [TUI_S_TITLE] = {-1, -1, B},
	[TUI_S_TITLE_FOCUS] = {0, 6, 0},     [TUI_S_GROUP] = {5, -1, B},
	[TUI_S_LABEL] = {-1, -1, 0},         [TUI_S_VALUE] = {-1, -1, B},
	[TUI_S_SELECTED] = {0, 7, 0},        [TUI_S_CHANGED] = {0, 3, 0},
	[TUI_S_GOOD] = {2, -1, B},           [TUI_S_BAD] = {1, -1, B},
	[TUI_S_WARN] = {5, -1, B},           [TUI_S_ERROR_MSG] = {7, 1, B},
	[TUI_S_INFO_MSG] = {0, 2, 0},        [TUI_S_DELTA_UP] = {5, -1, B},
	[TUI_S_DELTA_DOWN] = {6, -1, B},     [TUI_S_MEM_WEIGHTS] = {4, -1, B},
	[TUI_S_MEM_MASTER] = {5, -1, 0},     [TUI_S_MEM_GRADS] = {6, -1, 0},
	[TUI_S_MEM_OPTIM] = {1, -1, 0},      [TUI_S_MEM_ACT] = {2, -1, B},
	[TUI_S_MEM_LOGITS] = {-1, -1, 0},     [TUI_S_MEM_KV] = {5, -1, B},
	[TUI_S_MEM_OVERHEAD] = {-1, -1, D},   [TUI_S_MEM_FREE] = {-1, -1, D},
	[TUI_S_MEM_OVER] = {7, 1, B},        [TUI_S_ROOF] = {1, -1, B},
	[TUI_S_ROOF_FP32] = {-1, -1, D},      [TUI_S_SLOPE] = {6, -1, B},
	[TUI_S_RIDGE] = {5, -1, 0},          [TUI_S_POINT] = {7, 5, B},
	[TUI_S_AXIS] = {-1, -1, D},          [TUI_S_INPUT] = {-1, -1, B},
	[TUI_S_OVERLAY] = {-1, -1, 0},
};

static const struct tui_style_def light[TUI_S_COUNT] = {
	[TUI_S_NORMAL] = {-1, -1, 0},        [TUI_S_DIM] = {-1, -1, D},
	[TUI_S_HEADER] = {7, 4, B},          [TUI_S_FOOTER] = {-1, -1, 0},
	[TUI_S_FOOTER_KEY] = {7, 4, B},      [TUI_S_BORDER] = {4, -1, 0},
	[TUI_S_BORDER_FOCUS] = {5, -1, B},   [TUI_S_TITLE] = {-1, -1, B},
	[TUI_S_TITLE_FOCUS] = {7, 5, B},     [TUI_S_GROUP] = {4, -1, B},
	[TUI_S_LABEL] = {-1, -1, 0},         [TUI_S_VALUE] = {-1, -1, B},
	[TUI_S_SELECTED] = {7, 4, 0},        [TUI_S_CHANGED] = {0, 3, 0},
	[TUI_S_GOOD] = {2, -1, B},           [TUI_S_BAD] = {1, -1, B},
	[TUI_S_WARN] = {1, -1, 0},           [TUI_S_ERROR_MSG] = {7, 1, B},
	[TUI_S_INFO_MSG] = {7, 2, 0},        [TUI_S_DELTA_UP] = {5, -1, B},
	[TUI_S_DELTA_DOWN] = {4, -1, B},     [TUI_S_MEM_WEIGHTS] = {4, -1, 0},
	[TUI_S_MEM_MASTER] = {5, -1, 0},     [TUI_S_MEM_GRADS] = {6, -1, 0},
	[TUI_S_MEM_OPTIM] = {0, -1, 0},      [TUI_S_MEM_ACT] = {2, -1, 0},
	[TUI_S_MEM_LOGITS] = {1, -1, 0},     [TUI_S_MEM_KV] = {5, -1, B},
	[TUI_S_MEM_OVERHEAD] = {0, -1, D},   [TUI_S_MEM_FREE] = {-1, -1, D},
	[TUI_S_MEM_OVER] = {7, 1, B},        [TUI_S_ROOF] = {1, -1, B},
	[TUI_S_ROOF_FP32] = {0, -1, D},      [TUI_S_SLOPE] = {4, -1, B},
	[TUI_S_RIDGE] = {5, -1, 0},          [TUI_S_POINT] = {7, 5, B},
	[TUI_S_AXIS] = {-1, -1, D},          [TUI_S_INPUT] = {-1, -1, B},
	[TUI_S_OVERLAY] = {-1, -1, 0},
};

/* high contrast, few colours: white on black, yellow for what moved, red for trouble */
static const struct tui_style_def projector[TUI_S_COUNT] = {
	[TUI_S_NORMAL] = {7, 0, 0},          [TUI_S_DIM] = {7, 0, 0},
	[TUI_S_HEADER] = {0, 7, 0},          [TUI_S_FOOTER] = {7, 0, B},
	[TUI_S_FOOTER_KEY] = {0, 3, 0},      [TUI_S_BORDER] = {7, 0, 0},
	[TUI_S_BORDER_FOCUS] = {3, 0, B},    [TUI_S_TITLE] = {7, 0, B},
	[TUI_S_TITLE_FOCUS] = {0, 3, 0},     [TUI_S_GROUP] = {3, 0, B},
	[TUI_S_LABEL] = {7, 0, B},           [TUI_S_VALUE] = {7, 0, B},
	[TUI_S_SELECTED] = {0, 7, 0},        [TUI_S_CHANGED] = {0, 3, 0},
	[TUI_S_GOOD] = {7, 0, B},            [TUI_S_BAD] = {7, 1, B},
	[TUI_S_WARN] = {3, 0, B},            [TUI_S_ERROR_MSG] = {7, 1, B},
	[TUI_S_INFO_MSG] = {0, 7, 0},        [TUI_S_DELTA_UP] = {3, 0, B},
	[TUI_S_DELTA_DOWN] = {3, 0, B},      [TUI_S_MEM_WEIGHTS] = {7, 0, B},
	[TUI_S_MEM_MASTER] = {3, 0, B},      [TUI_S_MEM_GRADS] = {7, 0, B},
	[TUI_S_MEM_OPTIM] = {3, 0, B},       [TUI_S_MEM_ACT] = {7, 0, B},
	[TUI_S_MEM_LOGITS] = {3, 0, B},      [TUI_S_MEM_KV] = {7, 0, B},
	[TUI_S_MEM_OVERHEAD] = {3, 0, B},    [TUI_S_MEM_FREE] = {7, 0, 0},
	[TUI_S_MEM_OVER] = {7, 1, B},        [TUI_S_ROOF] = {3, 0, B},
	[TUI_S_ROOF_FP32] = {7, 0, 0},       [TUI_S_SLOPE] = {7, 0, B},
	[TUI_S_RIDGE] = {7, 0, 0},           [TUI_S_POINT] = {0, 3, 0},
	[TUI_S_AXIS] = {7, 0, 0},            [TUI_S_INPUT] = {7, 0, B},
	[TUI_S_OVERLAY] = {7, 0, 0},
};

/* high contrast on white, for a projector in a bright room (a projected white wall washes
 * out pale colours): black (0) and blue (4) text on an explicit light grey (7), and white
 * on black or blue for what stands out, nothing dimmed. Every pair is at least 4.5:1 by
 * WCAG 2.1's contrast ratio on xterm's palette (black on #e5e5e5 16.7:1, blue #0000ee 7.5:1;
 * red, green, cyan, magenta and yellow are 3.7:1 or less there, so none is used). Text on
 * the light ground is never bold: terminals that draw bold in the bright colours would turn
 * black into grey (#7f7f7f, 3.4:1); emphasis there is underlined. */
static const struct tui_style_def projector_light[TUI_S_COUNT] = {
	[TUI_S_NORMAL] = {0, 7, 0},          [TUI_S_DIM] = {0, 7, 0},
	[TUI_S_HEADER] = {7, 4, B},          [TUI_S_FOOTER] = {0, 7, 0},
	[TUI_S_FOOTER_KEY] = {7, 4, B},      [TUI_S_BORDER] = {0, 7, 0},
	[TUI_S_BORDER_FOCUS] = {4, 7, 0},    [TUI_S_TITLE] = {0, 7, U},
	[TUI_S_TITLE_FOCUS] = {7, 4, B},     [TUI_S_GROUP] = {4, 7, U},
	[TUI_S_LABEL] = {0, 7, 0},           [TUI_S_VALUE] = {0, 7, 0},
	[TUI_S_SELECTED] = {7, 0, B},        [TUI_S_CHANGED] = {7, 4, B},
	[TUI_S_GOOD] = {4, 7, 0},            [TUI_S_BAD] = {7, 0, B},
	[TUI_S_WARN] = {4, 7, U},            [TUI_S_ERROR_MSG] = {7, 0, B},
	[TUI_S_INFO_MSG] = {7, 4, B},        [TUI_S_DELTA_UP] = {4, 7, U},
	[TUI_S_DELTA_DOWN] = {4, 7, U},      [TUI_S_MEM_WEIGHTS] = {0, 7, 0},
	[TUI_S_MEM_MASTER] = {4, 7, 0},      [TUI_S_MEM_GRADS] = {0, 7, 0},
	[TUI_S_MEM_OPTIM] = {4, 7, 0},       [TUI_S_MEM_ACT] = {0, 7, 0},
	[TUI_S_MEM_LOGITS] = {4, 7, 0},      [TUI_S_MEM_KV] = {0, 7, 0},
	[TUI_S_MEM_OVERHEAD] = {4, 7, 0},    [TUI_S_MEM_FREE] = {0, 7, 0},
	[TUI_S_MEM_OVER] = {7, 0, B},        [TUI_S_ROOF] = {4, 7, 0},
	[TUI_S_ROOF_FP32] = {0, 7, 0},       [TUI_S_SLOPE] = {0, 7, 0},
	[TUI_S_RIDGE] = {4, 7, 0},           [TUI_S_POINT] = {7, 4, B},
	[TUI_S_AXIS] = {0, 7, 0},            [TUI_S_INPUT] = {0, 7, U},
	[TUI_S_OVERLAY] = {0, 7, 0},
};

/* no colour: attributes only */
static const unsigned mono[TUI_S_COUNT] = {
	[TUI_S_DIM] = D,            [TUI_S_HEADER] = R | B,       [TUI_S_FOOTER_KEY] = R,
	[TUI_S_BORDER_FOCUS] = B,   [TUI_S_TITLE] = B,            [TUI_S_TITLE_FOCUS] = R | B,
	[TUI_S_GROUP] = B | U,      [TUI_S_VALUE] = B,            [TUI_S_SELECTED] = R,
	[TUI_S_CHANGED] = B | U,    [TUI_S_GOOD] = B,             [TUI_S_BAD] = R | B,
	[TUI_S_WARN] = B,           [TUI_S_ERROR_MSG] = R | B,    [TUI_S_INFO_MSG] = B,
	[TUI_S_DELTA_UP] = U,       [TUI_S_DELTA_DOWN] = U,       [TUI_S_MEM_OVER] = R,
	[TUI_S_MEM_FREE] = D,       [TUI_S_ROOF] = B,             [TUI_S_ROOF_FP32] = D,
	[TUI_S_RIDGE] = D,          [TUI_S_POINT] = R | B,        [TUI_S_AXIS] = D,
	[TUI_S_INPUT] = B,          [TUI_S_MEM_WEIGHTS] = B,      [TUI_S_MEM_ACT] = B,
};

void tui_theme_styles(enum tui_theme_id theme, bool color, struct tui_style_def out[TUI_S_COUNT])
{
	int i;

	if (!color) {
		for (i = 0; i < TUI_S_COUNT; i++) {
			out[i].fg = out[i].bg = -1;
			out[i].attr = mono[i];
		}
		if (theme == TUI_THEME_PROJECTOR || theme == TUI_THEME_PROJECTOR_LIGHT)
			for (i = 0; i < TUI_S_COUNT; i++)
				if (i != TUI_S_DIM && i != TUI_S_MEM_FREE && i != TUI_S_AXIS && i != TUI_S_ROOF_FP32 &&
				    i != TUI_S_RIDGE)
					out[i].attr |= B;
		return;
	}
	memcpy(out,
	       theme == TUI_THEME_LIGHT		  ? light
	       : theme == TUI_THEME_PROJECTOR	  ? projector
	       : theme == TUI_THEME_PROJECTOR_LIGHT ? projector_light
						  : dark,
	       sizeof(struct tui_style_def) * TUI_S_COUNT);
}

bool tui_theme_valid(const char *name)
{
	return name != NULL && (strcmp(name, "dark") == 0 || strcmp(name, "light") == 0 || strcmp(name, "projector") == 0 ||
				strcmp(name, "projector-light") == 0);
}
