from idx import numel, rmi, allidx
from h import *
import random
rng=random.Random(9)
def wrap(v,dt):
    b=32 if dt=="i32" else 64
    v&=(1<<b)-1
    return v-(1<<b) if v>=1<<(b-1) else v
f=F("rfuzz")
for t in range(120):
    op=rng.choice(["reduce_sum","reduce_prod","reduce_max","reduce_min"])
    dt=rng.choice(["i32","i64","f32","f64"] + (["c32","c64"] if op in("reduce_sum","reduce_prod") else []))
    r=rng.randint(1,4); xs=[rng.randint(1,8) for _ in range(r)]
    while numel(xs)>350: xs=[max(1,d-1) for d in xs]
    n=numel(xs)
    if op=="reduce_prod": x=[rng.choice([1,1,1,-1,2]) for _ in range(n)]
    elif dt in("i32","i64") and rng.random()<0.3: x=[rng.choice([2**31-1,-2**31, 2**62, -2**63, 2**63-1]) if dt=="i64" else rng.choice([2**31-1,-2**31]) for _ in range(n)]
    else: x=[rng.randint(-1000,1000) for _ in range(n)]
    if dt.startswith("c"): x=[complex(v, rng.randint(-3,3)) if op=="reduce_sum" else v for v in x]
    if dt in("f32","f64") and op in("reduce_max","reduce_min") and rng.random()<0.4:
        for _ in range(rng.randint(1,3)): x[rng.randrange(n)]=rng.choice([NAN,INF,-INF])
    dims=[a for a in range(r) if rng.random()<0.5]; rng.shuffle(dims)
    keep=[a for a in range(r) if a not in dims]
    os_=[xs[a] for a in keep]
    acc={}
    for i in allidx(xs):
        k=tuple(i[a] for a in keep); v=x[rmi(i,xs)]
        if k not in acc: acc[k]=v; continue
        a=acc[k]
        if op=="reduce_sum": a=a+v
        elif op=="reduce_prod": a=a*v
        else:
            if isinstance(a,float) and math.isnan(a) or isinstance(v,float) and math.isnan(v): a=NAN
            else: a=max(a,v) if op=="reduce_max" else min(a,v)
        acc[k]=a
    out=[acc[tuple(o)] for o in allidx(os_)]
    if dt in("i32","i64"): out=[wrap(v,dt) for v in out]
    f.add(f"r{t}_{op}_{dt}",op,[T(dt,xs,x)],{"dimensions":dims},exp=T(dt,os_,out))
f.run()
