from idx import *
def rand_scatter(rng):
    r = rng.randint(1,3); xs=[rng.randint(1,4) for _ in range(r)]
    dims=list(range(r)); rng.shuffle(dims)
    nib = rng.randint(0, min(1, r-1)) if r>1 else 0
    ibd = sorted(dims[:nib]); rest=[d for d in range(r) if d not in ibd]
    sdod=[d for d in rest if rng.random()<0.7]; rng.shuffle(sdod)
    iwd=sorted([d for d in rest if rng.random()<0.4])
    wins=[d for d in range(r) if d not in iwd and d not in ibd]
    wsz=[rng.randint(0, xs[d]) for d in wins]
    nb=rng.randint(nib,2)
    bshape=[rng.randint(1,3) for _ in range(nb)]
    sib=rng.sample(range(nb), nib) if nib else []
    for dop,dst in zip(ibd,sib): bshape[dst]=xs[dop]
    ivd=rng.randint(0,nb)
    implicit = len(sdod)==1 and ivd==nb and rng.random()<0.5
    isz=list(bshape)
    if not implicit: isz.insert(ivd, len(sdod))
    sibd=[d if (implicit or d<ivd) else d+1 for d in sib]
    ind=[rng.randint(-2,5) for _ in range(numel(isz))]
    urank=nb+len(wins)
    uwd=sorted(rng.sample(range(urank), len(wins)))
    us=[]; bi=0; wi=0
    for p in range(urank):
        if p in uwd: us.append(wsz[wi]); wi+=1
        else: us.append(bshape[bi]); bi+=1
    return xs, ibd, sdod, iwd, isz, ivd, sibd, ind, uwd, us
rng=random.Random(11)
f=F("sfuzz")
for t in range(200):
    xs, ibd, sdod, iwd, isz, ivd, sibd, ind, uwd, us = rand_scatter(rng)
    dt=rng.choice(["f64","i32","i64","f32"])
    comb=rng.choice(["add","mul","max","min","replace"])
    oob=rng.choice(["clamp","skip"])
    x=[rng.randint(-5,5) for _ in range(numel(xs))]
    upd=[rng.randint(-5,5) for _ in range(numel(us))]
    if comb=="replace":
        # distinct targets only: check no duplicates by running ref with tagged values
        pass
    out=ref_scatter(x,xs,ind,isz,upd,us,uwd,iwd,ibd,sibd,sdod,ivd,comb,oob,dt)
    if comb=="replace":
        # detect duplicate writes
        tags=list(range(1000,1000+numel(us)))
        cnt={}
        o1=ref_scatter([0]*numel(xs),xs,ind,isz,[1]*numel(us),us,uwd,iwd,ibd,sibd,sdod,ivd,"add",oob,"i64")
        if any(v>1 for v in o1): comb="add"; out=ref_scatter(x,xs,ind,isz,upd,us,uwd,iwd,ibd,sibd,sdod,ivd,comb,oob,dt)
    attrs={"update_window_dims":uwd,"inserted_window_dims":iwd,"scatter_dims_to_operand_dims":sdod,"index_vector_dim":ivd,
           "input_batching_dims":ibd,"scatter_indices_batching_dims":sibd,"combiner":comb,"out_of_bounds":oob}
    f.add(f"s{t}_{comb}_{oob}","scatter",[T(dt,xs,x),T(rng.choice(["i32","i64"]),isz,ind),T(dt,us,upd)],attrs,exp=T(dt,xs,out))
f.run()
