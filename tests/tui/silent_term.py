#!/usr/bin/env python3
"""Runs the explorer on a pseudo-terminal that answers nothing (no OSC 11, no DA1: a
serial console, a minimal emulator) and checks that it still draws within a deadline and
quits with q, status 0. Usage: silent_term.py NAPKIN [ARGS...]"""
import os, pty, select, sys, time, struct, fcntl, termios

def main():
    argv = sys.argv[1:]
    pid, fd = pty.fork()
    if pid == 0:
        os.environ["TERM"] = "xterm-256color"
        os.environ["LC_ALL"] = "C.UTF-8"
        os.execv(argv[0], argv)
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 120, 0, 0))
    out, start, drawn = b"", time.time(), None
    while time.time() - start < 10:
        r, _, _ = select.select([fd], [], [], 0.05)
        if r:
            try:
                data = os.read(fd, 65536)
            except OSError:
                break
            if not data:
                break
            out += data
        if b"Memory per GPU" in out and drawn is None:
            drawn = time.time() - start
            break
    if drawn is None:
        print("FAIL: the explorer did not draw within 10 s on a terminal that answers nothing")
        os.kill(pid, 9)
        return 1
    if b"\x1b]11;?" not in out:
        print("FAIL: the explorer did not ask for the background (OSC 11)")
        os.kill(pid, 9)
        return 1
    os.write(fd, b"q")
    end = time.time() + 10
    while time.time() < end:
        try:
            r, _, _ = select.select([fd], [], [], 0.05)
            if r:
                os.read(fd, 65536)
        except OSError:
            pass
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            code = os.waitstatus_to_exitcode(status) if hasattr(os, "waitstatus_to_exitcode") else status >> 8
            if code != 0:
                print("FAIL: exit status %d" % code)
                return 1
            print("drew in %.2f s with no answer from the terminal; q exited 0" % drawn)
            return 0
    print("FAIL: q did not quit")
    os.kill(pid, 9)
    return 1

sys.exit(main())
