#!/usr/bin/env python3
"""Finds files of one folder that call each other in a circle.

usage: scripts/file-circles.py [--edges] LIB.a|OBJDIR ...

Give one library: its static archive (build/src/tui/libnapkin_tui.a, which
holds exactly the objects of its current sources), or the folder of its object
files (build/src/tui/CMakeFiles/napkin_tui.dir; an object whose source was
removed may linger there).  A file A depends on a file B when A's object
leaves a symbol undefined that B's object defines (read with nm, or $NM).
Each strongly connected group of two or more files is a circle: it is printed
with, for each file, the files it uses inside the group and through which
symbols.  --edges prints every dependency instead.  Exit status 1 when a
circle exists, 2 on a usage error, 0 otherwise."""
import os
import subprocess
import sys


def stem_of(name):
    """canvas.c.o -> canvas"""
    stem = os.path.basename(name)
    for end in (".o", ".obj", ".c", ".cc", ".cpp"):
        if stem.endswith(end):
            stem = stem[:-len(end)]
    return stem


def add_symbol(table, member, name, kind):
    defined, undefined = table.setdefault(stem_of(member), (set(), set()))
    if kind == "U":
        undefined.add(name)
    elif kind.isupper() and kind in "TDRBCGSVW":
        defined.add(name)


NM = os.environ.get("NM") or "nm"


def read_archive(path, table):
    """nm -P -A prints "LIB.a[member.o]: name type value size" per symbol."""
    out = subprocess.run([NM, "-P", "-A", path], capture_output=True, text=True,
                         check=True).stdout
    for line in out.splitlines():
        head, _, rest = line.partition("]: ")
        if not rest or "[" not in head:
            continue
        f = rest.split()
        if len(f) >= 2:
            add_symbol(table, head[head.rindex("[") + 1:], f[0], f[1])


def read_object(path, table):
    out = subprocess.run([NM, "-P", path], capture_output=True, text=True,
                         check=True).stdout
    table.setdefault(stem_of(path), (set(), set()))
    for line in out.splitlines():
        f = line.split()
        if len(f) >= 2:
            add_symbol(table, path, f[0], f[1])


def read(paths):
    """{file: (defined symbols, undefined symbols)} over every object given."""
    table = {}
    for p in paths:
        if os.path.isdir(p):
            for root, _, names in os.walk(p):
                for n in sorted(names):
                    if n.endswith(".o"):
                        read_object(os.path.join(root, n), table)
        elif p.endswith(".a"):
            read_archive(p, table)
        else:
            read_object(p, table)
    return table


def graph(table):
    owner = {}
    for stem, (defined, _) in table.items():
        for s in defined:
            owner[s] = stem
    edges = {}
    for stem, (_, undefined) in table.items():
        out = {}
        for s in sorted(undefined):
            o = owner.get(s)
            if o is not None and o != stem:
                out.setdefault(o, []).append(s)
        edges[stem] = out
    return edges


def groups(edges):
    """Strongly connected components (iterative Tarjan), only those of 2+."""
    index, low, stack, on, comps = {}, {}, [], set(), []
    counter = 0
    for start in sorted(edges):
        if start in index:
            continue
        work = [(start, iter(sorted(edges[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on.add(start)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = counter
                    counter += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(edges[w]))))
                elif w in on:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    x = stack.pop()
                    on.discard(x)
                    comp.append(x)
                    if x == v:
                        break
                if len(comp) > 1:
                    comps.append(sorted(comp))
    return comps


def main(argv):
    show_edges = "--edges" in argv
    paths = [a for a in argv if a != "--edges"]
    if not paths or any(not os.path.exists(p) for p in paths):
        sys.stderr.write(__doc__)
        return 2
    table = read(paths)
    if not table:
        sys.stderr.write("file-circles: no object files in %s\n" % " ".join(paths))
        return 2
    edges = graph(table)
    if show_edges:
        for a in sorted(edges):
            for b, syms in sorted(edges[a].items()):
                print("%s -> %s (%s)" % (a, b, " ".join(syms)))
    comps = groups(edges)
    for comp in comps:
        print("circle of %d: %s" % (len(comp), " ".join(comp)))
        inside = set(comp)
        for a in comp:
            for b, syms in sorted(edges[a].items()):
                if b in inside:
                    print("  %s -> %s: %s" % (a, b, " ".join(syms)))
    if not comps:
        print("no circles among %d files" % len(edges))
    return 1 if comps else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
