from h import *
import struct
def f32(x):
    try: return struct.unpack("f", struct.pack("f", x))[0]
    except OverflowError: return math.copysign(INF, x)
f = F("b2")
I32MIN, I32MAX, I64MIN, I64MAX = -2**31, 2**31-1, -2**63, 2**63-1
# casts integer narrowing (spec silent: differential)
f.add("cast_i64_to_i32_oob", "cast", [V("i64", [2**31, -2**31-1, 2**32+5, I64MIN, I64MAX])], {"dtype": "i32"})
f.add("cast_i64_to_bool", "cast", [V("i64", [2**32, 0, I64MIN])], {"dtype": "bool"}, exp=V("bool", [True, False, True]))
f.add("cast_i32_to_c32", "cast", [V("i32", [I32MAX, I32MIN])], {"dtype": "c32"}, exp=V("c32", [f32(I32MAX), float(I32MIN)]))
f.add("cast_i64_to_c32", "cast", [V("i64", [I64MAX, I64MIN, 2**53+1])], {"dtype": "c32"}, exp=V("c32", [2.0**63, -2.0**63, 2.0**53]))
# float -> int boundaries with fractions (truncation first)
f.add("cast_f64_to_i32_frac_max", "cast", [V("f64", [2147483647.9, -2147483648.9, -0.0, 0.999999])], {"dtype": "i32"})
f.add("cast_f64_to_i64_near_max", "cast", [V("f64", [9223372036854774784.0, -9223372036854775808.0])], {"dtype": "i64"},
      exp=V("i64", [9223372036854774784, I64MIN]))
f.add("cast_f32_to_i32_near_max", "cast", [V("f32", [2147483520.0, -2147483648.0])], {"dtype": "i32"},
      exp=V("i32", [2147483520, I32MIN]))
f.add("cast_f32_to_i64_neg2p63", "cast", [V("f32", [-9223372036854775808.0, 9223371487098961920.0])], {"dtype": "i64"},
      exp=V("i64", [I64MIN, 9223371487098961920]))
f.add("cast_c64_to_i64_frac", "cast", [V("c64", [complex(-2.5, 1e300), complex(1e18, INF)])], {"dtype": "i64"},
      exp=V("i64", [-2, 10**18]))
f.add("cast_c64_to_i32_nan_real", "cast", [V("c64", [complex(NAN, 0)])], {"dtype": "i32"}, err="invalid_argument")
f.add("cast_c32_to_bool_nan", "cast", [V("c32", [complex(NAN, 0), complex(0, NAN), complex(-0.0, -0.0)])], {"dtype": "bool"},
      exp=V("bool", [True, True, False]))
f.add("cast_f64_to_f32_subnormal", "cast", [V("f64", [1e-45, 1e-46, 3.4028235677973366e38, 3.4028235e38*1.0000001])], {"dtype": "f32"})
f.add("cast_c64_to_f32", "cast", [V("c64", [complex(1e40, 1), complex(0.1, 5)])], {"dtype": "f32"}, exp=V("f32", [INF, f32(0.1)]))
f.add("cast_bool_to_bool", "cast", [V("bool", [True, False])], {"dtype": "bool"}, exp=V("bool", [True, False]))
f.add("cast_i32_to_f32_big", "cast", [V("i32", [I32MAX, I32MIN, 16777217, -16777219])], {"dtype": "f32"},
      exp=V("f32", [2.0**31, -2.0**31, 16777216.0, -16777220.0]))
f.add("cast_i64_to_f64_round", "cast", [V("i64", [2**53+1, 2**53+3, I64MAX, -(2**53)-1])], {"dtype": "f64"},
      exp=V("f64", [2.0**53, 2.0**53+4, 2.0**63, -(2.0**53)]), rtol=0.0)
f.add("cast_i64_to_f32_round", "cast", [V("i64", [2**24+1, 2**24+3, (2**40)+ (2**16)+1])], {"dtype": "f32"},
      exp=V("f32", [2.0**24, 2.0**24+4, f32(float(2**40+2**16+1))]), rtol=0.0)
# convert lattice edges
f.add("convert_i64_to_i32", "convert", [V("i64", [1])], {"dtype": "i32"}, err="unsupported")
f.add("convert_c64_to_c32", "convert", [V("c64", [1])], {"dtype": "c32"}, err="unsupported")
f.add("convert_i64_to_c32", "convert", [V("i64", [1])], {"dtype": "c32"}, err="unsupported")
f.add("convert_i32_to_f32", "convert", [V("i32", [1])], {"dtype": "f32"}, err="unsupported")
f.add("convert_f64_to_c32", "convert", [V("f64", [1])], {"dtype": "c32"}, err="unsupported")
f.add("convert_i64_to_f64_round", "convert", [V("i64", [2**53+1, I64MIN])], {"dtype": "f64"}, exp=V("f64", [2.0**53, -2.0**63]), rtol=0.0)
f.add("convert_i64_to_c64_round", "convert", [V("i64", [2**53+1, I64MAX])], {"dtype": "c64"}, exp=V("c64", [2.0**53, 2.0**63]), rtol=0.0)
# compare on bool, all directions
a, b = [False, False, True, True], [False, True, False, True]
for d, fn in (("LT", lambda x,y: x<y), ("LE", lambda x,y: x<=y), ("GT", lambda x,y: x>y), ("GE", lambda x,y: x>=y), ("EQ", lambda x,y: x==y)):
    f.add(f"compare_{d}_bool", "compare", [V("bool", a), V("bool", b)], {"direction": d}, exp=V("bool", [fn(x,y) for x,y in zip(a,b)]))
f.add("compare_lowercase_dir", "compare", [V("i32",[1]), V("i32",[2])], {"direction": "lt"}, exp=V("bool",[True]))
# compare i64 near each other at extremes
f.add("compare_LT_i64_ext", "compare", [V("i64",[I64MIN, I64MAX-1, -1]), V("i64",[I64MIN+1, I64MAX, 0])], {"direction": "LT"}, exp=V("bool",[True,True,True]))
f.add("compare_GT_i32_ext", "compare", [V("i32",[I32MIN, I32MAX]), V("i32",[I32MAX, I32MIN])], {"direction": "GT"}, exp=V("bool",[False,True]))
# a rank-0 operand broadcasts against the other's shape in binary ops and compare
f.add("compare_rank0_tensor", "compare", [S("f32",1.0), V("f32",[1.0,2.0])], {"direction": "EQ"}, exp=V("bool",[True,False]))
f.add("maximum_rank0_tensor", "maximum", [S("f32",1.0), V("f32",[1.0,2.0])], exp=V("f32",[1.0,2.0]))
f.add("pow_rank0_tensor", "pow", [S("f32",2.0), V("f32",[1.0,2.0])], exp=V("f32",[2.0,4.0]))
f.add("rem_rank0_tensor", "rem", [V("i32",[5,6]), S("i32",4)], exp=V("i32",[1,2]))
f.add("add_rank0_tensor_same_dtype", "add", [S("f32",1.0), V("f32",[1.0,2.0])], exp=V("f32",[2.0,3.0]))
f.add("rem_rank0_f64_c64", "rem", [S("f64",1.0), V("c64",[1.0])], err="dtype_mismatch")
f.add("maximum_rank0_f64_c64", "maximum", [S("f64",1.0), V("c64",[1.0])])
# clamp: rank0 lower, tensor upper
f.add("clamp_mixed_bounds", "clamp", [V("i32",[-5,0,5,10]), S("i32",0), V("i32",[3,3,3,20])], exp=V("i32",[0,0,3,10]))
f.add("clamp_mixed_bounds2", "clamp", [V("f64",[-5,0,5,10]), V("f64",[1,1,1,1]), S("f64",4.0)], exp=V("f64",[1,1,4,4]))
f.add("clamp_x_rank0_bounds_tensor", "clamp", [S("f64",3.0), V("f64",[1,1]), V("f64",[2,2])], err="shape_mismatch")
f.add("clamp_i64_ext", "clamp", [V("i64",[I64MIN, I64MAX, 0]), S("i64",I64MIN+1), S("i64",I64MAX-1)], exp=V("i64",[I64MIN+1, I64MAX-1, 0]))
f.add("clamp_bound_dtype", "clamp", [V("f64",[1.0]), S("f32",0.0), S("f64",1.0)], err="dtype_mismatch")
# select dtype mismatch / pred tensor bool vs rank0 pred with rank0 branches
f.add("select_pred_i32", "select", [S("i32",1), S("f32",1.0), S("f32",2.0)], err="dtype_mismatch")
f.add("select_c32", "select", [V("bool",[True,False]), V("c32",[1j, 2]), V("c32",[3, 4j])], exp=V("c32",[1j, 4j]))
f.add("select_i32_ext", "select", [V("bool",[True,False]), V("i32",[I32MIN, 0]), V("i32",[0, I32MAX])], exp=V("i32",[I32MIN, I32MAX]))
# integer ops misc
f.add("rem_i64_neg", "rem", [V("i64",[I64MIN, I64MIN, -7, 7, I64MAX]), V("i64",[I64MAX, 2, -2**62, -3, I64MIN])],
      exp=V("i64",[-1, 0, -7, 1, I64MAX]))
f.add("div_i64_misc", "div", [V("i64",[I64MIN, I64MIN, -7, I64MAX, I64MAX]), V("i64",[I64MAX, 2, -2**62, I64MIN, -1])],
      exp=V("i64",[-1, -2**62, 0, 0, -I64MAX]))
f.add("div_i32_misc", "div", [V("i32",[I32MIN, I32MIN, I32MAX, -1]), V("i32",[I32MAX, I32MIN, I32MIN, I32MIN])],
      exp=V("i32",[-1, 1, 0, 0]))
f.add("rem_i32_misc", "rem", [V("i32",[I32MIN, I32MIN, I32MAX, -1]), V("i32",[I32MAX, I32MIN, I32MIN, I32MIN])],
      exp=V("i32",[-1, 0, I32MAX, -1]))
f.add("pow_i32_misc", "pow", [V("i32",[0, -1, -1, I32MIN, 3, -3]), V("i32",[0, I32MAX, 2**30, 1, 20, 21])],
      exp=V("i32",[1, -1, 1, I32MIN, (3**20 + 2**31) % 2**32 - 2**31, ((-3)**21 + 2**31) % 2**32 - 2**31]))
f.add("pow_i64_misc", "pow", [V("i64",[2, -2, 7, -1, 0]), V("i64",[63, 63, 40, I64MAX, I64MAX])],
      exp=V("i64",[I64MIN, I64MIN, ((7**40 + 2**63) % 2**64) - 2**63, -1, 0]))
f.add("pow_i32_zero_neg_exp", "pow", [V("i32",[0]), V("i32",[-1])], err="numerical_failure")
f.add("pow_i64_empty_ok", "pow", [T("i64",[0],[]), T("i64",[0],[])], exp=T("i64",[0],[]))
f.add("rem_i32_empty", "rem", [T("i32",[0,2],[]), T("i32",[0,2],[])], exp=T("i32",[0,2],[]))
# float rem / pow / div specials
f.add("rem_f64_specials", "rem", [V("f64",[INF, 1.0, -0.0, 5.0, NAN, -INF, 3.0]), V("f64",[1.0, INF, 1.0, -INF, 1.0, 2.0, NAN])],
      exp=V("f64",[NAN, 1.0, -0.0, 5.0, NAN, NAN, NAN]))
f.add("rem_f32_specials", "rem", [V("f32",[INF, 1.0, -0.0, 5.0, NAN, -7.5]), V("f32",[1.0, -INF, 1.0, -INF, 1.0, -0.0])],
      exp=V("f32",[NAN, 1.0, -0.0, 5.0, NAN, NAN]))
f.add("pow_f64_specials", "pow", [V("f64",[NAN, 1.0, -0.0, -0.0, 0.0, -INF, -INF, -8.0, -1.0, 0.5, 2.0]),
                                   V("f64",[0.0, NAN, -3.0, -2.0, -1.0, 3.0, -3.0, 1/3, INF, -INF, -INF])],
      exp=V("f64",[1.0, 1.0, -INF, INF, INF, -INF, -0.0, NAN, 1.0, INF, 0.0]))
f.add("div_i32_by_neg1", "div", [V("i32",[5, I32MAX]), V("i32",[-1, -1])], exp=V("i32",[-5, -I32MAX]))
f.run()
