/*
 * term: the only file that includes ncurses. Sets the terminal up (with the theme that suits
 * its background when none was chosen: theme_bg.c), turns keys and mouse
 * events into struct tui_event, flushes each composed canvas once (ncurses sends only the
 * cells that changed: no flicker), and restores the terminal on every way out.
 *
 * The loop blocks in wget_wch() with no timeout while nothing is highlighted: an idle
 * explorer wakes up zero times a second. A timeout is set only until the next highlight
 * fades, or while a GPU probe or the live GPU panel runs (view_gpu_loop.c: every 100 ms for a
 * probe, when the next sample is due for the panel). SIGINT, SIGTERM and SIGHUP set a flag (installed before ncurses, without
 * SA_RESTART, so the blocking read returns); the loop leaves, endwin() runs, and the
 * signal is raised again with its default action so the exit status tells of it.
 */
#define _XOPEN_SOURCE_EXTENDED 1
#include <errno.h>
#include <langinfo.h>
#include <locale.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <wchar.h>

#include <curses.h>
#include <term.h>

#include "model.h"

/* Events taken in, at most, before a frame is drawn while input keeps coming. */
#define TUI_BURST 64
#include "theme.h"
#include "i18n.h"

static volatile sig_atomic_t tui_signal;

static void tui_on_signal(int sig)
{
	tui_signal = sig;
}

/* Whether the terminal's input is gone for good (hung up, closed): a read there fails at
 * once forever. */
static bool tui_input_gone(void)
{
	struct pollfd p = {STDIN_FILENO, POLLIN, 0};

	return poll(&p, 1, 0) == 1 && (p.revents & (POLLHUP | POLLERR | POLLNVAL)) != 0;
}

static uint64_t tui_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

struct tui_term {
	SCREEN *scr;
	bool ascii;
	attr_t attr[TUI_S_COUNT];
	short pair[TUI_S_COUNT];
	struct sigaction old_int, old_term, old_hup;
	bool signals_set;
};

/* Checks $TERM before ncurses would exit on its own: a terminfo entry that can address the
 * cursor. Returns 0 or an error code with err set. */
static int tui_check_terminal(struct napkin_err *err)
{
	const char *term = getenv("TERM");
	int errret = 0, rc = NAPKIN_OK;
	char *cup;

	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO))
		return util_err_set(err, NAPKIN_EINVAL, _("the explorer needs a terminal (use `napkin report` in scripts)"));
	if (term == NULL || term[0] == '\0')
		return util_err_set(err, NAPKIN_EINVAL, _("TERM is not set: the explorer needs a terminal type "
							"(use `napkin report` for text)"));
	if (setupterm(NULL, STDOUT_FILENO, &errret) != OK) {
		if (errret == -1)
			return util_err_set(err, NAPKIN_ENOENT, _("no terminfo database found (TERM=%s); use `napkin report`"),
					    term);
		return util_err_set(err, NAPKIN_ENOENT,
				    _("no terminfo entry for TERM=%s; try TERM=xterm-256color, or `napkin report`"), term);
	}
	cup = tigetstr("cup");
	if (cup == NULL || cup == (char *)-1 || tigetflag("hc") > 0)
		rc = util_err_set(err, NAPKIN_EINVAL,
				  _("TERM=%s cannot move the cursor, which the explorer needs; use `napkin report` "
				  "(or a terminal such as xterm-256color)"),
				  term);
	del_curterm(cur_term);
	return rc;
}

static void tui_set_signals(struct tui_term *t)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = tui_on_signal;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = 0; /* no SA_RESTART: the blocking read returns */
	sigaction(SIGINT, &sa, &t->old_int);
	sigaction(SIGTERM, &sa, &t->old_term);
	sigaction(SIGHUP, &sa, &t->old_hup);
	t->signals_set = true;
}

static void tui_restore_signals(struct tui_term *t)
{
	if (!t->signals_set)
		return;
	sigaction(SIGINT, &t->old_int, NULL);
	sigaction(SIGTERM, &t->old_term, NULL);
	sigaction(SIGHUP, &t->old_hup, NULL);
	t->signals_set = false;
}

static void tui_setup_styles(struct tui_term *t, enum tui_theme_id theme, bool color)
{
	struct tui_style_def defs[TUI_S_COUNT];
	int i;

	if (color && has_colors() && start_color() == OK) {
		use_default_colors();
	} else {
		color = false;
	}
	tui_theme_styles(theme, color, defs);
	for (i = 0; i < TUI_S_COUNT; i++) {
		attr_t a = A_NORMAL;
		if (defs[i].attr & TUI_A_BOLD)
			a |= A_BOLD;
		if (defs[i].attr & TUI_A_REVERSE)
			a |= A_REVERSE;
		if (defs[i].attr & TUI_A_UNDERLINE)
			a |= A_UNDERLINE;
		if (defs[i].attr & TUI_A_DIM)
			a |= A_DIM;
		t->attr[i] = a;
		t->pair[i] = 0;
		if (color && i + 1 < COLOR_PAIRS) {
			init_pair((short)(i + 1), defs[i].fg, defs[i].bg);
			t->pair[i] = (short)(i + 1);
		}
	}
	if (color && (theme == TUI_THEME_PROJECTOR || theme == TUI_THEME_PROJECTOR_LIGHT))
		bkgdset((chtype)COLOR_PAIR(t->pair[TUI_S_NORMAL]));
}

/* Sends the canvas to ncurses. A wide character goes out once, from its first cell, when
 * the terminal's locale agrees that it takes two columns; otherwise (no UTF-8, or a libc
 * that disagrees) it is drawn as its ASCII stand-in and a space, so that the columns
 * after it stay where the canvas put them. The same holds for a narrow character the
 * locale would draw wide or not at all. */
static void tui_flush(struct tui_term *t, const struct tui_canvas *c, bool clear_all)
{
	int x, y;
	cchar_t cc;
	wchar_t wc[2];

	if (clear_all)
		clearok(curscr, TRUE);
	for (y = 0; y < c->h; y++) {
		bool covered = false; /* the previous cell went out as a two-column character */
		for (x = 0; x < c->w; x++) {
			const struct tui_cell *cell = &c->cells[(size_t)y * (size_t)c->w + (size_t)x];
			int s = cell->style < TUI_S_COUNT ? cell->style : TUI_S_NORMAL;
			uint32_t ch = cell->ch;
			bool wide = x + 1 < c->w && c->cells[(size_t)y * (size_t)c->w + (size_t)x + 1].ch == TUI_CELL_TAIL;
			if (ch == TUI_CELL_TAIL) {
				if (covered) {
					covered = false;
					continue;
				}
				ch = ' ';
			}
			covered = false;
			if (ch >= 0x80 && (t->ascii || wcwidth((wchar_t)ch) != (wide ? 2 : 1)))
				ch = (uint32_t)(unsigned char)tui_ascii_fallback(ch);
			else if (wide)
				covered = true;
			wc[0] = (wchar_t)ch;
			wc[1] = L'\0';
			setcchar(&cc, wc, t->attr[s], t->pair[s], NULL);
			mvwadd_wch(stdscr, y, x, &cc);
		}
	}
	wnoutrefresh(stdscr);
	doupdate();
}

static bool tui_read_event(wint_t wch, int rc, struct tui_event *ev)
{
	memset(ev, 0, sizeof *ev);
	if (rc == KEY_CODE_YES) {
		switch (wch) {
		case KEY_UP: ev->key = TUI_KEY_UP; return true;
		case KEY_DOWN: ev->key = TUI_KEY_DOWN; return true;
		case KEY_LEFT: ev->key = TUI_KEY_LEFT; return true;
		case KEY_RIGHT: ev->key = TUI_KEY_RIGHT; return true;
		case KEY_PPAGE: ev->key = TUI_KEY_PGUP; return true;
		case KEY_NPAGE: ev->key = TUI_KEY_PGDN; return true;
		case KEY_HOME: ev->key = TUI_KEY_HOME; return true;
		case KEY_END: ev->key = TUI_KEY_END; return true;
		case KEY_ENTER: ev->key = TUI_KEY_ENTER; return true;
		case KEY_BTAB: ev->key = TUI_KEY_BTAB; return true;
		case KEY_BACKSPACE: ev->key = TUI_KEY_BACKSPACE; return true;
		case KEY_DC: ev->key = TUI_KEY_DELETE; return true;
		case KEY_RESIZE: ev->key = TUI_KEY_RESIZE; return true;
		case KEY_MOUSE: {
			MEVENT me;
			if (getmouse(&me) != OK)
				return false;
			ev->key = TUI_KEY_MOUSE;
			ev->x = me.x;
			ev->y = me.y;
			if (me.bstate & (BUTTON1_PRESSED | BUTTON1_CLICKED | BUTTON1_RELEASED))
				ev->button = TUI_BTN_CLICK;
			else if (me.bstate & BUTTON4_PRESSED)
				ev->button = TUI_BTN_WHEEL_UP;
#ifdef BUTTON5_PRESSED
			else if (me.bstate & BUTTON5_PRESSED)
				ev->button = TUI_BTN_WHEEL_DOWN;
#endif
			else
				return false;
			return true;
		}
		default:
			if (wch == KEY_F(1)) {
				ev->key = TUI_KEY_F1;
				return true;
			}
			return false;
		}
	}
	switch (wch) {
	case 27: ev->key = TUI_KEY_ESC; return true;
	case '\r': case '\n': ev->key = TUI_KEY_ENTER; return true;
	case '\t': ev->key = TUI_KEY_TAB; return true;
	case 127: case 8: ev->key = TUI_KEY_BACKSPACE; return true;
	case 3: ev->key = TUI_KEY_CTRL_C; return true;
	case 12: ev->key = TUI_KEY_CTRL_L; return true;
	case 21: ev->key = TUI_KEY_CTRL_U; return true;
	default: break;
	}
	if (wch < 0x20)
		return false;
	ev->key = (int)wch;
	return true;
}

/* One frame: the model drawn into the canvas, the canvas flushed; the reactions and the
 * burst start again. */
static void frame(struct tui_model *m, struct tui_term *t, struct tui_canvas *c, unsigned *flags, int *burst)
{
	tui_draw(m, c, tui_now_ms());
	tui_flush(t, c, (*flags & TUI_REACT_CLEAR) != 0);
	*flags = 0;
	*burst = 0;
}

/* The name of the locale the environment asks for the character type, POSIX's order:
 * LC_ALL, else LC_CTYPE, else LANG; NULL when none is set. */
static const char *tui_ctype_asked(void)
{
	static const char *const vars[] = {"LC_ALL", "LC_CTYPE", "LANG"};
	size_t i;

	for (i = 0; i < sizeof vars / sizeof vars[0]; i++) {
		const char *v = getenv(vars[i]);
		if (v != NULL && v[0] != '\0')
			return v;
	}
	return NULL;
}

/* Whether a locale name's charset (after '.', up to '@') is UTF-8: "zh_CN.UTF-8",
 * "zh_CN.utf8", "en_US.UTF-8@euro". */
static bool tui_names_utf8(const char *name)
{
	const char *dot = name != NULL ? strchr(name, '.') : NULL;
	char cs[8];
	size_t n = 0;

	if (dot == NULL)
		return false;
	for (dot++; dot[n] != '\0' && dot[n] != '@' && n < sizeof cs - 1; n++)
		cs[n] = (char)(dot[n] >= 'A' && dot[n] <= 'Z' ? dot[n] - 'A' + 'a' : dot[n]);
	cs[n] = '\0';
	if (dot[n] != '\0' && dot[n] != '@')
		return false; /* a longer charset name */
	return strcmp(cs, "utf-8") == 0 || strcmp(cs, "utf8") == 0;
}

/* The character type only (numbers stay in the C locale). A locale that was never generated
 * (LANG=zh_CN.UTF-8 in a container, WSL, a minimal Debian image) makes setlocale() fail and
 * would leave ncurses in ASCII; the language does not depend on it (napkin reads its own
 * catalogues, i18n.h), and the charset the name gives is the terminal's: a UTF-8 one draws
 * with C.UTF-8 (glibc 2.35 and later build it in), as tmux does in the same case. */
static void tui_set_ctype(void)
{
	static const char *const utf8[] = {"C.UTF-8", "C.utf8", "en_US.UTF-8"};
	size_t i;

	if (setlocale(LC_CTYPE, "") != NULL || !tui_names_utf8(tui_ctype_asked()))
		return;
	for (i = 0; i < sizeof utf8 / sizeof utf8[0]; i++)
		if (setlocale(LC_CTYPE, utf8[i]) != NULL)
			return;
}

int tui_run(struct engine_scenario *sc, struct preset_registry *reg, const struct tui_options *opt,
	    struct napkin_err *err)
{
	struct tui_term t;
	struct tui_model *m = NULL;
	struct tui_canvas canvas;
	const char *cs, *nc = getenv("NO_COLOR");
	unsigned flags = TUI_REACT_REDRAW;
	int burst = 0; /* events taken in since the last frame */
	int rc = NAPKIN_OK, sig = 0, bg = -1;
	bool asked = false, rescued = false;
	struct tui_options o;
	char rescue[600];

	memset(&t, 0, sizeof t);
	tui_canvas_init(&canvas);
	o = opt != NULL ? *opt : (struct tui_options){0};
	if (nc != NULL && nc[0] != '\0')
		o.no_color = true;
	tui_set_ctype();
	cs = nl_langinfo(CODESET);
	t.ascii = cs == NULL || strcmp(cs, "UTF-8") != 0;

	rc = tui_check_terminal(err);
	if (rc != NAPKIN_OK)
		goto out;
	/* no theme chosen: the one that matches the terminal's background where it says
	 * (OSC 11, a 300 ms deadline); dark otherwise, whose colours read on both */
	if (o.theme == NULL && !o.no_color) {
		asked = true;
		bg = tui_theme_query_bg(STDIN_FILENO, STDOUT_FILENO, 300);
		o.theme = bg == 1 ? "light" : "dark";
	}
	m = calloc(1, sizeof *m);
	if (m == NULL) {
		rc = util_err_set(err, NAPKIN_ENOMEM, _("out of memory"));
		goto out;
	}
	tui_model_init(m, sc, reg, &o);
	if (bg == 1 && m->msg[0] == '\0')
		tui_model_message(m, false, "%s", _("a light terminal background: the light theme (--theme dark keeps the dark one)"));
	m->ascii = t.ascii;

	tui_signal = 0;
	tui_set_signals(&t);
	t.scr = newterm(NULL, stdout, stdin);
	if (t.scr == NULL) {
		rc = util_err_set(err, NAPKIN_EINVAL, _("cannot start the terminal (TERM=%s)"), getenv("TERM"));
		goto out;
	}
	set_term(t.scr);
	raw();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	set_escdelay(25);
	curs_set(0);
	if (asked)
		flushinp(); /* what the background query left (a reply that came late) is no key */
	tui_setup_styles(&t, m->theme, !o.no_color);
	m->color = !o.no_color && has_colors();
	if (!o.no_mouse) {
		mousemask(BUTTON1_PRESSED | BUTTON4_PRESSED
#ifdef BUTTON5_PRESSED
				  | BUTTON5_PRESSED
#endif
			  ,
			  NULL);
		mouseinterval(0);
	}
	tui_model_set_size(m, COLS, LINES);

	while (!m->quit && !tui_signal) {
		wint_t wch = 0;
		int r, to;
		struct tui_event ev;
		bool dirty = (flags & (TUI_REACT_REDRAW | TUI_REACT_EVAL)) != 0;

		/* A frame is drawn when no input is waiting (or after TUI_BURST events): a burst of
		 * keys, a paste or a storm of resizes is taken in first and drawn once, as htop and
		 * tmux do, so the screen never falls behind the input. */
		if (dirty && burst >= TUI_BURST) {
			frame(m, &t, &canvas, &flags, &burst);
			dirty = false;
		}
		to = dirty ? 0 : tui_model_timeout(m, tui_now_ms());
		wtimeout(stdscr, to);
		r = wget_wch(stdscr, &wch);
		if (tui_signal)
			break;
		if (r == ERR && dirty) {
			/* nothing waiting: draw now, then wait as long as the model allows */
			frame(m, &t, &canvas, &flags, &burst);
			continue;
		}
		if (r == ERR && tui_input_gone()) {
			/* the terminal went away (its window closed, the tmux server killed) without a
			 * SIGHUP reaching us: leave as a hangup would, not spin on a dead input */
			tui_signal = SIGHUP;
			break;
		}
		if (r == ERR) {
			flags |= tui_model_tick(m, tui_now_ms());
			continue;
		}
		burst++;
		if (!tui_read_event(wch, r, &ev))
			continue;
		if (ev.key == TUI_KEY_RESIZE)
			tui_model_set_size(m, COLS, LINES);
		flags |= tui_model_event(m, &ev, tui_now_ms());
	}
	*sc = m->sc;
	/* left at once with C-c and unsaved changes: they go to a new file, as nano's
	 * emergency save does, and the terminal says where (a hangup or SIGTERM leaves as
	 * the signal would: nothing is written behind the back of whoever sent it) */
	if (m->interrupted) {
		rc = TUI_EXIT_INTERRUPT;
		rescued = tui_model_rescue(m, rescue, sizeof rescue);
	}
out:
	if (t.scr != NULL) {
		endwin();
		delscreen(t.scr);
	}
	if (rescued)
		fprintf(stderr, _("napkin: the unsaved scenario is in %s (napkin explore --scenario %s opens it)\n"), rescue,
			rescue);
	sig = tui_signal;
	tui_restore_signals(&t);
	if (m != NULL) {
		tui_model_fini(m);
		free(m);
	}
	tui_canvas_fini(&canvas);
	if (sig != 0) {
		/* leave as the signal would have: the terminal is already restored */
		signal(sig, SIG_DFL);
		raise(sig);
	}
	return rc;
}
