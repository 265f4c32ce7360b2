from idx import numel, rmi, allidx
from h import *
import random
rng=random.Random(13)
f=F("dfuzz")
for t in range(120):
    dt=rng.choice(["f32","f64","c32","c64"])
    nb=rng.randint(0,2); nc=rng.randint(0,2); nlf=rng.randint(0,2); nrf=rng.randint(0,2)
    be=[rng.randint(1,3) for _ in range(nb)]; ce=[rng.randint(0 if rng.random()<0.1 else 1,4) for _ in range(nc)]
    lfe=[rng.randint(1,4) for _ in range(nlf)]; rfe=[rng.randint(1,4) for _ in range(nrf)]
    lr=nb+nc+nlf; rr=nb+nc+nrf
    lp=list(range(lr)); rng.shuffle(lp); rp=list(range(rr)); rng.shuffle(rp)
    lb, lc, lf = lp[:nb], lp[nb:nb+nc], sorted(lp[nb+nc:])
    rb, rc, rf = rp[:nb], rp[nb:nb+nc], sorted(rp[nb+nc:])
    ls=[0]*lr; rs=[0]*rr
    for a,e in zip(lb,be): ls[a]=e
    for a,e in zip(lc,ce): ls[a]=e
    for a,e in zip(lf,lfe): ls[a]=e
    for a,e in zip(rb,be): rs[a]=e
    for a,e in zip(rc,ce): rs[a]=e
    for a,e in zip(rf,rfe): rs[a]=e
    if numel(ls)>300 or numel(rs)>300: continue
    cplx=dt.startswith("c")
    def v(): return complex(rng.randint(-4,4), rng.randint(-4,4)) if cplx else rng.randint(-8,8)
    L=[v() for _ in range(numel(ls))]; R=[v() for _ in range(numel(rs))]
    lcj = cplx and rng.random()<0.4; rcj = cplx and rng.random()<0.4
    os_=lfe+rfe+be
    out=[]
    for o in allidx(os_):
        lfi=o[:nlf]; rfi=o[nlf:nlf+nrf]; bi=o[nlf+nrf:]
        s=0
        for c in allidx(ce):
            li=[0]*lr; ri=[0]*rr
            for a,x in zip(lf,lfi): li[a]=x
            for a,x in zip(rf,rfi): ri[a]=x
            for a,b_,x in zip(lb,rb,bi): li[a]=x; ri[b_]=x
            for a,b_,x in zip(lc,rc,c): li[a]=x; ri[b_]=x
            p=L[rmi(li,ls)]; q=R[rmi(ri,rs)]
            if lcj: p=p.conjugate()
            if rcj: q=q.conjugate()
            s+=p*q
        out.append(s)
    attrs={"lhs_batching_dimensions":lb,"rhs_batching_dimensions":rb,"lhs_contracting_dimensions":lc,"rhs_contracting_dimensions":rc}
    if cplx: attrs["lhs_conj"]=lcj; attrs["rhs_conj"]=rcj
    f.add(f"d{t}_{dt}","dot_general",[T(dt,ls,L),T(dt,rs,R)],attrs,exp=T(dt,os_,out))
f.run()
