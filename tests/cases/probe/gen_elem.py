from lib import *
def tdiv(a, b):
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q
def trem(a, b): return a - tdiv(a, b) * b
f = File("p_elem")
# ---- integer wrapping
for dt, MN, MX in (("i32", I32_MIN, I32_MAX), ("i64", I64_MIN, I64_MAX)):
    a = [MN, MX, MN, MX, -1, MN]; b = [MN, MX, -1, 1, MN, MX]
    f.add(f"add_{dt}_extremes", "add", [T(dt, a), T(dt, b)], expected=T(dt, [wrap(x+y, dt) for x, y in zip(a, b)]))
    f.add(f"sub_{dt}_extremes", "sub", [T(dt, a), T(dt, b)], expected=T(dt, [wrap(x-y, dt) for x, y in zip(a, b)]))
    f.add(f"mul_{dt}_extremes", "mul", [T(dt, a), T(dt, b)], expected=T(dt, [wrap(x*y, dt) for x, y in zip(a, b)]))
    c = [MN, MN, MN, MX, MX, -7, 7, -7, 0, MN+1]; d = [-1, MN, 3, MN, -1, 2, -2, -2, MN, -1]
    f.add(f"div_{dt}_extremes", "div", [T(dt, c), T(dt, d)], expected=T(dt, [wrap(tdiv(x, y), dt) for x, y in zip(c, d)]))
    f.add(f"rem_{dt}_extremes", "rem", [T(dt, c), T(dt, d)], expected=T(dt, [wrap(trem(x, y), dt) for x, y in zip(c, d)]))
    f.add(f"neg_{dt}_extremes_rank0", "neg", [S(dt, MN)], expected=S(dt, MN))
    f.add(f"abs_{dt}_extremes", "abs", [T(dt, [MN, MN+1, MX, 0, -1])], expected=T(dt, [MN, MX, MX, 0, 1]))
    f.add(f"sign_{dt}_extremes", "sign", [T(dt, [MN, MX, 0, -1])], expected=T(dt, [-1, 1, 0, -1]))
    f.add(f"div_{dt}_zero_among_many", "div", [T(dt, [1, 2, 3, 4]), T(dt, [1, 1, 0, 1])], error="numerical_failure")
    f.add(f"rem_{dt}_zero_min", "rem", [S(dt, MN), S(dt, 0)], error="numerical_failure")
    f.add(f"rem_{dt}_zero_dividend_zero_divisor", "rem", [T(dt, [0]), T(dt, [0])], error="numerical_failure")
    f.add(f"div_{dt}_empty_no_error", "div", [T(dt, [], [0]), T(dt, [], [0])], expected=T(dt, [], [0]))
    # pow
    base = [1, -1, -1, 2, -2, 0, 0, MN, 3, 2, 5]
    ex = [MX, MX, MX-1, 64, 63, 0, 5, 2, 100, 31 if dt == 'i32' else 63, 1]
    exp_ = [wrap(pow(x, y, 1 << (32 if dt == 'i32' else 64)), dt) if y > 0 else 1 for x, y in zip(base, ex)]
    f.add(f"pow_{dt}_wrap_large_exponents", "pow", [T(dt, base), T(dt, ex)], expected=T(dt, exp_))
    f.add(f"pow_{dt}_negative_exponent_base1", "pow", [T(dt, [1, 2]), T(dt, [-1, 2])], error="numerical_failure")
    f.add(f"pow_{dt}_negative_exponent_base0", "pow", [S(dt, 0), S(dt, -1)], error="numerical_failure")
    f.add(f"pow_{dt}_min_exponent", "pow", [S(dt, -1), S(dt, MN)], error="numerical_failure")
    f.add(f"max_{dt}_extremes", "maximum", [T(dt, [MN, MX, MN, -1]), T(dt, [MX, MN, MN+1, 0])], expected=T(dt, [MX, MX, MN+1, 0]))
    f.add(f"min_{dt}_extremes", "minimum", [T(dt, [MN, MX, MN, -1]), T(dt, [MX, MN, MN+1, 0])], expected=T(dt, [MN, MN, MN, -1]))
# i64 values differing only beyond 2^53
big = 2**53
f.add("compare_GT_i64_beyond_2p53", "compare", [T("i64", [big+1, I64_MAX, I64_MIN+1]), T("i64", [big, I64_MAX-1, I64_MIN])], {"direction": "GT"}, expected=T("bool", [True, True, True]))
f.add("compare_EQ_i64_beyond_2p53", "compare", [T("i64", [big+1, I64_MAX]), T("i64", [big, I64_MAX-1])], {"direction": "EQ"}, expected=T("bool", [False, False]))
f.add("maximum_i64_beyond_2p53", "maximum", [T("i64", [big+1, big]), T("i64", [big, big+1])], expected=T("i64", [big+1, big+1]))
f.add("div_i64_large", "div", [T("i64", [I64_MAX, 2**62+1, -(2**62)-1]), T("i64", [3, 7, 1000003])], expected=T("i64", [tdiv(I64_MAX, 3), tdiv(2**62+1, 7), tdiv(-(2**62)-1, 1000003)]))
f.add("rem_i64_large", "rem", [T("i64", [I64_MAX, 2**62+1, -(2**62)-1]), T("i64", [3, 7, 1000003])], expected=T("i64", [trem(I64_MAX, 3), trem(2**62+1, 7), trem(-(2**62)-1, 1000003)]))
f.add("mul_i64_large_wrap", "mul", [T("i64", [3037000500, 0x123456789, -(2**40)+3]), T("i64", [3037000500, 0x987654321, 2**30+7])], expected=T("i64", [wrap(3037000500**2, "i64"), wrap(0x123456789*0x987654321, "i64"), wrap((-(2**40)+3)*(2**30+7), "i64")]))
# ---- float rem (fmod)
xs = [5.5, -5.5, 5.5, -5.5, 5.5, INF, 5.0, 1e300, -1e300, 0.1, 7.0, NAN, 3.0]
ys = [2.0, 2.0, -2.0, -2.0, INF, 2.0, 0.0, 3.0, 7.0, 0.01, NAN, 1.0, -INF]
f.add("rem_f64_fmod_edge", "rem", [T("f64", xs), T("f64", ys)], expected=T("f64", [math.fmod(x, y) if not (math.isinf(x) or y == 0 or math.isnan(x) or math.isnan(y)) else NAN for x, y in zip(xs, ys)]))
xs32 = [f32(x) for x in [1e30, -1e30, 3.4e38, 16777217.0, 1e-3, -7.5]]
ys32 = [f32(y) for y in [7.0, 3.0, 1.1, 3.0, 3e-4, 2.0]]
r32 = np.fmod(np.array(xs32, np.float32), np.array(ys32, np.float32)).tolist()
f.add("rem_f32_large_quotient_exact", "rem", [T("f32", xs32), T("f32", ys32)], expected=T("f32", r32))
f.add("rem_f64_negzero_dividend", "rem", [T("f64", [-0.0, -4.0]), T("f64", [1.0, 2.0])], expected=T("f64", [-0.0, -0.0]))
# ---- float pow (C99 / IEEE rules)
px = [-2.0, -0.5, -2.0, 0.0, -0.0, -0.0, -INF, -INF, NAN, 1.0, -1.0, -1.0, 0.5, 2.0, 2.0, INF, 0.0, -8.0]
py = [3.0, -3.0, 0.5, -1.0, -1.0, -2.0, 3.0, -3.0, 0.0, NAN, INF, -INF, INF, INF, -INF, 0.0, 0.0, 1/3]
pr = [-8.0, -8.0, NAN, INF, -INF, INF, -INF, -0.0, 1.0, 1.0, 1.0, 1.0, 0.0, INF, 0.0, 1.0, 1.0, NAN]
for dt in ("f32", "f64"):
    f.add(f"pow_{dt}_c99_specials", "pow", [T(dt, px), T(dt, py)], expected=T(dt, pr))
f.add("pow_f64_accurate", "pow", [T("f64", [1.5, 2.0, 10.0, 0.999]), T("f64", [100.5, 0.5, -300.0, 1e5])],
      expected=T("f64", [math.pow(1.5, 100.5), math.sqrt(2), 1e-300, math.pow(0.999, 1e5)]), rtol=1e-14)
f.add("pow_f32_negative_base_int_exp", "pow", [T("f32", [-3.0, -1.5, -10.0]), T("f32", [4.0, 2.0, 3.0])], expected=T("f32", [81.0, 2.25, -1000.0]))
# ---- float div signed zero / inf
f.add("div_f64_signed_zero_divisor", "div", [T("f64", [1.0, -1.0, 1.0, INF, 0.0]), T("f64", [-0.0, -0.0, INF, INF, -1.0])], expected=T("f64", [-INF, INF, 0.0, NAN, -0.0]))
f.add("div_f32_signed_zero_divisor", "div", [T("f32", [1.0, -1.0, 1.0, INF]), T("f32", [-0.0, -0.0, -INF, INF])], expected=T("f32", [-INF, INF, -0.0, NAN]))
# ---- NaN/inf/-0 in maximum/minimum/compare/sign/abs/clamp/select
for dt in ("f32", "f64"):
    a = [NAN, 1.0, NAN, -INF, INF, -0.0, 0.0]; b = [1.0, NAN, NAN, INF, NAN, 0.0, -0.0]
    f.add(f"maximum_{dt}_specials", "maximum", [T(dt, a), T(dt, b)], expected=T(dt, [NAN, NAN, NAN, INF, NAN, 0.0, 0.0]))
    f.add(f"minimum_{dt}_specials", "minimum", [T(dt, a), T(dt, b)], expected=T(dt, [NAN, NAN, NAN, -INF, NAN, -0.0, -0.0]))
    f.add(f"compare_EQ_{dt}_negzero", "compare", [T(dt, [-0.0, INF, -INF]), T(dt, [0.0, INF, -INF])], {"direction": "EQ"}, expected=T("bool", [True, True, True]))
    f.add(f"compare_LT_{dt}_negzero", "compare", [T(dt, [-0.0, -INF, 1.0]), T(dt, [0.0, INF, INF])], {"direction": "LT"}, expected=T("bool", [False, True, True]))
    f.add(f"compare_GE_{dt}_negzero", "compare", [T(dt, [-0.0, INF, NAN]), T(dt, [0.0, INF, NAN])], {"direction": "GE"}, expected=T("bool", [True, True, False]))
    f.add(f"compare_NE_{dt}_nan_both", "compare", [T(dt, [NAN, 0.0]), T(dt, [NAN, -0.0])], {"direction": "NE"}, expected=T("bool", [True, False]))
    f.add(f"sign_{dt}_specials", "sign", [T(dt, [-0.0, 0.0, INF, -INF, NAN, 1e-45 if dt == 'f32' else 5e-324, -3.0])], expected=T(dt, [0.0, 0.0, 1.0, -1.0, NAN, 1.0, -1.0]))
    f.add(f"abs_{dt}_specials", "abs", [T(dt, [-0.0, -INF, NAN, -3.5])], expected=T(dt, [0.0, INF, NAN, 3.5]))
    f.add(f"clamp_{dt}_nan_x", "clamp", [T(dt, [NAN, 5.0, -5.0, 0.5]), S(dt, 0.0), S(dt, 1.0)], expected=T(dt, [NAN, 1.0, 0.0, 0.5]))
    f.add(f"clamp_{dt}_nan_bound", "clamp", [T(dt, [0.5, 0.5]), T(dt, [NAN, 0.0]), T(dt, [1.0, NAN])], expected=T(dt, [NAN, NAN]))
    f.add(f"clamp_{dt}_lower_gt_upper", "clamp", [T(dt, [-5.0, 0.5, 5.0]), S(dt, 2.0), S(dt, 1.0)], expected=T(dt, [1.0, 1.0, 1.0]))
    f.add(f"clamp_{dt}_inf_bounds", "clamp", [T(dt, [INF, -INF, 3.0]), S(dt, -INF), S(dt, INF)], expected=T(dt, [INF, -INF, 3.0]))
    f.add(f"select_{dt}_nan_passthrough", "select", [T("bool", [True, False, True]), T(dt, [NAN, 1.0, -INF]), T(dt, [2.0, NAN, 3.0])], expected=T(dt, [NAN, NAN, -INF]))
f.add("clamp_i32_tensor_bounds", "clamp", [T("i32", [I32_MIN, I32_MAX, 0, 5]), T("i32", [I32_MIN, 0, 1, 10]), S("i32", I32_MAX)], expected=T("i32", [I32_MIN, I32_MAX, 1, 10]))
f.add("clamp_i64_rank0_all", "clamp", [S("i64", 2**40), S("i64", -(2**40)), S("i64", 2**40-1)], expected=S("i64", 2**40-1))
f.add("clamp_x_rank0_bounds_rank1", "clamp", [S("f64", 1.0), T("f64", [0.0, 0.0]), T("f64", [2.0, 2.0])], error="shape_mismatch")
f.add("clamp_bound_dtype_mismatch", "clamp", [T("f64", [1.0]), S("f32", 0.0), S("f64", 2.0)], error="dtype_mismatch")
f.add("clamp_bool_unsupported", "clamp", [T("bool", [True]), S("bool", False), S("bool", True)], error="unsupported")
f.add("clamp_empty", "clamp", [T("f32", [], [0, 3]), S("f32", 0.0), S("f32", 1.0)], expected=T("f32", [], [0, 3]))
# ---- select
f.add("select_rank0_pred_c64_false", "select", [S("bool", False), T("c64", [1+2j, 3j]), T("c64", [-1j, 5])], expected=T("c64", [-1j, 5]))
f.add("select_all_rank0", "select", [S("bool", True), S("i64", I64_MIN), S("i64", 0)], expected=S("i64", I64_MIN))
f.add("select_pred_rank0_branch_shapes_differ", "select", [S("bool", True), S("f32", 1.0), T("f32", [1.0])], error="shape_mismatch")
f.add("select_pred_shape_differs", "select", [T("bool", [True, False]), T("f32", [1.0, 2.0, 3.0]), T("f32", [1.0, 2.0, 3.0])], error="shape_mismatch")
f.add("select_pred_i32", "select", [T("i32", [1, 0]), T("f32", [1.0, 2.0]), T("f32", [1.0, 2.0])], error="dtype_mismatch")
f.add("select_empty", "select", [T("bool", [], [2, 0]), T("c32", [], [2, 0]), T("c32", [], [2, 0])], expected=T("c32", [], [2, 0]))
f.add("select_bool_branches_rank2", "select", [T("bool", [[True, False], [False, True]]), T("bool", [[True, True], [True, True]]), T("bool", [[False, False], [False, False]])], expected=T("bool", [[True, False], [False, True]]))
f.add("select_rank0_pred_branch_rank0_others_rank1", "select", [S("bool", True), T("f64", [1.0, 2.0]), S("f64", 3.0)], error="shape_mismatch")
# ---- rank-0 scalar rule
f.add("add_rank0_same_dtype_vs_rank1", "add", [S("f64", 1.0), T("f64", [1.0, 2.0])], expected=T("f64", [2.0, 3.0]))
f.add("mul_rank1_vs_rank0_i32", "mul", [T("i32", [1, 2]), S("i32", 3)], expected=T("i32", [3, 6]))
f.add("add_rank0_complex_vs_complex_tensor", "add", [S("c64", 1+1j), T("c64", [1, 2])], expected=T("c64", [2+1j, 3+1j]))
f.add("add_rank0_complex_vs_real_tensor", "add", [S("c64", 1+1j), T("f64", [1.0, 2.0])], error="dtype_mismatch")
f.add("add_real_tensor_vs_rank0_complex", "add", [T("f32", [1.0, 2.0]), S("c32", 1j)], error="dtype_mismatch")
f.add("add_rank1_real_extent1_with_complex", "add", [T("f64", [1.0]), T("c64", [1j])], error="dtype_mismatch")
f.add("add_rank0_int_with_complex", "add", [S("i64", 1), T("c64", [1j])], error="dtype_mismatch")
f.add("pow_rank0_real_with_complex", "pow", [T("c64", [1j]), S("f64", 2.0)], error="dtype_mismatch")
f.add("compare_rank0_real_with_complex", "compare", [S("f64", 1.0), T("c64", [1])], {"direction": "EQ"}, error="dtype_mismatch")
f.add("add_rank0_real_rank0_complex", "add", [S("f64", 2.5), S("c64", 1-1j)], expected=S("c64", 3.5-1j))
f.add("sub_c64_minus_rank0_f64", "sub", [T("c64", [[1+1j, 2], [3j, -1]]), S("f64", 0.5)], expected=T("c64", [[0.5+1j, 1.5], [-0.5+3j, -1.5]]))
f.add("div_rank0_f32_by_c32", "div", [S("f32", 2.0), T("c32", [1+1j, -2j, 4])], expected=T("c32", [1-1j, 1j, 0.5]))
f.add("mul_rank0_f32_with_c32_rank3", "mul", [S("f32", -2.0), T("c32", [[[1+1j], [2]], [[3j], [4-1j]]])], expected=T("c32", [[[-2-2j], [-4]], [[-6j], [-8+2j]]]))
f.add("add_rank0_f32_with_c32_empty", "add", [S("f32", 1.0), T("c32", [], [0])], expected=T("c32", [], [0]))
f.add("add_rank0_f64_with_c64_rank0_both_real_first", "mul", [S("c32", 1+2j), S("f32", 3.0)], expected=S("c32", 3+6j))
f.add("maximum_rank0_f32_with_c32", "maximum", [S("f32", 1.0), T("c32", [1j])], error="dtype_mismatch")
# ---- Bool arithmetic
B2 = T("bool", [True, False])
for op in ("add", "sub", "mul", "div", "rem", "pow", "maximum", "minimum"):
    f.add(f"{op}_bool_unsupported", op, [B2, B2], error="unsupported")
for op in ("neg", "abs", "sign"):
    f.add(f"{op}_bool_unsupported", op, [B2], error="unsupported")
f.add("compare_EQ_bool", "compare", [T("bool", [True, False, True]), T("bool", [True, True, False])], {"direction": "EQ"}, expected=T("bool", [True, False, False]))
f.add("add_bool_empty_unsupported", "add", [T("bool", [], [0]), T("bool", [], [0])], error="unsupported")
# ---- complex elementwise
f.add("maximum_c64_unsupported", "maximum", [T("c64", [1]), T("c64", [2])], error="unsupported")
f.add("minimum_c32_unsupported", "minimum", [T("c32", [1]), T("c32", [2])], error="unsupported")
f.add("compare_LE_c32_unsupported", "compare", [T("c32", [1]), T("c32", [2])], {"direction": "LE"}, error="unsupported")
f.add("compare_EQ_c64_nan_and_negzero", "compare", [T("c64", [complex(1, NAN), complex(0, -0.0), complex(-0.0, 0), 1+1j]), T("c64", [complex(1, NAN), 0j, 0j, 1-1j])], {"direction": "EQ"}, expected=T("bool", [False, True, True, False]))
f.add("compare_NE_c32_nan", "compare", [T("c32", [complex(NAN, 0), 2j]), T("c32", [complex(NAN, 0), 2j])], {"direction": "NE"}, expected=T("bool", [True, False]))
f.add("abs_c32_no_overflow", "abs", [T("c32", [3e30+4e30j, -3e-30+4e-30j, complex(INF, 1)])], expected=T("f32", [5e30, 5e-30, INF]))
f.add("abs_c64_no_overflow", "abs", [T("c64", [3e300+4e300j, complex(-INF, 0), complex(0, -2)])], expected=T("f64", [5e300, INF, 2.0]))
f.add("abs_c64_empty_real_dtype", "abs", [T("c64", [], [0, 2])], expected=T("f64", [], [0, 2]))
f.add("abs_c32_rank0", "abs", [S("c32", -5j)], expected=S("f32", 5.0))
f.add("sign_c32_huge", "sign", [T("c32", [3e30+4e30j, -1e38+0j, complex(0, -1e-38)])], expected=T("c32", [0.6+0.8j, -1+0j, -1j]))
f.add("sign_c64_huge", "sign", [T("c64", [1e300+1e300j, complex(0, -0.0), complex(-0.0, 0)])], expected=T("c64", [complex(math.sqrt(0.5), math.sqrt(0.5)), 0j, 0j]))
f.add("div_c64_huge_smith", "div", [T("c64", [1e300+1e300j, 1+1j]), T("c64", [1e300+1e300j, 1e-300+1e-300j])], expected=T("c64", [1, 1e300]))
f.add("div_c32_huge_smith", "div", [T("c32", [1e20+1e20j, 4e30+2e30j]), T("c32", [1e20+1e20j, 2e30+1e30j])], expected=T("c32", [1, 2]))
f.add("mul_c64_exact", "mul", [T("c64", [1e154+1e154j]), T("c64", [1e154-1e154j])], expected=T("c64", [2e308 if False else complex(2e308, 0) if False else complex(2*1e154*1e154, 0)]))
f.add("pow_c64_basic", "pow", [T("c64", [complex(-1, 0), complex(-1, -0.0), 1j, 2+0j, 1+1j]), T("c64", [0.5, 0.5, 2, 10, 1j])],
      expected=T("c64", [1j, -1j, -1, 1024, (1+1j)**1j]))
f.add("pow_c32_basic", "pow", [T("c32", [complex(-4, 0), complex(-4, -0.0), 3+4j]), T("c32", [0.5, 0.5, 2])], expected=T("c32", [2j, -2j, (3+4j)**2]))
f.add("conj_c64_negzero_imag_print", "conj", [T("c64", [complex(1, 0), complex(1, -0.0)])], expected=T("c64", [complex(1, -0.0), complex(1, 0.0)]))
f.add("neg_c32_rank0", "neg", [S("c32", 1-2j)], expected=S("c32", -1+2j))
f.add("conj_bool", "conj", [T("bool", [True])])
f.add("compare_LT_bool", "compare", [T("bool", [False, True]), T("bool", [True, False])], {"direction": "LT"})
f.add("div_c64_by_complex_zero", "div", [T("c64", [1+0j, 0j, 1+1j]), T("c64", [0j, 0j, 0j])])
f.add("mul_rank0_f64_inf_with_c64", "mul", [S("f64", 2.0), T("c64", [complex(INF, 1)])])
f.add("abs_c64_inf_nan", "abs", [T("c64", [complex(INF, NAN), complex(NAN, -INF)])])
f.add("pow_c64_zero_zero", "pow", [T("c64", [0j, 0j]), T("c64", [0j, 2+0j])])
# ---- empty for every elementwise op
for op in ("add", "sub", "mul", "div", "rem", "pow", "maximum", "minimum"):
    f.add(f"{op}_f64_empty_3x0", op, [T("f64", [], [3, 0]), T("f64", [], [3, 0])], expected=T("f64", [], [3, 0]))
f.add("compare_empty", "compare", [T("i32", [], [0]), T("i32", [], [0])], {"direction": "LT"}, expected=T("bool", [], [0]))
f.add("add_empty_shape_mismatch", "add", [T("f32", [], [0, 3]), T("f32", [], [3, 0])], error="shape_mismatch")
for op in ("neg", "abs", "sign", "conj"):
    f.add(f"{op}_i64_empty", op, [T("i64", [], [0, 0])], expected=T("i64", [], [0, 0]))
f.add("neg_f32_rank4", "neg", [T("f32", np.arange(24, dtype=np.float32).reshape(2, 3, 1, 4))], expected=T("f32", -np.arange(24, dtype=np.float32).reshape(2, 3, 1, 4)))
f.write()
