from idx import numel, rmi, allidx
from h import *
import random
rng=random.Random(5)
DT=["f32","f64","i32","i64","bool","c32","c64"]
def vals(dt,n):
    if dt=="bool": return [rng.random()<0.5 for _ in range(n)]
    if dt in("i32","i64"): return [rng.randint(-100,100) for _ in range(n)]
    if dt.startswith("c"): return [complex(rng.randint(-50,50)/4, rng.randint(-50,50)/4) for _ in range(n)]
    return [rng.randint(-400,400)/8 for _ in range(n)]
def get(x,xs,i): return x[rmi(i,xs)]
def zero(dt): return False if dt=="bool" else 0
f=F("stfuzz")
for t in range(120):
    dt=rng.choice(DT)
    r=rng.randint(1,4)
    xs=[rng.randint(1,7) for _ in range(r)]
    while numel(xs)>300: xs=[max(1,d-1) for d in xs]
    x=vals(dt,numel(xs))
    X=T(dt,xs,x)
    op=rng.choice(["transpose","reverse","slice","pad","concatenate","tril","triu","reshape","broadcast_in_dim","extract_diagonal","embed_diagonal"])
    if op=="transpose":
        p=list(range(r)); rng.shuffle(p)
        os_=[xs[a] for a in p]
        out=[]
        for o in allidx(os_):
            i=[0]*r
            for k,a in enumerate(p): i[a]=o[k]
            out.append(get(x,xs,i))
        f.add(f"t{t}_{op}_{dt}",op,[X],{"permutation":p},exp=T(dt,os_,out))
    elif op=="reverse":
        ds=[a for a in range(r) if rng.random()<0.5]
        out=[get(x,xs,[xs[a]-1-i if a in ds else i for a,i in enumerate(o)]) for o in allidx(xs)]
        f.add(f"t{t}_{op}_{dt}",op,[X],{"dimensions":ds},exp=T(dt,xs,out))
    elif op=="slice":
        st=[rng.randint(0,d) for d in xs]; li=[rng.randint(s,d) for s,d in zip(st,xs)]; sd=[rng.randint(1,3) for _ in xs]
        os_=[max(0,-(-(l-s)//k)) for s,l,k in zip(st,li,sd)]
        out=[get(x,xs,[s+i*k for i,s,k in zip(o,st,sd)]) for o in allidx(os_)]
        f.add(f"t{t}_{op}_{dt}",op,[X],{"start_indices":st,"limit_indices":li,"strides":sd},exp=T(dt,os_,out))
    elif op=="pad":
        lo=[rng.randint(-2,2) for _ in xs]; hi=[rng.randint(-2,2) for _ in xs]; it=[rng.randint(0,2) for _ in xs]
        os_=[l+h+(n+(n-1)*k if n else 0) for l,h,k,n in zip(lo,hi,it,xs)]
        if min(os_)<0: continue
        pv=vals(dt,1)[0]
        out=[]
        for o in allidx(os_):
            xi=[]
            for p,l,k,n in zip(o,lo,it,xs):
                q=p-l
                if q<0 or q%(k+1) or q//(k+1)>=n: xi=None; break
                xi.append(q//(k+1))
            out.append(pv if xi is None else get(x,xs,xi))
        f.add(f"t{t}_{op}_{dt}",op,[X,S(dt,pv)],{"edge_padding_low":lo,"edge_padding_high":hi,"interior_padding":it},exp=T(dt,os_,out))
    elif op=="concatenate":
        ax=rng.randrange(r); k=rng.randint(1,3)
        parts=[]
        for _ in range(k):
            s=list(xs); s[ax]=rng.randint(0,4); parts.append((s,vals(dt,numel(s))))
        os_=list(xs); os_[ax]=sum(p[0][ax] for p in parts)
        out=[]
        for o in allidx(os_):
            q=o[ax]
            for s,v in parts:
                if q<s[ax]:
                    i=list(o); i[ax]=q; out.append(get(v,s,i)); break
                q-=s[ax]
        f.add(f"t{t}_{op}_{dt}",op,[T(dt,s,v) for s,v in parts],{"dimension":ax},exp=T(dt,os_,out))
    elif op in("tril","triu"):
        if r<2: continue
        k=rng.randint(-4,4)
        out=[get(x,xs,o) if ((o[0]>=o[1]-k) if op=="tril" else (o[0]<=o[1]-k)) else zero(dt) for o in allidx(xs)]
        f.add(f"t{t}_{op}_{dt}",op,[X],{"k":k},exp=T(dt,xs,out))
    elif op=="reshape":
        # column-major: flatten colex
        cm=[get(x,xs,list(reversed(o))) for o in allidx(list(reversed(xs)))]
        n=numel(xs)
        # random factorization
        ns=[]; m=n
        while m>1 and len(ns)<3:
            dv=[d for d in range(1,m+1) if m%d==0]; d=rng.choice(dv); ns.append(d); m//=d
        if m>1: ns.append(m)
        if rng.random()<0.3: ns.insert(rng.randint(0,len(ns)),1)
        out=[None]*n
        for kk,o in enumerate(allidx(list(reversed(ns)))):
            out[rmi(list(reversed(o)),ns)]=cm[kk]
        f.add(f"t{t}_{op}_{dt}",op,[X],{"shape":ns},exp=T(dt,ns,out))
    elif op=="broadcast_in_dim":
        orank=r+rng.randint(0,2)
        dims=sorted(rng.sample(range(orank),r))
        if rng.random()<0.3: rng.shuffle(dims)
        os_=[rng.randint(1,3) for _ in range(orank)]
        xs2=list(xs)
        for j,d in enumerate(dims):
            if rng.random()<0.4: xs2[j]=1
            os_[d]=xs2[j] if xs2[j]!=1 else rng.randint(1,3)
        while numel(os_)>300: os_=[max(1,v-1) if i not in dims else v for i,v in enumerate(os_)]; break
        if numel(os_)>400: continue
        x2=vals(dt,numel(xs2))
        out=[get(x2,xs2,[0 if xs2[j]==1 else o[d] for j,d in enumerate(dims)]) for o in allidx(os_)]
        f.add(f"t{t}_{op}_{dt}",op,[T(dt,xs2,x2)],{"shape":os_,"broadcast_dimensions":dims},exp=T(dt,os_,out))
    elif op=="extract_diagonal":
        if r<2: continue
        a,b=rng.sample(range(r),2)
        xs2=list(xs); xs2[b]=xs2[a]; x2=vals(dt,numel(xs2))
        os_=xs2[:b]+xs2[b+1:]
        ai=a if a<b else a-1
        out=[]
        for o in allidx(os_):
            i=list(o); i.insert(b,o[ai]); out.append(get(x2,xs2,i))
        f.add(f"t{t}_{op}_{dt}",op,[T(dt,xs2,x2)],{"axes":[a,b]},exp=T(dt,os_,out))
    elif op=="embed_diagonal":
        if numel(xs)*max(xs)>300: continue
        a=rng.randrange(r); b=rng.randint(0,r)
        os_=xs[:b]+[xs[a]]+xs[b:]
        out=[zero(dt)]*numel(os_)
        for i in allidx(xs):
            o=list(i); o.insert(b,i[a]); out[rmi(o,os_)]=get(x,xs,list(i))
        f.add(f"t{t}_{op}_{dt}",op,[X],{"axes":[a,b]},exp=T(dt,os_,out))
f.run()
