#!/usr/bin/env python3
"""tui_bench: the explorer's figures, measured from outside through a private tmux server.

  bench/tui_bench.py [--napkin build/napkin] [--starts 20] [--keys 200] [--idle 10]

Printed, not asserted (medians; the machines are shared and noisy):
  startup     from asking tmux to start `napkin explore` to the end of its first frame
  keystroke   from a key sent to the end of the redraw it causes (Right/Left: batch up/down),
              and in the sweep (-/+: the sequence) and heatmap (y: the result) views
  idle        CPU time and wakeups per second over IDLE seconds with nothing happening
  memory      peak resident set (VmHWM) of the explorer after the keys, and of a report

How: a tmux control-mode client (`tmux -C`) is attached to the session. tmux tells it, as a
`%output` line, every time the program writes to its terminal, so the time of a frame is the
time of the last `%output` of a burst (a burst ends after QUIET ms without output), with no
screen polling. The program runs under `exec`, so the pane's pid is napkin's. Idle CPU comes
from /proc/PID/schedstat (nanoseconds on CPU) and wakeups from /proc/PID/status (context
switches): a program blocked in getch() without a timeout wakes 0 times a second.
"""
import argparse
import os
import re
import select
import shlex
import statistics
import subprocess
import sys
import time

ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
ap.add_argument("--napkin", default="build/napkin")
ap.add_argument("--starts", type=int, default=20, help="startups to time")
ap.add_argument("--keys", type=int, default=200, help="keystrokes to time")
ap.add_argument("--idle", type=float, default=10.0, help="seconds of idle to watch")
ap.add_argument("--quiet-ms", type=float, default=40.0, help="output gap that ends a frame")
ap.add_argument("--rss-tool", default=None, help="bench_rss (default: next to napkin, in bench/)")
ap.add_argument("--width", type=int, default=120)
ap.add_argument("--height", type=int, default=40)
a = ap.parse_args()

napkin = os.path.abspath(a.napkin)
if not os.access(napkin, os.X_OK):
    sys.exit(f"tui_bench: no {napkin} (build first)")
sock = f"napkin-bench-{os.getpid()}"
env = dict(os.environ, LC_ALL="C.UTF-8", LANG="C.UTF-8")
env.pop("TMUX", None)
env.pop("NO_COLOR", None)


def tmux(*args, check=True):
    return subprocess.run(["tmux", "-L", sock, "-f", "/dev/null", *args], env=env,
                          capture_output=True, text=True, check=check).stdout


class Control:
    """A tmux control-mode client: commands in, notifications out, with timestamps."""

    def __init__(self):
        self.p = subprocess.Popen(["tmux", "-L", sock, "-f", "/dev/null", "-C", "attach", "-t", "bench"],
                                  env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0)
        self.fd = self.p.stdout.fileno()
        self.buf = b""

    def send(self, cmd):
        self.p.stdin.write(cmd.encode() + b"\n")

    def lines(self, timeout):
        """Lines that arrive within timeout seconds (None when nothing came), with the time."""
        r, _, _ = select.select([self.fd], [], [], max(0.0, timeout))
        if not r:
            return None
        now = time.monotonic()
        data = os.read(self.fd, 1 << 16)
        if not data:
            return None
        self.buf += data
        *lines, self.buf = self.buf.split(b"\n")
        return now, lines

    def drain(self, seconds):
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            self.lines(end - time.monotonic())

    def frame(self, t0, limit=5.0):
        """Waits for a burst of output after t0: (first, last) times, or None."""
        first = last = None
        deadline = t0 + limit
        while True:
            now = time.monotonic()
            wait = a.quiet_ms / 1000 if first is not None else deadline - now
            if first is None and now > deadline:
                return None
            got = self.lines(wait)
            if got is None:
                if first is not None:
                    return first, last
                continue
            when, lines = got
            if any(ln.startswith(b"%output") for ln in lines):
                first = first if first is not None else when
                last = when
            if first is not None and when - first > limit:
                return first, last

    def close(self):
        try:
            self.send("detach-client")
            self.p.wait(timeout=5)
        except Exception:
            self.p.kill()


def pane_pid():
    return int(tmux("display-message", "-p", "-t", "bench", "#{pane_pid}").strip())


def proc_sample(pid):
    ns = int(open(f"/proc/{pid}/schedstat").read().split()[0])
    st = open(f"/proc/{pid}/status").read()
    vol = int(re.search(r"voluntary_ctxt_switches:\s+(\d+)", st).group(1))
    invol = int(re.search(r"nonvoluntary_ctxt_switches:\s+(\d+)", st).group(1))
    hwm = int(re.search(r"VmHWM:\s+(\d+)", st).group(1))
    return ns, vol + invol, hwm


def median(xs):
    return statistics.median(xs) if xs else float("nan")


def ms(x):
    return f"{x * 1000:.2f} ms" if x == x else "-"


results = []


def row(what, value, aim, ok, note=""):
    results.append((what, value, aim, "ok" if ok else "OVER", note))


cc = None
try:
    # a placeholder pane; each start replaces it with the explorer
    tmux("new-session", "-d", "-s", "bench", "-x", str(a.width), "-y", str(a.height), "sleep 100000")
    tmux("set-option", "-g", "remain-on-exit", "on")
    cc = Control()
    cc.drain(0.3)
    cmd = "exec " + shlex.quote(napkin) + " explore"

    # ------------------------------------------------------------------ startup
    first_ms, frame_ms = [], []
    for i in range(a.starts + 1):
        t0 = time.monotonic()
        cc.send(f"respawn-pane -k -t bench {shlex.quote(cmd)}")
        got = cc.frame(t0)
        if got is None:
            sys.exit("tui_bench: the explorer drew nothing within 5 s:\n" + tmux("capture-pane", "-p", "-t", "bench"))
        if i > 0:  # the first start warms the page cache
            first_ms.append(got[0] - t0)
            frame_ms.append(got[1] - t0)
    screen = tmux("capture-pane", "-p", "-t", "bench")
    if "Memory per GPU" not in screen:
        sys.exit("tui_bench: the first frame is not the explorer's main screen:\n" + screen)
    row("startup to the first frame", ms(median(frame_ms)), "< 20 ms", median(frame_ms) < 0.020,
        f"first byte {ms(median(first_ms))}; n={len(frame_ms)}")

    pid = pane_pid()
    cc.drain(0.5)

    # ------------------------------------------------------------------ idle
    s0, t0 = proc_sample(pid), time.monotonic()
    redraws = 0
    end = t0 + a.idle
    while time.monotonic() < end:
        got = cc.lines(end - time.monotonic())
        if got is not None and any(ln.startswith(b"%output") for ln in got[1]):
            redraws += 1
    s1, t1 = proc_sample(pid), time.monotonic()
    dt = t1 - t0
    wakeups = (s1[1] - s0[1]) / dt
    cpu_ms = (s1[0] - s0[0]) / 1e6
    row(f"idle for {a.idle:g} s: wakeups", f"{wakeups:.2f} /s", "0 /s", s1[1] == s0[1],
        f"CPU {cpu_ms:.3f} ms; {redraws} redraws")

    # ------------------------------------------------------------------ keystrokes
    first_k, last_k = [], []
    for i in range(a.keys):
        key = "Right" if i % 2 == 0 else "Left"
        t0 = time.monotonic()
        cc.send(f"send-keys -t bench {key}")
        got = cc.frame(t0, limit=2.0)
        if got is None:
            sys.exit(f"tui_bench: no redraw after key {i} ({key})")
        first_k.append(got[0] - t0)
        last_k.append(got[1] - t0)
    last_k.sort()
    p95 = last_k[min(len(last_k) - 1, int(0.95 * len(last_k)))]
    row("keystroke to the redrawn frame", ms(median(last_k)), "< 2 ms", median(last_k) < 0.002,
        f"first byte {ms(median(first_k))}, p95 {ms(p95)}; n={len(last_k)}")

    # ------------------------------------------------------------------ trade-off views
    # the sweep (S): - and + step the sequence, so each key recomputes the whole curve;
    # the heatmap (H): y switches the result, so each key recomputes every cell on screen
    def view_keys(label, open_key, seq, aim):
        cc.send(f"send-keys -t bench {open_key}")
        cc.frame(time.monotonic(), limit=2.0)
        cc.drain(0.2)
        times = []
        for i in range(a.keys // 2):
            key = seq[i % len(seq)]
            t0 = time.monotonic()
            cc.send(f"send-keys -t bench {key}")
            got = cc.frame(t0, limit=2.0)
            if got is None:
                sys.exit(f"tui_bench: no redraw after key {i} ({key}) in {label}")
            times.append(got[1] - t0)
        cc.send("send-keys -t bench Escape")
        cc.frame(time.monotonic(), limit=2.0)
        cc.drain(0.2)
        row(label, ms(median(times)), f"< {aim * 1000:g} ms", median(times) < aim, f"n={len(times)}")

    view_keys("sweep view: a knob stepped (-/+)", "S", ["-", "+"], 0.002)
    view_keys("heatmap view: result switched (y)", "H", ["y"], 0.010)

    # ------------------------------------------------------------------ memory
    hwm_kb = proc_sample(pid)[2]
    row("peak RSS, the explorer", f"{hwm_kb / 1024:.1f} MB", "< 16 MB", hwm_kb < 16 * 1024, "VmHWM after the keys")
    cc.send("send-keys -t bench q")
    cc.drain(0.3)
finally:
    if cc is not None:
        cc.close()
    tmux("kill-server", check=False)
    try:
        os.unlink(f"/tmp/tmux-{os.getuid()}/{sock}")
    except OSError:
        pass

# a report's peak memory, through bench_rss (a small C parent: see bench_rss.c)
rss_tool = a.rss_tool or os.path.join(os.path.dirname(napkin), "bench", "bench_rss")
if os.access(rss_tool, os.X_OK):
    out = subprocess.run([rss_tool, napkin, "report", "--format", "json"], stdout=subprocess.DEVNULL,
                         stderr=subprocess.PIPE, text=True, check=True).stderr
    rep_kb = int(re.search(r"maxrss_kb=(\d+)", out).group(1))
    row("peak RSS, napkin report", f"{rep_kb / 1024:.1f} MB", "< 16 MB", rep_kb < 16 * 1024, "ru_maxrss (bench_rss)")
else:
    print(f"tui_bench: no {rss_tool}: the report's memory is not measured", file=sys.stderr)

print(f"napkin explorer benchmark ({a.width}x{a.height} in {tmux('-V', check=False).strip() or 'tmux'}; medians)")
for what, value, aim, verdict, note in results:
    print(f"  {what:<40} {value:>12}   aim {aim:<9} {verdict:<4} {note}")
