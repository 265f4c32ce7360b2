import numpy as np, itertools
def _start(indices, bidx, ivd):
    r = indices.ndim
    if ivd == r:
        return [indices[tuple(bidx)]]
    n = indices.shape[ivd]
    return [indices[tuple(list(bidx[:ivd]) + [k] + list(bidx[ivd:]))] for k in range(n)]
def gather(operand, indices, offset_dims, collapsed, sim, ivd, ss, obd=(), sibd=()):
    indices = np.asarray(indices)
    bshape = [s for i, s in enumerate(indices.shape) if i != ivd]
    odims = [d for d in range(operand.ndim) if d not in collapsed and d not in obd]
    oshape_off = [ss[d] for d in odims]
    orank = len(bshape) + len(oshape_off)
    bdims = [d for d in range(orank) if d not in offset_dims]
    oshape = [0]*orank
    for i, d in enumerate(bdims): oshape[d] = bshape[i]
    for i, d in enumerate(offset_dims): oshape[d] = oshape_off[i]
    out = np.zeros(oshape, dtype=operand.dtype)
    for oi in np.ndindex(*oshape):
        bi = [oi[d] for d in bdims]; off = [oi[d] for d in offset_dims]
        st = _start(indices, bi, ivd)
        full = [0]*operand.ndim
        for k, d in enumerate(sim):
            full[d] = int(min(max(int(st[k]), 0), operand.shape[d]-ss[d]))
        for od, sd in zip(obd, sibd):
            full[od] += bi[sd if sd < ivd else sd-1]
        for k, d in enumerate(odims): full[d] += off[k]
        out[oi] = operand[tuple(full)]
    return out
def scatter(operand, indices, updates, uwd, iwd, sdod, ivd, ibd=(), sibd=(), combiner="add", oob="clamp"):
    indices = np.asarray(indices); out = operand.copy()
    usd = [d for d in range(updates.ndim) if d not in uwd]
    wdims = [d for d in range(operand.ndim) if d not in iwd and d not in ibd]
    wsize = [1]*operand.ndim
    for k, d in enumerate(wdims): wsize[d] = updates.shape[uwd[k]]
    for ui in np.ndindex(*updates.shape):
        si = [ui[d] for d in usd]
        st = _start(indices, si, ivd)
        full = [0]*operand.ndim
        for k, d in enumerate(sdod):
            v = int(st[k])
            if oob == "clamp": v = min(max(v, 0), operand.shape[d]-wsize[d])
            full[d] = v
        for od, sd in zip(ibd, sibd):
            full[od] += si[sd if sd < ivd else sd-1]
        for k, d in enumerate(wdims): full[d] += ui[uwd[k]]
        if any(x < 0 or x >= operand.shape[d] for d, x in enumerate(full)): continue
        t = tuple(full); u = updates[ui]; o = out[t]
        if combiner == "add": out[t] = o + u
        elif combiner == "mul": out[t] = o * u
        elif combiner == "replace": out[t] = u
        elif combiner == "max": out[t] = u if (u != u) else (o if (o != o) else max(o, u))
        elif combiner == "min": out[t] = u if (u != u) else (o if (o != o) else min(o, u))
    return out
