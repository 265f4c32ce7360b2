from lib import *
import warnings; warnings.simplefilter("ignore")
f = File("p_reduce_dot")
def red(op, x, dims, dt):
    dims = tuple(dims)
    if op == "reduce_sum":
        if dt in ("i32", "i64"):
            r = np.vectorize(lambda v: v)(x.astype(object).sum(axis=dims) if dims else x.astype(object))
            return np.vectorize(lambda v: wrap(int(v), dt), otypes=[object])(r)
        return x.sum(axis=dims) if dims else x.copy()
    if op == "reduce_prod":
        if dt in ("i32", "i64"):
            r = x.astype(object).prod(axis=dims) if dims else x.astype(object)
            return np.vectorize(lambda v: wrap(int(v), dt), otypes=[object])(r)
        return x.prod(axis=dims) if dims else x.copy()
    if op == "reduce_max": return x.max(axis=dims) if dims else x.copy()
    if op == "reduce_min": return x.min(axis=dims) if dims else x.copy()
x4 = (np.arange(2*3*4*2).reshape(2, 3, 4, 2) % 7 - 3).astype(np.float64)
for op in ("reduce_sum", "reduce_prod", "reduce_max", "reduce_min"):
    for dims in ([3, 1], [0, 2, 3], [2, 0, 1, 3], [1]):
        r = red(op, x4, dims, "f64")
        f.add(f"{op}_rank4_{''.join(map(str, dims))}", op, [T("f64", x4)], {"dimensions": dims}, expected=T("f64", np.asarray(r), list(np.shape(r))))
    xi = np.array([[I32_MAX, I32_MAX, 2], [I32_MIN, -1, 3]], dtype=object)
    r = red(op, xi, [1], "i32")
    f.add(f"{op}_i32_extremes_axis1", op, [T("i32", xi)], {"dimensions": [1]}, expected=T("i32", r, [2]))
    xe = np.zeros((0, 3))
    f.add(f"{op}_empty_other_axis", op, [T("f64", [], [0, 3])], {"dimensions": [1]}, expected=T("f64", [], [0]))
    f.add(f"{op}_extent0_axis_invalid", op, [T("f64", [], [0, 3])], {"dimensions": [0]}, error="invalid_argument")
    f.add(f"{op}_empty_no_dims_copy", op, [T("f32", [], [2, 0])], {"dimensions": []}, expected=T("f32", [], [2, 0]))
    f.add(f"{op}_rank0_axis_oob", op, [S("f32", 1.0)], {"dimensions": [0]}, error="axis_out_of_bounds")
    f.add(f"{op}_bool_unsupported", op, [T("bool", [True])], {"dimensions": [0]}, error="unsupported")
    f.add(f"{op}_dup_nonadjacent", op, [T("f32", [[[1.0]]])], {"dimensions": [0, 2, 0]}, error="invalid_argument")
for dt, MN, MX in (("i32", I32_MIN, I32_MAX), ("i64", I64_MIN, I64_MAX)):
    f.add(f"reduce_max_{dt}_all_min", "reduce_max", [T(dt, [[MN, MN], [MN, MN]])], {"dimensions": [0, 1]}, expected=S(dt, MN))
    f.add(f"reduce_min_{dt}_all_max", "reduce_min", [T(dt, [MX, MX, MX])], {"dimensions": [0]}, expected=S(dt, MX))
    f.add(f"reduce_sum_{dt}_wrap_many", "reduce_sum", [T(dt, [MX]*5)], {"dimensions": [0]}, expected=S(dt, wrap(5*MX, dt)))
    f.add(f"reduce_prod_{dt}_wrap", "reduce_prod", [T(dt, [MN, -1, 3, MX])], {"dimensions": [0]}, expected=S(dt, wrap(MN*-1*3*MX, dt)))
f.add("reduce_max_i64_beyond_2p53", "reduce_max", [T("i64", [2**53, 2**53+1, 2**53-1])], {"dimensions": [0]}, expected=S("i64", 2**53+1))
f.add("reduce_sum_i64_beyond_2p53", "reduce_sum", [T("i64", [2**53, 1, 1, 1])], {"dimensions": [0]}, expected=S("i64", 2**53+3))
for dt in ("f32", "f64"):
    f.add(f"reduce_max_{dt}_all_neg_inf", "reduce_max", [T(dt, [[-INF, -INF], [-INF, -INF]])], {"dimensions": [1, 0]}, expected=S(dt, -INF))
    f.add(f"reduce_min_{dt}_all_inf", "reduce_min", [T(dt, [INF, INF])], {"dimensions": [0]}, expected=S(dt, INF))
    f.add(f"reduce_max_{dt}_nan_positions", "reduce_max", [T(dt, [[NAN, 1.0, 2.0], [1.0, 2.0, NAN], [1.0, NAN, INF], [-INF, 0.0, 1.0]])], {"dimensions": [1]}, expected=T(dt, [NAN, NAN, NAN, 1.0]))
    f.add(f"reduce_min_{dt}_nan_positions", "reduce_min", [T(dt, [[NAN, 1.0, 2.0], [1.0, 2.0, NAN], [1.0, NAN, -INF], [INF, 0.0, 1.0]])], {"dimensions": [1]}, expected=T(dt, [NAN, NAN, NAN, 0.0]))
    f.add(f"reduce_sum_{dt}_inf_nan", "reduce_sum", [T(dt, [[INF, -INF], [INF, 1.0], [NAN, 0.0]])], {"dimensions": [1]}, expected=T(dt, [NAN, INF, NAN]))
    f.add(f"reduce_prod_{dt}_inf_zero", "reduce_prod", [T(dt, [[INF, 0.0], [-2.0, INF]])], {"dimensions": [1]}, expected=T(dt, [NAN, -INF]))
    f.add(f"reduce_max_{dt}_nan_long", "reduce_max", [T(dt, [1.0]*100 + [NAN] + [2.0]*27)], {"dimensions": [0]}, expected=S(dt, NAN))
f.add("reduce_sum_f32_long_accuracy", "reduce_sum", [T("f32", [0.1]*4096)], {"dimensions": [0]}, expected=S("f32", 409.6), rtol=1e-4)
f.add("reduce_sum_f64_large_cancel", "reduce_sum", [T("f64", [1e16, 1.0, -1e16, 1.0])], {"dimensions": [0]})
f.add("reduce_prod_c64_axes", "reduce_prod", [T("c64", [[1j, 1+1j], [2, -1j]])], {"dimensions": [0]}, expected=T("c64", [2j, (1+1j)*(-1j)]))
f.add("reduce_sum_c32_rank3_axes_20", "reduce_sum", [T("c32", (np.arange(12).reshape(2, 3, 2) * (1+0.5j)))], {"dimensions": [2, 0]}, expected=T("c32", (np.arange(12).reshape(2, 3, 2) * (1+0.5j)).sum(axis=(0, 2))))
f.add("reduce_min_c32_unsupported", "reduce_min", [T("c32", [1j])], {"dimensions": [0]}, error="unsupported")
f.add("reduce_sum_rank0_no_dims", "reduce_sum", [S("c64", 1-2j)], {"dimensions": []}, expected=S("c64", 1-2j))
f.add("reduce_max_rank0_no_dims_i32", "reduce_max", [S("i32", I32_MIN)], {"dimensions": []}, expected=S("i32", I32_MIN))
f.add("reduce_sum_all_of_1x1x1", "reduce_sum", [T("i64", [[[7]]])], {"dimensions": [2, 1, 0]}, expected=S("i64", 7))
f.add("reduce_prod_extent0_other_axis_kept", "reduce_prod", [T("c32", [], [3, 0, 2])], {"dimensions": [0, 2]}, expected=T("c32", [], [0]))
# ---------------- dot_general
def dg(l, r, lb, rb, lc, rc, lconj=False, rconj=False):
    if lconj: l = np.conj(l)
    if rconj: r = np.conj(r)
    lf = [d for d in range(l.ndim) if d not in lb and d not in lc]
    rf = [d for d in range(r.ndim) if d not in rb and d not in rc]
    L = np.transpose(l, lf + list(lc) + list(lb)); R = np.transpose(r, rf + list(rc) + list(rb))
    ls = [l.shape[d] for d in lf]; rs = [r.shape[d] for d in rf]; ks = [l.shape[d] for d in lc]; bs = [l.shape[d] for d in lb]
    K = int(np.prod(ks)) if ks else 1; B = int(np.prod(bs)) if bs else 1
    L = L.reshape(int(np.prod(ls)) if ls else 1, K, B); R = R.reshape(int(np.prod(rs)) if rs else 1, K, B)
    out = np.einsum("mkb,nkb->mnb", L, R)
    return out.reshape(ls + rs + bs)
def D(name, dt, l, r, lb, rb, lc, rc, lconj=None, rconj=None, error=None, rtol=None):
    attrs = {"lhs_batching_dimensions": lb, "rhs_batching_dimensions": rb, "lhs_contracting_dimensions": lc, "rhs_contracting_dimensions": rc}
    if lconj is not None: attrs["lhs_conj"] = lconj
    if rconj is not None: attrs["rhs_conj"] = rconj
    ins = [T(dt, l, list(l.shape)), T(dt, r, list(r.shape))]
    if error: f.add(name, "dot_general", ins, attrs, error=error); return
    o = dg(l, r, lb, rb, lc, rc, bool(lconj), bool(rconj))
    f.add(name, "dot_general", ins, attrs, expected=T(dt, o, list(o.shape)), rtol=rtol)
rng = np.random.default_rng(1)
def R(shape, dt):
    a = rng.integers(-4, 5, size=shape).astype(float)
    if dt in ("c32", "c64"): a = a + 1j*rng.integers(-4, 5, size=shape)
    return a
for dt in ("f32", "f64", "c32", "c64"):
    D(f"dot_batch_middle_{dt}", dt, R([2, 3, 4], dt), R([3, 5, 2], dt), [1], [0], [0], [2])
    D(f"dot_two_batch_swapped_{dt}", dt, R([6, 2, 3, 5], dt), R([3, 5, 2, 6], dt), [3, 1], [1, 2], [0], [3])
    D(f"dot_multi_contract_odd_{dt}", dt, R([3, 2, 4, 5], dt), R([4, 3, 6], dt), [], [], [2, 0], [0, 1])
    D(f"dot_rank0_scalars_{dt}", dt, np.array(R([], dt)), np.array(R([], dt)), [], [], [], [])
    D(f"dot_contract0_batch_{dt}", dt, np.zeros((2, 0, 3)), np.zeros((0, 3, 4)), [2], [1], [1], [0])
    D(f"dot_free0_{dt}", dt, np.zeros((0, 3)), R([3, 2], dt), [], [], [1], [0])
    D(f"dot_batch0_{dt}", dt, np.zeros((2, 0)), np.zeros((0, 3)), [1], [0], [], [])
    D(f"dot_only_batch_{dt}", dt, R([4], dt), R([4], dt), [0], [0], [], [])
for lc_, rc_ in ((True, False), (False, True), (True, True)):
    D(f"dot_conj_batched_c64_{int(lc_)}{int(rc_)}", "c64", R([3, 2, 2], "c64"), R([2, 2, 4], "c64"), [2], [0], [1], [1], lc_, rc_)
    D(f"dot_conj_batched_c32_{int(lc_)}{int(rc_)}", "c32", R([2, 3, 2], "c32"), R([2, 3], "c32"), [0], [0], [1], [1], lc_, rc_)
D("dot_conj_f64_noop", "f64", R([2, 3], "f64"), R([3], "f64"), [], [], [1], [0], True, True)
D("dot_conj_empty_k_c64", "c64", np.zeros((2, 0), complex), np.zeros((0, 2), complex), [], [], [1], [0], True, False)
big = np.full((1, 4096), 1.0); bigr = np.full((4096, 1), 1.0 + 2**-20)
D("dot_f64_long_k", "f64", big, bigr, [], [], [1], [0], rtol=1e-12)
D("dot_f64_precise_not_f32", "f64", np.array([[1.0 + 2**-40, 1.0]]), np.array([[1.0], [-1.0]]), [], [], [1], [0])
f.add("dot_f64_precise_not_f32_check", "dot_general", [T("f64", [[1e8 + 1.0, 1.0]]), T("f64", [[1e8 - 1.0], [-1e16]])], {"lhs_batching_dimensions": [], "rhs_batching_dimensions": [], "lhs_contracting_dimensions": [1], "rhs_contracting_dimensions": [0]}, expected=T("f64", [[(1e8+1)*(1e8-1) - 1e16]]))
D("dot_nan_inf_propagate", "f64", np.array([[NAN, 1.0], [INF, 0.0], [1.0, 1.0]]), np.array([[0.0], [1.0]]), [], [], [1], [0])
for dt in ("i32", "i64", "bool"):
    f.add(f"dot_{dt}_unsupported", "dot_general", [T(dt, [[1, 0]] if dt != "bool" else [[True, False]]), T(dt, [[1], [0]] if dt != "bool" else [[True], [False]])], {"lhs_batching_dimensions": [], "rhs_batching_dimensions": [], "lhs_contracting_dimensions": [1], "rhs_contracting_dimensions": [0]}, error="unsupported")
D("dot_batch_axis_also_contract", "f64", R([2, 2], "f64"), R([2, 2], "f64"), [0], [0], [0], [1], error="invalid_argument")
D("dot_batch_axis_oob", "f64", R([2, 2], "f64"), R([2, 2], "f64"), [2], [0], [], [], error="axis_out_of_bounds")
D("dot_rhs_contract_oob", "f64", R([2, 2], "f64"), R([2, 2], "f64"), [], [], [1], [5], error="axis_out_of_bounds")
D("dot_batch_extent_0_vs_1", "f64", np.zeros((0, 2)), np.zeros((1, 2)), [0], [0], [1], [1], error="shape_mismatch")
D("dot_rhs_repeated_batch", "f64", R([2, 2], "f64"), R([2, 2], "f64"), [0, 1], [0, 0], [], [], error="invalid_argument")
f.add("dot_c64_with_f64", "dot_general", [T("c64", [[1j]]), T("f64", [[1.0]])], {"lhs_batching_dimensions": [], "rhs_batching_dimensions": [], "lhs_contracting_dimensions": [1], "rhs_contracting_dimensions": [0]}, error="dtype_mismatch")
f.write()
