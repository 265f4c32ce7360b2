from h import *
import random
rng=random.Random(3)
f=F("b3")
n=517
a=[rng.randint(-3,3) for _ in range(n)]; b=[rng.randint(-3,3) for _ in range(n)]
for d,fn in (("LT",lambda x,y:x<y),("NE",lambda x,y:x!=y)):
    for dt in ("i32","i64","f32","f64"):
        f.add(f"cmp_{d}_{dt}","compare",[V(dt,a),V(dt,b)],{"direction":d},exp=V("bool",[fn(x,y) for x,y in zip(a,b)]))
f.add("cmp_EQ_c64","compare",[V("c64",a),V("c64",b)],{"direction":"EQ"},exp=V("bool",[x==y for x,y in zip(a,b)]))
f.add("cmp_EQ_bool","compare",[V("bool",[x>0 for x in a]),V("bool",[x>0 for x in b])],{"direction":"EQ"},exp=V("bool",[(x>0)==(y>0) for x,y in zip(a,b)]))
for dt in ("i32","i64","f32","f64","c32","c64"):
    f.add(f"cast_{dt}_bool","cast",[V(dt,a)],{"dtype":"bool"},exp=V("bool",[x!=0 for x in a]))
p=[x>0 for x in a]; q=[x<0 for x in b]; r_=[x==0 for x in b]
f.add("select_bool_big","select",[V("bool",p),V("bool",q),V("bool",r_)],exp=V("bool",[y if c else z for c,y,z in zip(p,q,r_)]))
f.add("select_bool_rank0pred","select",[S("bool",False),V("bool",q),V("bool",r_)],exp=V("bool",r_))
f.add("scatter_replace_bool_big","scatter",[V("bool",[False]*n),T("i32",[n,1],[[i] for i in range(n)] and list(range(n))),V("bool",p)],
      {"update_window_dims":[],"inserted_window_dims":[0],"scatter_dims_to_operand_dims":[0],"index_vector_dim":1,"combiner":"replace"},exp=V("bool",p))
f.add("dus_bool","dynamic_update_slice",[V("bool",[False]*n),V("bool",[True]*7),V("i32",[3])],exp=V("bool",[3<=i<10 for i in range(n)]))
f.add("dus_bool_odd","dynamic_update_slice",[V("bool",p),V("bool",[True,False,True]),V("i32",[n-2])],exp=V("bool",p[:n-3]+[True,False,True]))
f.add("pad_bool","pad",[V("bool",p),S("bool",True)],{"edge_padding_low":[1],"edge_padding_high":[2],"interior_padding":[1]},
      exp=V("bool",[True]+sum([[v,True] for v in p],[])[:-1]+[True,True]))
f.add("reverse_bool","reverse",[V("bool",p)],{"dimensions":[0]},exp=V("bool",p[::-1]))
f.add("slice_bool","slice",[V("bool",p)],{"start_indices":[1],"limit_indices":[n],"strides":[3]},exp=V("bool",p[1::3]))
f.add("gather_bool","gather",[V("bool",p),T("i32",[n,1],list(range(n))[::-1])],{"offset_dims":[],"collapsed_slice_dims":[0],"start_index_map":[0],"index_vector_dim":1,"slice_sizes":[1]},exp=V("bool",p[::-1]))
f.add("convert_bool_i32","convert",[V("bool",p)],{"dtype":"i32"},exp=V("i32",[int(v) for v in p]))
f.add("tril_bool","tril",[T("bool",[23,23],[True]*529)],{"k":0},exp=T("bool",[23,23],[i>=j for i in range(23) for j in range(23)]))
f.add("transpose_bool_odd","transpose",[T("bool",[17,13],[ (i*7)%3==0 for i in range(221)])],{"permutation":[1,0]},
      exp=T("bool",[13,17],[((i*13+j)*7)%3==0 for j in range(13) for i in range(17)]))
f.add("broadcast_bool","broadcast_in_dim",[V("bool",[True,False,False])],{"shape":[3,101],"broadcast_dimensions":[0]},exp=T("bool",[3,101],[True]*101+[False]*202))
f.add("concat_bool","concatenate",[V("bool",[True]*3),V("bool",[False]*5),V("bool",[True])],{"dimension":0},exp=V("bool",[True]*3+[False]*5+[True]))
f.add("concat_bool_2d","concatenate",[T("bool",[3,1],[True]*3),T("bool",[3,2],[False]*6),T("bool",[3,1],[True]*3)],{"dimension":1},exp=T("bool",[3,4],[True,False,False,True]*3))
f.add("embed_bool","embed_diagonal",[V("bool",[True,True,False,True,True])],{"axes":[0,1]},exp=T("bool",[5,5],[i==j and i!=2 for i in range(5) for j in range(5)]))
f.add("extract_bool","extract_diagonal",[T("bool",[5,5],[i==j for i in range(5) for j in range(5)])],{"axes":[0,1]},exp=V("bool",[True]*5))
f.add("reshape_bool","reshape",[T("bool",[3,5],[i%2==0 for i in range(15)])],{"shape":[5,3]})
f.run()
