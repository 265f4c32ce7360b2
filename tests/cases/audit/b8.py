from h import *
f=F("b8")
seq=[
 ("div_zero","div",[V("i32",[1,2,3]),V("i32",[1,0,1])],None,None,"numerical_failure"),
 ("div_ok","div",[V("i32",[4,2,3]),V("i32",[2,1,1])],None,V("i32",[2,2,3]),None),
 ("rem_zero_i64","rem",[V("i64",[1]),V("i64",[0])],None,None,"numerical_failure"),
 ("pow_neg","pow",[V("i64",[2]),V("i64",[-1])],None,None,"numerical_failure"),
 ("pow_ok","pow",[V("i64",[2]),V("i64",[10])],None,V("i64",[1024]),None),
 ("cast_nan","cast",[V("f64",[1.0,NAN])],{"dtype":"i32"},None,"invalid_argument"),
 ("cast_ok","cast",[V("f64",[1.5,-2.5])],{"dtype":"i32"},V("i32",[1,-2]),None),
 ("cast_big_f32_i64","cast",[V("f32",[1e19])],{"dtype":"i64"},None,"invalid_argument"),
 ("gather_badidx","gather",[V("f64",[1,2,3]),T("f64",[1,1],[0.5])],{"offset_dims":[],"collapsed_slice_dims":[0],"start_index_map":[0],"index_vector_dim":1,"slice_sizes":[1]},None,"invalid_argument"),
 ("gather_ok","gather",[V("f64",[1,2,3]),T("f64",[1,1],[2.0])],{"offset_dims":[],"collapsed_slice_dims":[0],"start_index_map":[0],"index_vector_dim":1,"slice_sizes":[1]},V("f64",[3]),None),
 ("dus_badstart","dynamic_update_slice",[V("f64",[1,2,3]),V("f64",[9]),V("f32",[NAN])],None,None,"invalid_argument"),
 ("dus_ok","dynamic_update_slice",[V("f64",[1,2,3]),V("f64",[9]),V("f32",[1.0])],None,V("f64",[1,9,3]),None),
 ("scatter_badidx","scatter",[V("f64",[1,2,3]),T("f32",[1,1],[INF]),V("f64",[1])],{"update_window_dims":[],"inserted_window_dims":[0],"scatter_dims_to_operand_dims":[0],"index_vector_dim":1},None,"invalid_argument"),
 ("scatter_ok","scatter",[V("f64",[1,2,3]),T("f32",[1,1],[1.0]),V("f64",[1])],{"update_window_dims":[],"inserted_window_dims":[0],"scatter_dims_to_operand_dims":[0],"index_vector_dim":1},V("f64",[1,3,3]),None),
 ("div_zero_rank0","div",[S("i64",0),S("i64",0)],None,None,"numerical_failure"),
 ("div_zero_empty_ok","div",[T("i64",[0],[]),T("i64",[0],[])],None,T("i64",[0],[]),None),
 ("rem_ok_after","rem",[V("i32",[-7]),V("i32",[3])],None,V("i32",[-1]),None),
 ("dyn_slice_badstart","dynamic_slice",[V("f64",[1,2,3]),V("f64",[1e300])],{"slice_sizes":[1]},None,"invalid_argument"),
 ("dyn_slice_ok","dynamic_slice",[V("f64",[1,2,3]),V("f64",[1.0])],{"slice_sizes":[1]},V("f64",[2]),None),
]
for i in range(3):
    for n,op,ins,at,ex,er in seq: f.add(f"{n}_{i}",op,ins,at,exp=ex,err=er)
f.run()
