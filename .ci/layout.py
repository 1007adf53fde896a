#!/usr/bin/env python3
"""Writes the README's layout section from the tree: every top-level
module of src/ (a folder's mod.rs, or a file) with the first sentence of
its `//!` doc, lowest layer first, and what each uses (the graph
`.ci/modgraph.py --print` gives). `python3 .ci/layout.py > /tmp/layout.md`."""
import os, re, subprocess, sys

root = sys.argv[1] if len(sys.argv) > 1 else 'src'
here = os.path.dirname(os.path.abspath(__file__))
graph = {}
out = subprocess.run([sys.executable, os.path.join(here, 'modgraph.py'), root, '--print'],
                     capture_output=True, text=True).stdout
for line in out.splitlines():
    if ' -> ' in line:
        a, b = line.split(' -> ', 1)
        graph[a.strip()] = b.split()


def doc(name):
    for p in (os.path.join(root, name, 'mod.rs'), os.path.join(root, name + '.rs')):
        if os.path.exists(p):
            lines = []
            for l in open(p):
                if not l.startswith('//!'):
                    break
                lines.append(l[3:].strip())
            text = ' '.join(x for x in lines if x)
            first = re.split(r'(?<=[.])\s', text, maxsplit=1)[0].split(': - ')[0]
            return first.rstrip('.') + '.', os.path.isdir(os.path.join(root, name))
    return '', False


mods = sorted(m[:-3] if m.endswith('.rs') else m for m in os.listdir(root)
              if (m.endswith('.rs') and m not in ('lib.rs', 'main.rs')) or os.path.isdir(os.path.join(root, m)))
# lowest layer first: by the depth of what each uses
depth = {}


def d(m, seen=()):
    if m in depth:
        return depth[m]
    if m in seen:
        return 0
    depth[m] = 1 + max((d(x, seen + (m,)) for x in graph.get(m, []) if x in mods), default=0)
    return depth[m]


for m in mods:
    d(m)
for m in sorted(mods, key=lambda m: (depth[m], m)):
    text, is_dir = doc(m)
    path = f'src/{m}/' if is_dir else f'src/{m}.rs'
    uses = ', '.join(graph.get(m, [])) or 'nothing of ccv'
    print(f'- `{path}` {text} Uses: {uses}.')
