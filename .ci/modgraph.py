#!/usr/bin/env python3
"""The module graph of src/: which top-level module (a folder, or a file
of src/) names which (crate::a::b, super::x, use lists). CI fails on any
cycle between top-level modules (a strongly connected component of more
than one). `--print` writes the graph, one module and what it uses per
line; `--dot` the same as Graphviz."""
import os, re, sys

args = [a for a in sys.argv[1:] if not a.startswith('--')]
root = args[0] if args else 'src'
files = {}
for d, _, fs in os.walk(root):
    for f in fs:
        if f.endswith('.rs'):
            p = os.path.join(d, f)
            files[os.path.relpath(p, root)] = open(p).read()


def modpath(rel):
    parts = rel[:-3].split('/')
    if parts[-1] in ('mod', 'lib', 'main'):
        parts = parts[:-1]
    return parts


mods = {tuple(modpath(r)): r for r in files}


def resolve(base, segs):
    # the longest prefix of segs that is a module file
    for n in range(len(segs), 0, -1):
        key = tuple(base + segs[:n])
        if key in mods:
            return mods[key]
    return None


def top(rel):
    p = rel.split('/')
    return p[0][:-3] if len(p) == 1 else p[0]


edges = {r: set() for r in files}
for r, src in files.items():
    me = modpath(r)
    is_mod = r.endswith('mod.rs') or r in ('lib.rs', 'main.rs')
    code = re.sub(r'//[^\n]*', '', src)
    for m in re.finditer(r'\b(crate|super|self)((?:::[A-Za-z_][A-Za-z0-9_]*)+)', code):
        kind = m.group(1)
        segs = m.group(2).strip(':').split('::')
        if kind == 'crate':
            base = []
        elif kind == 'self':
            base = me
        else:
            base = me[:-1]
        t = resolve(base, segs)
        if t and t != r:
            edges[r].add(t)
    for m in re.finditer(r'\b(crate|super)((?:::[A-Za-z_][A-Za-z0-9_]*)*)::\{([^}]*)\}', code):
        kind = m.group(1)
        pre = [x for x in m.group(2).split('::') if x]
        base = [] if kind == 'crate' else me[:-1]
        for item in m.group(3).split(','):
            segs = pre + [x.strip() for x in item.strip().split('::') if x.strip() and x.strip() != 'self']
            segs = [x.split(' ')[0] for x in segs]
            t = resolve(base, segs) if segs else None
            if t and t != r:
                edges[r].add(t)

graph = {}
for a, ts in edges.items():
    ta = top(a)
    if ta in ('lib', 'main'):
        continue
    graph.setdefault(ta, set())
    for b in ts:
        tb = top(b)
        if tb != ta and tb not in ('lib', 'main'):
            graph[ta].add(tb)

if '--print' in sys.argv:
    for a in sorted(graph):
        print(f"{a} -> {' '.join(sorted(graph[a]))}")
if '--dot' in sys.argv:
    print('digraph ccv {')
    for a in sorted(graph):
        for b in sorted(graph[a]):
            print(f'  "{a}" -> "{b}";')
    print('}')

# Tarjan's strongly connected components
index, low, stack, on, comps, n = {}, {}, [], set(), [], [0]
sys.setrecursionlimit(10000)


def visit(v):
    index[v] = low[v] = n[0]
    n[0] += 1
    stack.append(v)
    on.add(v)
    for w in graph.get(v, ()):
        if w not in index:
            visit(w)
            low[v] = min(low[v], low[w])
        elif w in on:
            low[v] = min(low[v], index[w])
    if low[v] == index[v]:
        c = []
        while True:
            w = stack.pop()
            on.discard(w)
            c.append(w)
            if w == v:
                break
        comps.append(c)


for v in sorted(graph):
    if v not in index:
        visit(v)
bad = [sorted(c) for c in comps if len(c) > 1]
for c in bad:
    # the files that make the cycle, to say where to look
    inside = set(c)
    why = sorted(f'{a} -> {b}' for a, ts in edges.items() for b in ts
                 if top(a) in inside and top(b) in inside and top(a) != top(b))
    print('cycle between', ' '.join(c) + ':\n  ' + '\n  '.join(why))
print(len(bad), 'cycles between top-level modules')
sys.exit(1 if bad else 0)
