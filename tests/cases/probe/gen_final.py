from lib import *
f = File("p_final")
f.add("div_i32_zero_but_shape_mismatch", "div", [T("i32", [1, 2]), T("i32", [0])], error="shape_mismatch")
f.add("div_i32_zero_but_dtype_mismatch", "div", [T("i32", [1]), T("i64", [0])], error="dtype_mismatch")
f.add("pow_i64_neg_exp_shape_mismatch", "pow", [T("i64", [1]), T("i64", [-1, 2])], error="shape_mismatch")
f.add("div_bool_zero_unsupported", "div", [T("bool", [True]), T("bool", [False])], error="unsupported")
f.add("dot_batch0_both", "dot_general", [T("f64", [], [0, 2]), T("f64", [], [0, 2, 3])], {"lhs_batching_dimensions": [0], "rhs_batching_dimensions": [0], "lhs_contracting_dimensions": [1], "rhs_contracting_dimensions": [1]}, expected=T("f64", [], [3, 0]))
f.add("reduce_sum_c64_inf_nan", "reduce_sum", [T("c64", [[complex(INF, 0), complex(1, NAN)], [complex(INF, 1), complex(-INF, 1)]])], {"dimensions": [1]}, expected=T("c64", [complex(INF, NAN), complex(NAN, 2)]))
f.add("reduce_prod_f32_overflow", "reduce_prod", [T("f32", [1e20, 1e20, -1.0])], {"dimensions": [0]}, expected=S("f32", -INF))
f.add("reduce_sum_f32_overflow", "reduce_sum", [T("f32", [3e38, 3e38, 1.0])], {"dimensions": [0]}, expected=S("f32", INF))
f.add("reduce_sum_f32_overflow_neg_pos", "reduce_sum", [T("f32", [3e38, 3e38, -3e38, -3e38])], {"dimensions": [0]})
f.add("cast_c32_to_c64_nan_inf", "cast", [T("c32", [complex(NAN, -INF)])], {"dtype": "c64"}, expected=T("c64", [complex(NAN, -INF)]))
f.add("convert_bool_to_c32", "convert", [T("bool", [True, False])], {"dtype": "c32"}, expected=T("c32", [1, 0]))
for dt in ("i32", "i64", "f32", "f64", "c32", "c64"):
    v = {"i32": -7, "i64": -7, "f32": -7.5, "f64": -7.5, "c32": -3+4j, "c64": -3+4j}[dt]
    f.add(f"neg_rank0_{dt}", "neg", [S(dt, v)], expected=S(dt, -v))
    f.add(f"abs_rank0_{dt}", "abs", [S(dt, v)], expected=S({"c32": "f32", "c64": "f64"}.get(dt, dt), abs(v)))
    sv = (v/abs(v)) if dt.startswith("c") else (-1 if dt.startswith("i") else -1.0)
    f.add(f"sign_rank0_{dt}", "sign", [S(dt, v)], expected=S(dt, sv))
for d in ("EQ", "NE", "LT", "LE", "GT", "GE"):
    a = [I64_MIN, I64_MAX, -1, 0]; b = [I64_MAX, I64_MIN, -1, 0]
    op = {"EQ": lambda x, y: x == y, "NE": lambda x, y: x != y, "LT": lambda x, y: x < y, "LE": lambda x, y: x <= y, "GT": lambda x, y: x > y, "GE": lambda x, y: x >= y}[d]
    f.add(f"compare_{d}_i64_extremes", "compare", [T("i64", a), T("i64", b)], {"direction": d}, expected=T("bool", [op(x, y) for x, y in zip(a, b)]))
    fa = [1e308, -INF, 5e-324, NAN]; fb = [1.7e308, -1e308, 0.0, 1.0]
    f.add(f"compare_{d}_f64_edges", "compare", [T("f64", fa), T("f64", fb)], {"direction": d}, expected=T("bool", [op(x, y) for x, y in zip(fa, fb)]))
f.write()
