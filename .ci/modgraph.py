#!/usr/bin/env python3
"""The file-level module graph of src/ must have no cycle between files of
different folders (model <- rows <- app, view; see the README layout)."""
# File-level module graph of src/: which files a file names (crate::a::b, super::x, self),
# then the strongly connected components that span more than one folder.
import os,re,sys
root=sys.argv[1] if len(sys.argv)>1 else 'src'
files={}
for d,_,fs in os.walk(root):
    for f in fs:
        if f.endswith('.rs'):
            p=os.path.join(d,f); files[os.path.relpath(p,root)]=open(p).read()
def modpath(rel):
    parts=rel[:-3].split('/')
    if parts[-1] in ('mod','lib','main'): parts=parts[:-1]
    return parts
mods={tuple(modpath(r)):r for r in files}
def resolve(base, segs):
    # longest prefix of segs that is a module file
    for n in range(len(segs),0,-1):
        key=tuple(base+segs[:n])
        if key in mods: return mods[key]
    return None
edges={r:set() for r in files}
for r,src in files.items():
    me=modpath(r)
    is_mod = r.endswith('mod.rs') or r in ('lib.rs','main.rs')
    src2=re.sub(r'//[^\n]*','',src)
    for m in re.finditer(r'\b(crate|super|self)((?:::[A-Za-z_][A-Za-z0-9_]*)+)',src2):
        kind=m.group(1); segs=m.group(2).strip(':').split('::')
        if kind=='crate': base=[]
        elif kind=='self': base=me if is_mod else me[:-1]+[me[-1]]
        else: base=(me[:-1] if is_mod else me[:-1])
        if kind=='self' and not is_mod: base=me
        t=resolve(base,segs)
        if t and t!=r: edges[r].add(t)
    for m in re.finditer(r'\b(crate|super)((?:::[A-Za-z_][A-Za-z0-9_]*)*)::\{([^}]*)\}',src2):
        kind=m.group(1); pre=[x for x in m.group(2).split('::') if x]
        base=[] if kind=='crate' else me[:-1]
        for item in m.group(3).split(','):
            segs=pre+[x.strip() for x in item.strip().split('::') if x.strip() and x.strip()!='self']
            segs=[x.split(' ')[0] for x in segs]
            t=resolve(base,segs) if segs else None
            if t and t!=r: edges[r].add(t)
# Tarjan
idx={};low={};st=[];on=set();out=[];i=[0]
sys.setrecursionlimit(10000)
def sc(v):
    idx[v]=low[v]=i[0];i[0]+=1;st.append(v);on.add(v)
    for w in edges[v]:
        if w not in idx: sc(w);low[v]=min(low[v],low[w])
        elif w in on: low[v]=min(low[v],idx[w])
    if low[v]==idx[v]:
        c=[]
        while True:
            w=st.pop();on.discard(w);c.append(w)
            if w==v: break
        out.append(c)
for v in files:
    if v not in idx: sc(v)
bad=[c for c in out if len({os.path.dirname(x) for x in c})>1]
for c in bad: print('cycle across folders:',sorted(c))
print(len(bad),'cross-folder cycles')
sys.exit(1 if bad else 0)
