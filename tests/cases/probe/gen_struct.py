from lib import *
f = File("p_struct")
def A(shape, dt="f64", start=1):
    n = int(np.prod(shape)) if shape else 1
    a = np.arange(start, start+n).reshape(shape)
    if dt in ("f32", "f64"): a = a.astype(float)
    if dt in ("c32", "c64"): a = a + 1j*(a*0.5)
    if dt == "bool": a = (a % 3 == 0)
    return a
# transpose
x = A([2, 3, 4, 5], "i32")
for perm in ([3, 1, 0, 2], [0, 1, 2, 3], [1, 3, 2, 0]):
    f.add(f"transpose_rank4_{''.join(map(str, perm))}", "transpose", [T("i32", x)], {"permutation": perm}, expected=T("i32", np.transpose(x, perm)))
f.add("transpose_empty", "transpose", [T("c64", [], [0, 2, 3])], {"permutation": [2, 0, 1]}, expected=T("c64", [], [3, 0, 2]))
f.add("transpose_rank0_empty_perm", "transpose", [S("bool", True)], {"permutation": []}, expected=S("bool", True))
f.add("transpose_perm_too_long", "transpose", [T("f32", [1.0])], {"permutation": [0, 1]}, error="rank_mismatch")
f.add("transpose_axis_oob", "transpose", [T("f32", [[1.0]])], {"permutation": [0, 2]}, error="axis_out_of_bounds")
f.add("transpose_repeat", "transpose", [T("f32", [[1.0]])], {"permutation": [1, 1]}, error="invalid_argument")
f.add("transpose_rank0_nonempty_perm", "transpose", [S("f32", 1.0)], {"permutation": [0]}, error="rank_mismatch")
# reshape column-major
def rs(a, shape): return np.reshape(np.reshape(a, -1, order="F"), shape, order="F")
x = A([2, 3, 4], "c32")
for shp in ([4, 6], [24], [3, 2, 2, 2], [1, 24, 1]):
    f.add(f"reshape_c32_234_to_{'x'.join(map(str, shp))}", "reshape", [T("c32", x)], {"shape": shp}, expected=T("c32", rs(x, shp)))
xb = A([3, 4], "bool")
f.add("reshape_bool_colmajor", "reshape", [T("bool", xb)], {"shape": [2, 6]}, expected=T("bool", rs(xb, [2, 6])))
f.add("reshape_empty_to_other_empty", "reshape", [T("f32", [], [2, 0])], {"shape": [0, 3, 5]}, expected=T("f32", [], [0, 3, 5]))
f.add("reshape_empty_to_rank0_count", "reshape", [T("f32", [], [0])], {"shape": []}, error="shape_mismatch")
f.add("reshape_count_mismatch", "reshape", [T("f32", A([2, 3], "f32"))], {"shape": [5]}, error="shape_mismatch")
f.add("reshape_rank0_to_111", "reshape", [S("i64", I64_MIN)], {"shape": [1, 1, 1]}, expected=T("i64", [[[I64_MIN]]]))
# broadcast_in_dim
x = A([3, 1], "i64")
f.add("bcast_insert_middle", "broadcast_in_dim", [T("i64", x)], {"shape": [3, 2, 4], "broadcast_dimensions": [0, 2]},
      expected=T("i64", np.broadcast_to(x.reshape(3, 1, 1), (3, 2, 4))))
x = A([2, 3], "f32")
f.add("bcast_transposing_into_rank3", "broadcast_in_dim", [T("f32", x)], {"shape": [3, 4, 2], "broadcast_dimensions": [2, 0]},
      expected=T("f32", np.broadcast_to(x.T.reshape(3, 1, 2), (3, 4, 2))))
f.add("bcast_extent1_to_0", "broadcast_in_dim", [T("f32", [1.0])], {"shape": [0], "broadcast_dimensions": [0]}, expected=T("f32", [], [0]))
f.add("bcast_empty_to_bigger", "broadcast_in_dim", [T("f32", [], [0])], {"shape": [2, 0], "broadcast_dimensions": [1]}, expected=T("f32", [], [2, 0]))
f.add("bcast_rank0_c64_to_2x2", "broadcast_in_dim", [S("c64", 1-1j)], {"shape": [2, 2], "broadcast_dimensions": []}, expected=T("c64", [[1-1j, 1-1j], [1-1j, 1-1j]]))
f.add("bcast_rank0_to_rank0", "broadcast_in_dim", [S("bool", False)], {"shape": [], "broadcast_dimensions": []}, expected=S("bool", False))
f.add("bcast_extent_mismatch", "broadcast_in_dim", [T("f32", [1.0, 2.0])], {"shape": [3], "broadcast_dimensions": [0]}, error="shape_mismatch")
f.add("bcast_dims_repeated", "broadcast_in_dim", [T("f32", [[1.0]])], {"shape": [2, 2], "broadcast_dimensions": [0, 0]}, error="invalid_argument")
f.add("bcast_dims_oob", "broadcast_in_dim", [T("f32", [1.0])], {"shape": [2], "broadcast_dimensions": [1]}, error="axis_out_of_bounds")
f.add("bcast_dims_length", "broadcast_in_dim", [T("f32", [[1.0]])], {"shape": [2, 2], "broadcast_dimensions": [0]}, error="rank_mismatch")
f.add("bcast_extent2_to_1", "broadcast_in_dim", [T("f32", [1.0, 2.0])], {"shape": [1], "broadcast_dimensions": [0]}, error="shape_mismatch")
# diagonal
x = A([3, 3, 2], "i32")
f.add("extract_diag_rank3_a1_b0", "extract_diagonal", [T("i32", x)], {"axes": [1, 0]}, expected=T("i32", np.stack([x[i, i, :] for i in range(3)], 0)))
x = A([2, 4, 2], "f64")
f.add("extract_diag_rank3_a0_b2", "extract_diagonal", [T("f64", x)], {"axes": [0, 2]}, expected=T("f64", np.stack([x[i, :, i] for i in range(2)], 0)))
f.add("extract_diag_a2_b0", "extract_diagonal", [T("f64", x)], {"axes": [2, 0]}, expected=T("f64", np.stack([x[i, :, i] for i in range(2)], 1)))
f.add("extract_diag_empty", "extract_diagonal", [T("f32", [], [0, 0])], {"axes": [0, 1]}, expected=T("f32", [], [0]))
f.add("extract_diag_axis_oob", "extract_diagonal", [T("f32", [[1.0]])], {"axes": [0, 2]}, error="axis_out_of_bounds")
f.add("extract_diag_equal_axes", "extract_diagonal", [T("f32", [[1.0]])], {"axes": [1, 1]}, error="invalid_argument")
f.add("extract_diag_nonsquare_print", "extract_diagonal", [T("f32", A([2, 3], "f32"))], {"axes": [0, 1]})
v = A([2, 3], "c64")
def embed(x, a, b):
    n = x.shape[a]
    shp = list(x.shape); shp.insert(b, n)
    out = np.zeros(shp, dtype=x.dtype)
    for idx in np.ndindex(*x.shape):
        full = list(idx); full.insert(b, idx[a] if b > a else None)
        # position of axis a in output shifts if b <= a
        aa = a if b > a else a + 1
        full = list(idx); full.insert(b, 0)
        full[b] = full[aa]
        out[tuple(full)] = x[idx]
    return out
for a, b in ((0, 0), (1, 1), (0, 2), (1, 0)):
    f.add(f"embed_diag_c64_a{a}_b{b}", "embed_diagonal", [T("c64", v)], {"axes": [a, b]}, expected=T("c64", embed(v, a, b)))
f.add("embed_diag_empty", "embed_diagonal", [T("f64", [], [0, 2])], {"axes": [0, 2]}, expected=T("f64", [], [0, 2, 0]))
f.add("embed_diag_bool", "embed_diagonal", [T("bool", [True, True])], {"axes": [0, 1]}, expected=T("bool", [[True, False], [False, True]]))
# tril/triu
x = A([3, 2, 2], "i64")
for k in (-1, 0, 1):
    r, c = np.indices((3, 2))
    f.add(f"tril_rank3_k{k}", "tril", [T("i64", x)], {"k": k}, expected=T("i64", np.where((r >= c - k)[:, :, None], x, 0)))
    f.add(f"triu_rank3_k{k}", "triu", [T("i64", x)], {"k": k}, expected=T("i64", np.where((r <= c - k)[:, :, None], x, 0)))
f.add("tril_empty", "tril", [T("f32", [], [0, 3])], {"k": 0}, expected=T("f32", [], [0, 3]))
f.add("triu_bool_k1", "triu", [T("bool", [[True, True], [True, True]])], {"k": 1}, expected=T("bool", [[False, True], [False, False]]))
f.add("tril_k_huge", "tril", [T("f32", [[1.0, 2.0], [3.0, 4.0]])], {"k": -9223372036854775807}, expected=T("f32", [[0.0, 0.0], [0.0, 0.0]]))
f.add("triu_k_huge", "triu", [T("f32", [[1.0, 2.0], [3.0, 4.0]])], {"k": -9223372036854775807}, expected=T("f32", [[1.0, 2.0], [3.0, 4.0]]))
# slice
x = A([4, 5], "f64")
f.add("slice_stride_overshoot", "slice", [T("f64", x)], {"start_indices": [1, 0], "limit_indices": [4, 5], "strides": [2, 3]}, expected=T("f64", x[1:4:2, 0:5:3]))
f.add("slice_start_eq_extent", "slice", [T("f64", x)], {"start_indices": [4, 5], "limit_indices": [4, 5], "strides": [1, 1]}, expected=T("f64", [], [0, 0]))
f.add("slice_negative_stride_invalid", "slice", [T("f64", x)], {"start_indices": [3, 0], "limit_indices": [0, 5], "strides": [-1, 1]}, error="invalid_argument")
f.add("slice_negative_start_invalid", "slice", [T("f64", x)], {"start_indices": [-1, 0], "limit_indices": [2, 5], "strides": [1, 1]}, error="invalid_argument")
f.add("slice_rank0", "slice", [S("f64", 2.0)], {"start_indices": [], "limit_indices": [], "strides": []}, expected=S("f64", 2.0))
f.add("slice_on_empty", "slice", [T("i32", [], [0, 3])], {"start_indices": [0, 1], "limit_indices": [0, 3], "strides": [1, 1]}, expected=T("i32", [], [0, 2]))
f.add("slice_strides_len", "slice", [T("f64", x)], {"start_indices": [0, 0], "limit_indices": [1, 1], "strides": [1]}, error="rank_mismatch")
f.add("slice_bool_strided", "slice", [T("bool", A([5], "bool"))], {"start_indices": [0], "limit_indices": [5], "strides": [2]}, expected=T("bool", A([5], "bool")[0:5:2]))
# dynamic_slice
x = A([3, 4], "i32")
f.add("dyn_slice_i64_huge_starts", "dynamic_slice", [T("i32", x), T("i64", [2**40, -(2**40)])], {"slice_sizes": [2, 2]}, expected=T("i32", x[1:3, 0:2]))
f.add("dyn_slice_i64_min_starts", "dynamic_slice", [T("i32", x), T("i64", [I64_MIN, I64_MAX])], {"slice_sizes": [1, 3]}, expected=T("i32", x[0:1, 1:4]))
f.add("dyn_slice_i32_extremes", "dynamic_slice", [T("i32", x), T("i32", [I32_MAX, I32_MIN])], {"slice_sizes": [3, 4]}, expected=T("i32", x))
f.add("dyn_slice_zero_size", "dynamic_slice", [T("i32", x), T("i32", [5, 1])], {"slice_sizes": [0, 2]}, expected=T("i32", [], [0, 2]))
f.add("dyn_slice_rank0", "dynamic_slice", [S("c64", 1j), T("i32", [], [0])], {"slice_sizes": []}, expected=S("c64", 1j))
f.add("dyn_slice_sizes_len", "dynamic_slice", [T("i32", x), T("i32", [0, 0])], {"slice_sizes": [1]}, error="rank_mismatch")
f.add("dyn_slice_starts_rank2", "dynamic_slice", [T("i32", x), T("i32", [[0, 0]])], {"slice_sizes": [1, 1]}, error="invalid_argument")
f.add("dyn_slice_starts_float_exact", "dynamic_slice", [T("i32", x), T("f64", [1.0, 2.0])], {"slice_sizes": [1, 1]}, expected=T("i32", [[x[1, 2]]]))
f.add("dyn_slice_starts_float_frac", "dynamic_slice", [T("i32", x), T("f32", [1.5, 2.0])], {"slice_sizes": [1, 1]}, error="invalid_argument")
f.add("dyn_slice_starts_bool", "dynamic_slice", [T("i32", x), T("bool", [True, False])], {"slice_sizes": [1, 1]}, error="invalid_argument")
f.add("dyn_slice_on_empty_axis", "dynamic_slice", [T("f32", [], [0, 3]), T("i32", [0, 2])], {"slice_sizes": [0, 2]}, expected=T("f32", [], [0, 2]))
# dynamic_update_slice
op = A([3, 4], "f64"); up = -A([2, 2], "f64")
def dus(o, u, st):
    o = o.copy(); st = [min(max(s, 0), o.shape[i]-u.shape[i]) for i, s in enumerate(st)]
    o[tuple(slice(s, s+u.shape[i]) for i, s in enumerate(st))] = u; return o
f.add("dus_i64_huge_starts", "dynamic_update_slice", [T("f64", op), T("f64", up), T("i64", [2**40, I64_MIN])], expected=T("f64", dus(op, up, [9, -9])))
f.add("dus_empty_update", "dynamic_update_slice", [T("f64", op), T("f64", [], [0, 2]), T("i32", [1, 1])], expected=T("f64", op))
f.add("dus_full_overwrite", "dynamic_update_slice", [T("f64", op), T("f64", -op), T("i32", [1, 1])], expected=T("f64", -op))
f.add("dus_rank_mismatch", "dynamic_update_slice", [T("f64", op), T("f64", [1.0]), T("i32", [0, 0])], error="rank_mismatch")
f.add("dus_dtype_mismatch", "dynamic_update_slice", [T("f64", op), T("f32", [[1.0]]), T("i32", [0, 0])], error="dtype_mismatch")
f.add("dus_bool", "dynamic_update_slice", [T("bool", [False, False, False]), T("bool", [True]), T("i32", [1])], expected=T("bool", [False, True, False]))
f.add("dus_rank0", "dynamic_update_slice", [S("i32", 1), S("i32", 7), T("i64", [], [0])], expected=S("i32", 7))
# pad
def pad_ref(x, lo, hi, it, val):
    for ax in range(x.ndim):
        n = x.shape[ax]
        # interior
        if n > 0 and it[ax] > 0:
            shp = list(x.shape); shp[ax] = n + (n-1)*it[ax]
            y = np.full(shp, val, dtype=x.dtype)
            idx = [slice(None)]*x.ndim; idx[ax] = slice(0, None, it[ax]+1); y[tuple(idx)] = x; x = y
        n = x.shape[ax]
        # low
        if lo[ax] >= 0:
            shp = list(x.shape); shp[ax] = lo[ax]; x = np.concatenate([np.full(shp, val, dtype=x.dtype), x], ax)
        else:
            idx = [slice(None)]*x.ndim; idx[ax] = slice(-lo[ax], None); x = x[tuple(idx)]
        if hi[ax] >= 0:
            shp = list(x.shape); shp[ax] = hi[ax]; x = np.concatenate([x, np.full(shp, val, dtype=x.dtype)], ax)
        else:
            idx = [slice(None)]*x.ndim; idx[ax] = slice(0, x.shape[ax]+hi[ax]); x = x[tuple(idx)]
    return x
x = A([3, 2], "i32")
for lo, hi, it in (([-1, 1], [2, -1], [2, 0]), ([-5, 0], [0, 0], [2, 1]), ([1, -3], [-1, 0], [0, 2]), ([0, 0], [-7, 0], [2, 0])):
    r = pad_ref(x, lo, hi, it, -9)
    f.add(f"pad_i32_lo{lo}_hi{hi}_it{it}".replace(" ", ""), "pad", [T("i32", x), S("i32", -9)], {"edge_padding_low": lo, "edge_padding_high": hi, "interior_padding": it}, expected=T("i32", r, list(r.shape)))
f.add("pad_empty_with_interior", "pad", [T("f32", [], [0])], {"edge_padding_low": [2], "edge_padding_high": [1], "interior_padding": [3]}, expected=T("f32", [0.0, 0.0, 0.0]))
f.add("pad_extent1_interior", "pad", [T("f32", [5.0])], {"edge_padding_low": [0], "edge_padding_high": [0], "interior_padding": [4]}, expected=T("f32", [5.0]))
f.add("pad_rank0", "pad", [S("f32", 5.0)], {"edge_padding_low": [], "edge_padding_high": [], "interior_padding": []}, expected=S("f32", 5.0))
f.add("pad_bool_true_value", "pad", [T("bool", [False]), S("bool", True)], {"edge_padding_low": [1], "edge_padding_high": [1], "interior_padding": [0]}, expected=T("bool", [True, False, True]))
f.add("pad_bool_default_false", "pad", [T("bool", [True, True])], {"edge_padding_low": [1], "edge_padding_high": [0], "interior_padding": [1]}, expected=T("bool", [False, True, False, True]))
f.add("pad_c32_value", "pad", [T("c32", [1j]), S("c32", 2-1j)], {"edge_padding_low": [1], "edge_padding_high": [1], "interior_padding": [0]}, expected=T("c32", [2-1j, 1j, 2-1j]))
f.add("pad_crop_to_zero", "pad", [T("f64", [1.0, 2.0])], {"edge_padding_low": [-1], "edge_padding_high": [-1], "interior_padding": [0]}, expected=T("f64", [], [0]))
f.add("pad_crop_negative_extent", "pad", [T("f64", [1.0, 2.0])], {"edge_padding_low": [-2], "edge_padding_high": [-1], "interior_padding": [0]}, error="invalid_argument")
f.add("pad_value_dtype_mismatch", "pad", [T("f64", [1.0]), S("f32", 1.0)], {"edge_padding_low": [1], "edge_padding_high": [0], "interior_padding": [0]}, error="dtype_mismatch")
f.add("pad_value_rank1_print", "pad", [T("f64", [1.0]), T("f64", [1.0])], {"edge_padding_low": [1], "edge_padding_high": [0], "interior_padding": [0]})
f.add("pad_vectors_len", "pad", [T("f64", [1.0])], {"edge_padding_low": [1, 0], "edge_padding_high": [0, 0], "interior_padding": [0, 0]}, error="rank_mismatch")
f.add("pad_nan_value", "pad", [T("f32", [1.0]), S("f32", NAN)], {"edge_padding_low": [0], "edge_padding_high": [1], "interior_padding": [0]}, expected=T("f32", [1.0, NAN]))
f.add("pad_i64_min_value", "pad", [T("i64", [[1]]), S("i64", I64_MIN)], {"edge_padding_low": [0, 1], "edge_padding_high": [1, 0], "interior_padding": [0, 0]}, expected=T("i64", [[I64_MIN, 1], [I64_MIN, I64_MIN]]))
# concatenate
f.add("concat_all_empty", "concatenate", [T("f32", [], [0, 2]), T("f32", [], [0, 2])], {"dimension": 0}, expected=T("f32", [], [0, 2]))
f.add("concat_empty_middle_axis1", "concatenate", [T("i64", [[1], [2]]), T("i64", [], [2, 0]), T("i64", [[3, 4], [5, 6]])], {"dimension": 1}, expected=T("i64", [[1, 3, 4], [2, 5, 6]]))
f.add("concat_empty_mismatch_other_axis", "concatenate", [T("i64", [], [0, 3]), T("i64", [[1, 2]])], {"dimension": 0}, error="shape_mismatch")
f.add("concat_rank0", "concatenate", [S("f32", 1.0), S("f32", 2.0)], {"dimension": 0}, error="axis_out_of_bounds")
f.add("concat_c64_axis2", "concatenate", [T("c64", A([2, 1, 2], "c64")), T("c64", A([2, 1, 1], "c64", 50))], {"dimension": 2}, expected=T("c64", np.concatenate([A([2, 1, 2], "c64"), A([2, 1, 1], "c64", 50)], 2)))
f.add("concat_single_empty", "concatenate", [T("bool", [], [0])], {"dimension": 0}, expected=T("bool", [], [0]))
f.add("concat_many_1d", "concatenate", [T("i32", [i]) for i in range(12)], {"dimension": 0}, expected=T("i32", list(range(12))))
f.add("concat_dtype_mismatch_empty", "concatenate", [T("f32", [], [0]), T("f64", [1.0])], {"dimension": 0}, error="dtype_mismatch")
# reverse
x = A([2, 3, 2], "c32")
f.add("reverse_axes_0_2", "reverse", [T("c32", x)], {"dimensions": [2, 0]}, expected=T("c32", x[::-1, :, ::-1]))
f.add("reverse_empty", "reverse", [T("f32", [], [3, 0])], {"dimensions": [0, 1]}, expected=T("f32", [], [3, 0]))
f.add("reverse_rank0", "reverse", [S("i32", 4)], {"dimensions": []}, expected=S("i32", 4))
f.add("reverse_rank0_axis", "reverse", [S("i32", 4)], {"dimensions": [0]}, error="axis_out_of_bounds")
f.add("reverse_repeat", "reverse", [T("i32", [1, 2])], {"dimensions": [0, 0]}, error="invalid_argument")
f.write()
