/*
 * The terminal's background, asked for before the explorer starts: OSC 11 ("ESC ] 11 ; ?
 * ST") makes xterm, VTE, kitty, iTerm2, tmux (when it knows the pane's colour) and most
 * others answer "ESC ] 11 ; rgb:RRRR/GGGG/BBBB ST". Terminals answer in order, so a Primary
 * Device Attributes query (DA1, "ESC [ c") sent after it, which every VT100-like terminal
 * answers, tells that no OSC 11 answer is coming: the wait ends there, or at the deadline
 * when nothing answers at all. Nothing is left unread for ncurses to take as keys.
 * No ncurses here.
 */
#include <errno.h>
#include <poll.h>
#include <string.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "theme.h"

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* One component of rgb:R/G/B: 1 to 4 hex digits, scaled to 0..1. */
static const char *component(const char *p, const char *end, double *out)
{
	unsigned v = 0, max = 0;
	int d, n = 0;

	while (p < end && (d = hexval(*p)) >= 0 && n < 4) {
		v = v * 16 + (unsigned)d;
		max = max * 16 + 15;
		p++;
		n++;
	}
	if (n == 0)
		return NULL;
	*out = (double)v / (double)max;
	return p;
}

int tui_theme_parse_bg(const char *reply, size_t n)
{
	const char *end = reply + n, *p;
	double c[3];
	int i;

	for (p = reply; p + 9 <= end; p++)
		if (memcmp(p, "\x1b]11;rgb:", 9) == 0)
			break;
	if (p + 9 > end)
		return -1;
	p += 9;
	for (i = 0; i < 3; i++) {
		p = component(p, end, &c[i]);
		if (p == NULL || (i < 2 && (p >= end || *p++ != '/')))
			return -1;
	}
	/* relative luminance (ITU-R BT.709 weights, on the sRGB values as sent: a threshold
	 * between black and white, not a colorimetric measure) */
	return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2] > 0.5 ? 1 : 0;
}

/* Whether buf holds a whole DA1 reply: ESC [ ? ... c */
static bool has_da1(const char *buf, size_t n)
{
	size_t i, j;

	for (i = 0; i + 2 < n; i++)
		if (buf[i] == 0x1b && buf[i + 1] == '[' && buf[i + 2] == '?')
			for (j = i + 3; j < n; j++) {
				if (buf[j] == 'c')
					return true;
				if (!((buf[j] >= '0' && buf[j] <= '9') || buf[j] == ';'))
					break;
			}
	return false;
}

static long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int tui_theme_query_bg(int in, int out, int timeout_ms)
{
	static const char q[] = "\x1b]11;?\x1b\\\x1b[c";
	struct termios old, raw;
	char buf[256];
	size_t n = 0;
	long end = now_ms() + timeout_ms;
	int rc = -1;

	if (tcgetattr(in, &old) != 0)
		return -1;
	raw = old;
	raw.c_lflag &= ~(tcflag_t)(ICANON | ECHO);
	raw.c_cc[VMIN] = 0;
	raw.c_cc[VTIME] = 0;
	if (tcsetattr(in, TCSANOW, &raw) != 0)
		return -1;
	if (write(out, q, sizeof q - 1) == (ssize_t)(sizeof q - 1)) {
		while (n < sizeof buf && !has_da1(buf, n)) {
			struct pollfd p = {in, POLLIN, 0};
			long left = end - now_ms();
			ssize_t r;
			if (left <= 0)
				break;
			int pr = poll(&p, 1, (int)left);
			if (pr < 0 && errno == EINTR)
				continue;
			if (pr <= 0)
				break;
			r = read(in, buf + n, sizeof buf - n);
			if (r <= 0)
				break;
			n += (size_t)r;
		}
		rc = tui_theme_parse_bg(buf, n);
	}
	tcsetattr(in, TCSANOW, &old);
	return rc;
}
