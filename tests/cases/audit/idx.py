from h import *
import random, itertools
def numel(s):
    n=1
    for d in s: n*=d
    return n
def rmi(idx, shape):
    o=0
    for i,d in zip(idx,shape): o=o*d+i
    return o
def allidx(shape): return itertools.product(*[range(d) for d in shape])
def ref_gather(x, xs, ind, isz, od, cd, obd, sibd, sim, ivd, ss):
    ishape = list(isz)
    if ivd == len(ishape): ishape = ishape + [1]
    bshape = [d for a,d in enumerate(ishape) if a != ivd]
    offs = [d for d in range(len(xs)) if d not in cd and d not in obd]
    rank = len(bshape) + len(offs)
    oshape=[]; bi=0; oi=0
    for p in range(rank):
        if p in od: oshape.append(ss[offs[oi]]); oi+=1
        else: oshape.append(bshape[bi]); bi+=1
    out=[]
    bpos = [p for p in range(rank) if p not in od]
    opos = [p for p in range(rank) if p in od]
    for o in allidx(oshape):
        b = [o[p] for p in bpos]; off=[o[p] for p in opos]
        xi=[0]*len(xs)
        for k,d in enumerate(sim):
            full = list(b); full.insert(ivd, k)
            s = ind[rmi(full, ishape)]
            xi[d] = min(max(s,0), xs[d]-ss[d])
        for dop, dst in zip(obd, sibd):
            xi[dop] += b[dst if dst < ivd else dst-1]
        for k,d in enumerate(offs): xi[d] += off[k]
        out.append(x[rmi(xi, xs)])
    return oshape, out

def wrap32(v): v &= 0xffffffff; return v-2**32 if v>=2**31 else v
def ref_scatter(x, xs, ind, isz, upd, us, uwd, iwd, ibd, sibd, sdod, ivd, comb, oob, dt):
    out=list(x)
    ishape=list(isz)
    if ivd == len(ishape): ishape=ishape+[1]
    wins=[d for d in range(len(xs)) if d not in iwd and d not in ibd]
    ext=[1]*len(xs)
    for k,d in enumerate(wins): ext[d]=us[uwd[k]]
    for u in allidx(us):
        si=[u[p] for p in range(len(us)) if p not in uwd]
        wi=[u[p] for p in range(len(us)) if p in uwd]
        ri=[0]*len(xs)
        for k,d in enumerate(sdod):
            full=list(si); full.insert(ivd,k)
            s=ind[rmi(full,ishape)]
            ri[d] = s if oob=="skip" else min(max(s,0), xs[d]-ext[d])
        for dop,dst in zip(ibd,sibd): ri[dop]+=si[dst if dst<ivd else dst-1]
        for k,d in enumerate(wins): ri[d]+=wi[k]
        if not all(0<=ri[d]<xs[d] for d in range(len(xs))): continue
        p=rmi(ri,xs); v=upd[rmi(list(u),us)]
        if comb=="replace": out[p]=v
        elif comb=="add": out[p]=out[p]+v
        elif comb=="mul": out[p]=out[p]*v
        elif comb=="max": out[p]=max(out[p],v)
        else: out[p]=min(out[p],v)
        if dt=="i32": out[p]=wrap32(out[p])
    return out

def rand_gather(rng):
    r = rng.randint(1,3); xs=[rng.randint(1,4) for _ in range(r)]
    dims=list(range(r)); rng.shuffle(dims)
    nob = rng.randint(0, min(1, r-1)) if r>1 else 0
    obd = sorted(dims[:nob]); rest=[d for d in range(r) if d not in obd]
    sim = [d for d in rest if rng.random()<0.7]; rng.shuffle(sim)
    cd = sorted([d for d in rest if rng.random()<0.4])
    ss = [1 if (d in obd or d in cd) else rng.randint(0, xs[d]) for d in range(r)]
    nb = rng.randint(max(nob,0), 2)
    bshape=[rng.randint(1,3) for _ in range(nb)]
    sibd = sorted(rng.sample(range(nb), nob)) if nob else []
    rng.shuffle(sibd)
    for dop, dst in zip(obd, sibd): bshape[dst]=xs[dop]
    ivd = rng.randint(0, nb)
    implicit = len(sim)==1 and ivd==nb and rng.random()<0.5
    if implicit: isz=list(bshape)
    else: isz=list(bshape); isz.insert(ivd, len(sim))
    # sibd refer to indices dims (with ivd included): adjust
    sibd_full=[d if d<ivd else d+1 for d in sibd]
    if implicit: sibd_full=sibd
    ind=[rng.randint(-2, 5) for _ in range(numel(isz))]
    offs=[d for d in range(r) if d not in cd and d not in obd]
    rank=nb+len(offs)
    od=sorted(rng.sample(range(rank), len(offs)))
    return xs, obd, sim, cd, ss, isz, ivd, sibd_full, ind, od

rng=random.Random(7)
f=F("gfuzz")
for t in range(150):
    xs, obd, sim, cd, ss, isz, ivd, sibd, ind, od = rand_gather(rng)
    dt = rng.choice(["f64","i32","c64","bool","f32","i64","c32"])
    n=numel(xs)
    x=[i+1 for i in range(n)]
    if dt=="bool": x=[i%3==0 for i in range(n)]
    if dt.startswith("c"): x=[complex(i+1, -i) for i in range(n)]
    itype = rng.choice(["i32","i64"])
    try:
        osh, out = ref_gather(x, xs, ind, isz, od, cd, obd, sibd, sim, ivd, ss)
    except Exception as e:
        print("refskip", e); continue
    attrs={"offset_dims":od,"collapsed_slice_dims":cd,"start_index_map":sim,"index_vector_dim":ivd,"slice_sizes":ss,
           "operand_batching_dims":obd,"start_indices_batching_dims":sibd}
    f.add(f"g{t}", "gather", [T(dt,xs,x), T(itype,isz,ind)], attrs, exp=T(dt,osh,out))
f.run()
