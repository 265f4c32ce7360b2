from lib import *
import warnings; warnings.simplefilter("ignore")
from ref_idx import gather, scatter
f = File("p_index")
def G(name, dt, op, idt, idx, od, cd, sim, ivd, ss, obd=(), sibd=(), error=None):
    attrs = {"offset_dims": od, "collapsed_slice_dims": cd, "start_index_map": sim, "index_vector_dim": ivd, "slice_sizes": ss}
    if obd or sibd: attrs["operand_batching_dims"] = list(obd); attrs["start_indices_batching_dims"] = list(sibd)
    idxa = np.array(idx, dtype=object) if not isinstance(idx, np.ndarray) else idx
    if error:
        f.add(name, "gather", [T(dt, op), T(idt, idx if not isinstance(idx, np.ndarray) else idx)], attrs, error=error); return
    r = gather(op, np.array(idx), od, cd, sim, ivd, ss, obd, sibd)
    f.add(name, "gather", [T(dt, op), T(idt, idx, list(np.array(idx).shape))], attrs, expected=T(dt, r, list(r.shape)))
def Sc(name, dt, op, idt, idx, upd, uwd, iwd, sdod, ivd, ibd=(), sibd=(), combiner=None, oob=None, error=None, expected=None):
    attrs = {"update_window_dims": uwd, "inserted_window_dims": iwd, "scatter_dims_to_operand_dims": sdod, "index_vector_dim": ivd}
    if ibd or sibd: attrs["input_batching_dims"] = list(ibd); attrs["scatter_indices_batching_dims"] = list(sibd)
    if combiner: attrs["combiner"] = combiner
    if oob: attrs["out_of_bounds"] = oob
    ins = [T(dt, op, list(op.shape)), T(idt, np.array(idx), list(np.array(idx).shape)), T(dt, upd, list(upd.shape))]
    if error: f.add(name, "scatter", ins, attrs, error=error); return
    if expected is None:
        r = scatter(op, np.array(idx), upd, uwd, iwd, sdod, ivd, ibd, sibd, combiner or "add", oob or "clamp")
        expected = T(dt, r, list(r.shape))
    f.add(name, "scatter", ins, attrs, expected=expected)
op345 = np.arange(60).reshape(3, 4, 5).astype(np.float64)
G("gather_offset_dims_0_2", "f64", op345, "i32", [3, -1], [0, 2], [1], [1], 1, [2, 1, 3])
G("gather_ivd_eq_rank_rank2", "i64", np.array([10, 11, 12, 13, 14]), "i64", [[4, 0], [2, 9]], [], [0], [0], 2, [1])
G("gather_ivd_eq_rank_rank2_window", "i32", np.arange(12).reshape(4, 3).astype(np.int32), "i32", [[3, 1], [0, 2]], [2], [0], [0], 2, [1, 2])
G("gather_ivd0_three_points", "f32", np.arange(16).reshape(4, 4).astype(np.float32), "i32", [[0, 3, 1], [2, 1, 3]], [], [0, 1], [0, 1], 0, [1, 1])
G("gather_ivd_middle", "f32", np.arange(16).reshape(4, 4).astype(np.float32), "i32", np.array([[[0, 1], [3, 2]], [[1, 1], [0, 0]]]).transpose(0, 2, 1), [], [0, 1], [0, 1], 1, [1, 1])
G("gather_start_map_subset_permuted", "f64", np.arange(24).reshape(3, 4, 2).astype(np.float64), "i64", [[1, 2], [0, 0], [1, 5]], [1, 2], [0], [2, 0], 1, [1, 4, 1])
G("gather_batching_dim_last", "f64", np.arange(24).reshape(3, 2, 4).astype(np.float64), "i32", np.array([[2, 0], [1, 1], [0, 2], [2, 2]]).reshape(4, 2, 1), [2], [0], [0], 2, [1, 2, 1], obd=[2], sibd=[0])
G("gather_batching_dim_indices_after_ivd", "f64", np.arange(24).reshape(4, 3, 2).astype(np.float64), "i32", np.array([[1, 0, 2, 1]]), [1], [1], [1], 0, [1, 1, 2], obd=[0], sibd=[1])
G("gather_two_batching_dims", "i32", np.arange(2*3*4).reshape(2, 3, 4).astype(np.int32), "i32", np.array([[3, 0, 1], [2, 2, 0]]), [], [2], [2], 2, [1, 1, 1], obd=[0, 1], sibd=[0, 1])
G("gather_two_batching_dims_swapped", "i32", np.arange(2*3*4).reshape(2, 3, 4).astype(np.int32), "i32", np.array([[3, 0], [1, 2], [2, 0]]), [], [2], [2], 2, [1, 1, 1], obd=[0, 1], sibd=[1, 0])
G("gather_i64_huge_indices_clamp", "f32", np.arange(6).astype(np.float32), "i64", [[2**40], [-(2**40)], [I64_MIN], [I64_MAX]], [1], [], [0], 1, [2])
G("gather_f32_index_minus1_clamps", "f32", np.arange(6).astype(np.float32), "f32", [[-1.0], [5.0]], [], [0], [0], 1, [1])
f.add("gather_f64_index_nan", "gather", [T("f32", [1.0, 2.0]), T("f64", [[NAN]])], {"offset_dims": [], "collapsed_slice_dims": [0], "start_index_map": [0], "index_vector_dim": 1, "slice_sizes": [1]}, error="invalid_argument")
f.add("gather_f32_index_inf", "gather", [T("f32", [1.0, 2.0]), T("f32", [[INF]])], {"offset_dims": [], "collapsed_slice_dims": [0], "start_index_map": [0], "index_vector_dim": 1, "slice_sizes": [1]}, error="invalid_argument")
f.add("gather_c64_index", "gather", [T("f32", [1.0, 2.0]), T("c64", [[1]])], {"offset_dims": [], "collapsed_slice_dims": [0], "start_index_map": [0], "index_vector_dim": 1, "slice_sizes": [1]}, error="invalid_argument")
f.add("gather_f64_index_huge_exact_print", "gather", [T("f32", [1.0, 2.0]), T("f64", [[1e30]])], {"offset_dims": [], "collapsed_slice_dims": [0], "start_index_map": [0], "index_vector_dim": 1, "slice_sizes": [1]})
G("gather_empty_slice_operand", "f32", np.zeros((3, 0), np.float32), "i32", [[1], [2]], [1], [0], [0], 1, [1, 0])
G("gather_full_window_rank0_out", "c64", np.array([[1+1j, 2], [3, 4j]]), "i32", [0, 0], [], [0, 1], [0, 1], 0, [1, 1])
G("gather_whole_operand_window", "bool", np.array([[True, False, True], [False, False, True]]), "i32", [[5]], [1, 2], [], [1], 1, [2, 3])
f.add("gather_collapsed_size_not_1", "gather", [T("f32", [[1.0, 2.0], [3.0, 4.0]]), T("i32", [[0]])], {"offset_dims": [1], "collapsed_slice_dims": [0], "start_index_map": [0], "index_vector_dim": 1, "slice_sizes": [2, 2]}, error="invalid_argument")
f.add("gather_start_map_len_vs_index_vector", "gather", [T("f32", [[1.0, 2.0], [3.0, 4.0]]), T("i32", [[0, 1]])], {"offset_dims": [1], "collapsed_slice_dims": [0], "start_index_map": [0], "index_vector_dim": 1, "slice_sizes": [1, 2]}, error="invalid_argument")
f.add("gather_collapsed_repeated", "gather", [T("f32", [[1.0, 2.0], [3.0, 4.0]]), T("i32", [[0]])], {"offset_dims": [], "collapsed_slice_dims": [0, 0], "start_index_map": [0], "index_vector_dim": 1, "slice_sizes": [1, 1]}, error="invalid_argument")
f.add("gather_offset_dims_unsorted_print", "gather", [T("f64", op345), T("i32", [[0]])], {"offset_dims": [2, 1], "collapsed_slice_dims": [0], "start_index_map": [0], "index_vector_dim": 1, "slice_sizes": [1, 2, 2]})
f.add("gather_ivd_gt_rank_print", "gather", [T("f32", [1.0, 2.0]), T("i32", [[0]])], {"offset_dims": [], "collapsed_slice_dims": [0], "start_index_map": [0], "index_vector_dim": 3, "slice_sizes": [1]})
f.add("gather_batching_extent_mismatch", "gather", [T("f32", [[1.0, 2.0], [3.0, 4.0]]), T("i32", [0, 1, 0])], {"offset_dims": [], "collapsed_slice_dims": [1], "start_index_map": [1], "index_vector_dim": 1, "slice_sizes": [1, 1], "operand_batching_dims": [0], "start_indices_batching_dims": [0]})
f.add("gather_slice_sizes_negative", "gather", [T("f32", [1.0, 2.0]), T("i32", [[0]])], {"offset_dims": [1], "collapsed_slice_dims": [], "start_index_map": [0], "index_vector_dim": 1, "slice_sizes": [-1]}, error="invalid_argument")
f.add("gather_start_index_map_oob", "gather", [T("f32", [1.0, 2.0]), T("i32", [[0]])], {"offset_dims": [], "collapsed_slice_dims": [0], "start_index_map": [1], "index_vector_dim": 1, "slice_sizes": [1]}, error="axis_out_of_bounds")
# scatter
o = np.arange(1, 6).astype(np.float64)
for comb in ("add", "mul", "max", "min"):
    Sc(f"scatter_dup_{comb}_f64", "f64", o, "i32", [[1], [3], [1], [1], [3]], np.array([2.0, -1.0, 5.0, 0.5, 7.0]), [], [0], [0], 1, combiner=comb)
    Sc(f"scatter_dup_{comb}_i32_extremes", "i32", np.array([0, 1, -1, I32_MAX], np.int32), "i32", [[0], [0], [3], [3], [2]], np.array([I32_MAX, I32_MIN, 2, 3, I32_MIN], np.int32), [], [0], [0], 1, combiner=comb)
    Sc(f"scatter_dup_{comb}_i64_beyond_2p53", "i64", np.array([2**53, 5], np.int64), "i64", [[0], [0], [1]], np.array([2**53+1, 2**53-1, -(2**62)], np.int64), [], [0], [0], 1, combiner=comb)
Sc("scatter_dup_replace_equal_values", "f64", o, "i32", [[2], [2], [2]], np.array([9.0, 9.0, 9.0]), [], [0], [0], 1, combiner="replace")
Sc("scatter_min_nan_update", "f32", np.array([1.0, 2.0, NAN], np.float32), "i32", [[0], [1], [2]], np.array([NAN, 0.5, 3.0], np.float32), [], [0], [0], 1, combiner="min")
Sc("scatter_max_nan_operand_kept", "f64", np.array([NAN, 1.0]), "i32", [[0], [1], [1]], np.array([5.0, INF, -INF]), [], [0], [0], 1, combiner="max")
Sc("scatter_max_all_neg_inf", "f32", np.array([-INF, -INF], np.float32), "i32", [[0]], np.array([-INF], np.float32), [], [0], [0], 1, combiner="max")
Sc("scatter_mul_c64_dup", "c64", np.array([1+1j, 2]), "i32", [[0], [0], [1]], np.array([1j, 1-1j, 2j]), [], [0], [0], 1, combiner="mul")
Sc("scatter_add_c32_dup", "c32", np.array([1+1j, 2], np.complex64), "i32", [[0], [0], [1]], np.array([1j, 1-1j, 2j], np.complex64), [], [0], [0], 1)
f.add("scatter_max_c64_unsupported", "scatter", [T("c64", [1j]), T("i32", [[0]]), T("c64", [1])], {"update_window_dims": [], "inserted_window_dims": [0], "scatter_dims_to_operand_dims": [0], "index_vector_dim": 1, "combiner": "max"}, error="unsupported")
f.add("scatter_min_bool_print", "scatter", [T("bool", [True, False]), T("i32", [[0]]), T("bool", [False])], {"update_window_dims": [], "inserted_window_dims": [0], "scatter_dims_to_operand_dims": [0], "index_vector_dim": 1, "combiner": "min"})
f.add("scatter_mul_bool_print", "scatter", [T("bool", [True, False]), T("i32", [[0]]), T("bool", [False])], {"update_window_dims": [], "inserted_window_dims": [0], "scatter_dims_to_operand_dims": [0], "index_vector_dim": 1, "combiner": "mul"})
f.add("scatter_add_bool_empty_unsupported", "scatter", [T("bool", [True, False]), T("i32", [], [0, 1]), T("bool", [], [0])], {"update_window_dims": [], "inserted_window_dims": [0], "scatter_dims_to_operand_dims": [0], "index_vector_dim": 1}, error="unsupported")
# windows, skip, clamp
op34 = np.arange(12).reshape(3, 4).astype(np.float64)
upd = np.array([[[1.0, 2.0], [3.0, 4.0]], [[5.0, 6.0], [7.0, 8.0]]])
for oob in ("clamp", "skip"):
    Sc(f"scatter_window_high_partial_{oob}", "f64", op34, "i32", [[2, 3], [1, -1]], upd, [1, 2], [], [0, 1], 1, oob=oob)
    Sc(f"scatter_window_first_update_dims_{oob}", "f64", op34, "i64", [[2**40, 0], [0, 1]], upd.transpose(1, 2, 0).copy(), [0, 1], [], [0, 1], 1, oob=oob)
    Sc(f"scatter_points_i64_extremes_{oob}", "i32", np.zeros(4, np.int32), "i64", [[I64_MIN], [I64_MAX], [3], [4]], np.array([1, 2, 4, 8], np.int32), [], [0], [0], 1, oob=oob)
    Sc(f"scatter_f32_indices_{oob}", "f32", np.zeros(3, np.float32), "f32", [[-1.0], [2.0], [3.0]], np.array([1, 2, 4], np.float32), [], [0], [0], 1, oob=oob)
Sc("scatter_ivd_eq_rank_rank2", "i64", np.zeros(5, np.int64), "i32", [[0, 4], [4, 2]], np.array([[1, 2], [3, 4]], np.int64), [], [0], [0], 2)
Sc("scatter_ivd0", "f32", np.zeros((3, 3), np.float32), "i32", [[0, 2, 2], [1, 0, 0]], np.array([1.0, 2.0, 3.0], np.float32), [], [0, 1], [0, 1], 0)
Sc("scatter_sdod_permuted", "f64", np.zeros((2, 3, 4)), "i32", [[3, 1], [0, 0]], np.arange(1, 7).reshape(2, 3).astype(np.float64), [1], [0, 2], [2, 0], 1)
Sc("scatter_batching_dim_last", "f64", np.zeros((3, 2, 4)), "i32", np.array([[2, 0], [1, 1], [0, 2], [2, 2]]).reshape(4, 2, 1), np.arange(1, 17).reshape(4, 2, 2).astype(np.float64), [2], [0], [0], 2, ibd=[2], sibd=[0])
Sc("scatter_two_batching_dims_swapped", "i32", np.zeros((2, 3, 4), np.int32), "i32", np.array([[3, 0], [1, 2], [2, 0]]), np.arange(1, 7).reshape(3, 2).astype(np.int32), [], [2], [2], 2, ibd=[0, 1], sibd=[1, 0])
Sc("scatter_batching_skip_oob", "f32", np.zeros((2, 3), np.float32), "i32", [5, 1], np.array([7.0, 8.0], np.float32), [], [1], [1], 1, ibd=[0], sibd=[0], oob="skip")
Sc("scatter_batching_clamp_oob", "f32", np.zeros((2, 3), np.float32), "i32", [5, -1], np.array([7.0, 8.0], np.float32), [], [1], [1], 1, ibd=[0], sibd=[0])
Sc("scatter_empty_indices", "f64", op34, "i32", np.zeros((0, 2), np.int32), np.zeros((0,)), [], [0, 1], [0, 1], 1)
Sc("scatter_empty_operand", "f32", np.zeros((0, 3), np.float32), "i32", np.zeros((0, 1), np.int32), np.zeros((0, 3), np.float32), [1], [0], [0], 1)
Sc("scatter_empty_window_dim", "f32", np.zeros((3, 0), np.float32), "i32", [[1]], np.zeros((1, 0), np.float32), [1], [0], [0], 1)
Sc("scatter_f32_many_dups_add", "f32", np.zeros(2, np.float32), "i32", [[0]]*64 + [[1]], np.array([0.25]*64 + [1.0], np.float32), [], [0], [0], 1)
Sc("scatter_rank0_update_ivd0", "f64", np.zeros(3), "i32", [2], np.array(5.0), [], [0], [0], 0)
f.add("scatter_updates_shape_wrong", "scatter", [T("f32", [0.0, 0.0]), T("i32", [[0], [1]]), T("f32", [1.0, 2.0, 3.0])], {"update_window_dims": [], "inserted_window_dims": [0], "scatter_dims_to_operand_dims": [0], "index_vector_dim": 1})
f.add("scatter_f64_index_frac", "scatter", [T("f32", [0.0, 0.0]), T("f64", [[0.5]]), T("f32", [1.0])], {"update_window_dims": [], "inserted_window_dims": [0], "scatter_dims_to_operand_dims": [0], "index_vector_dim": 1}, error="invalid_argument")
f.add("scatter_sdod_oob", "scatter", [T("f32", [0.0, 0.0]), T("i32", [[0]]), T("f32", [1.0])], {"update_window_dims": [], "inserted_window_dims": [0], "scatter_dims_to_operand_dims": [1], "index_vector_dim": 1}, error="axis_out_of_bounds")
f.add("scatter_inserted_repeated", "scatter", [T("f32", [[0.0]]), T("i32", [[0, 0]]), T("f32", [1.0])], {"update_window_dims": [], "inserted_window_dims": [0, 0], "scatter_dims_to_operand_dims": [0, 1], "index_vector_dim": 1}, error="invalid_argument")
f.add("scatter_batching_lists_len", "scatter", [T("f32", [[0.0]]), T("i32", [0]), T("f32", [1.0])], {"update_window_dims": [], "inserted_window_dims": [1], "scatter_dims_to_operand_dims": [1], "index_vector_dim": 1, "input_batching_dims": [0], "scatter_indices_batching_dims": []}, error="invalid_argument")
f.write()
