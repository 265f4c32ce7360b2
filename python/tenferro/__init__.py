"""tenferro: column-major strided tensors, einsum, and CPU and Vulkan backends.

A ``Tensor`` wraps a tenferro view. Axis k of a Tensor is axis k of the NumPy array it came
from, with the same element strides, so ``asarray`` of a host NumPy array copies nothing.
Functions carry NumPy's names and semantics (dtype promotion, broadcasting, C-order
``reshape``), so autoray, opt_einsum, cotengra and quimb dispatch to this module for Tensor
arguments. docs/python.md describes the API.
"""
import builtins as _builtins
import numbers as _numbers

import numpy as _np

from . import _tenferro
from ._tenferro import (Device, EinsumProgram, Error, Expr, Session, Tensor, cpu_threads, default_device, device,
                        session, set_cpu_threads, vulkan_available)

__all__ = [
    "Tensor", "Device", "Error", "Session", "device", "devices", "default_device", "session",
    "vulkan_available", "cpu_threads", "set_cpu_threads", "asarray", "array", "from_dlpack", "to_numpy", "zeros", "ones", "full", "empty",
    "zeros_like", "ones_like", "full_like", "float32", "float64", "int32", "int64", "bool_", "complex64",
    "complex128", "add", "subtract", "multiply", "divide", "true_divide", "power", "maximum", "minimum", "fmod",
    "remainder", "mod",
    "negative", "exp", "log", "sqrt", "sin", "cos", "tanh", "expm1", "log1p", "abs", "absolute", "sign",
    "conj", "conjugate", "real", "imag", "sum", "prod", "max", "min", "amax", "amin", "transpose",
    "reshape", "tensordot", "einsum", "einsum_program", "EinsumProgram", "einsum_sliced", "einsum_distributed", "astype", "copy", "broadcast_to", "concatenate", "stack", "where",
    "trace", "diagonal", "matmul", "dot", "linalg", "equal", "not_equal", "less", "less_equal", "greater",
    "greater_equal", "moveaxis", "expand_dims", "squeeze", "isreal", "iscomplexobj", "allclose", "cumsum",
    "count_nonzero", "eye", "diag", "Expr", "lazy", "eval",
]

float32 = _np.dtype("float32")
float64 = _np.dtype("float64")
int32 = _np.dtype("int32")
int64 = _np.dtype("int64")
bool_ = _np.dtype("bool")
complex64 = _np.dtype("complex64")
complex128 = _np.dtype("complex128")
_SUPPORTED = {float32, float64, int32, int64, bool_, complex64, complex128}


def _error(kind, op, argument, message):
    """A tenferro.Error raised by the Python layer, with the extension's attributes."""
    e = Error(f"[{op}] {message}")
    e.kind, e.op, e.argument = kind, op, argument
    return e


def devices():
    """Every usable device: a list of Device, the CPU first."""
    return [device(name) for name, _ in _tenferro._list_devices()]


def _device_or_cpu(dev):
    return device("cpu") if dev is None else dev if isinstance(dev, Device) else device(dev)


# ---- conversions ----------------------------------------------------------------------------

def _numpy_dtype(dtype):
    return None if dtype is None else _np.dtype(dtype)


def _from_numpy(a):
    if not a.dtype.isnative:
        a = a.astype(a.dtype.newbyteorder("="))  # byte-swapped: a native copy
    if a.dtype not in _SUPPORTED:
        raise _error("unsupported", "asarray", "dtype",
                     f"dtype {a.dtype} is not one of float32 float64 int32 int64 bool complex64 complex128")
    item = a.itemsize
    ptr = a.__array_interface__["data"][0]
    if a.size > 0 and (ptr % a.dtype.alignment or any(s % item for s in a.strides)):
        a = _np.array(a, order="K")  # unaligned: an aligned copy
        ptr = a.__array_interface__["data"][0]
    strides = [s // item for s in a.strides] if a.size > 0 else [0] * a.ndim
    return _tenferro._wrap_host(ptr, a.dtype.name, list(a.shape), strides, a, not a.flags.writeable)


def asarray(obj, dtype=None, device=None, copy=None):
    """A Tensor from a Tensor, a NumPy array, a DLPack-capable array or nested sequences.

    Host NumPy arrays of a supported dtype are wrapped without a copy (any strides, negative
    too) unless ``copy=True``; ``device`` (default: where ``obj`` is, the CPU for host data)
    uploads. ``dtype`` casts as ``ndarray.astype`` does.
    """
    dtype = _numpy_dtype(dtype)
    if isinstance(obj, Expr):
        raise _error("invalid_argument", "asarray", "obj", "an Expr is not a tensor: eval() it first")
    if isinstance(obj, Tensor):
        t = obj
        if dtype is not None and t.dtype != dtype:
            t = t.astype(dtype)
        elif copy:
            t = t.copy()
        return t if device is None else t.to(device)
    if isinstance(obj, _np.ndarray) or not hasattr(obj, "__dlpack__"):
        a = _np.asarray(obj, dtype=dtype)
        if copy:
            a = a.copy()
        t = _from_numpy(a)
    else:
        t = from_dlpack(obj)
        if dtype is not None and t.dtype != dtype:
            t = t.astype(dtype)
        elif copy:
            t = t.copy()
    if device is not None:
        t = t.to(device)
    return t


array = asarray
_tenferro._set_asarray(asarray)


def from_dlpack(x, device=None):
    """A Tensor sharing the memory of a DLPack producer on the CPU (NumPy, PyTorch, JAX...)."""
    if isinstance(x, Tensor):
        return x if device is None else x.to(device)
    if isinstance(x, _np.ndarray):
        t = _from_numpy(x)
    else:
        kind = x.__dlpack_device__()[0] if hasattr(x, "__dlpack_device__") else 1
        if kind not in (1, 3):  # kDLCPU, kDLCUDAHost
            raise _error("unsupported", "from_dlpack", "x",
                         f"DLPack device type {kind} is not host memory; tenferro reads CPU arrays "
                         "(move the array to the CPU first)")
        t = _tenferro._from_dlpack(x)
    return t if device is None else t.to(device)


def to_numpy(x):
    """The NumPy array of a Tensor (a download from a device; shares memory on the host)."""
    return _np.asarray(x)


def _tensor_repr(t):
    return f"tenferro.Tensor({_np.array2string(_np.asarray(t), separator=', ')}, dtype={t.dtype}, device='{t.device}')"


Tensor.__repr__ = _tensor_repr
Tensor.__str__ = lambda t: str(_np.asarray(t))
Tensor.item = lambda t: _np.asarray(t).item()
Tensor.tolist = lambda t: _np.asarray(t).tolist()
Tensor.__float__ = lambda t: float(_np.asarray(t))
Tensor.__int__ = lambda t: int(_np.asarray(t))
Tensor.__complex__ = lambda t: complex(_np.asarray(t))
Tensor.__bool__ = lambda t: bool(_np.asarray(t))
Tensor.__iter__ = lambda t: (t[i] for i in range(len(t)))


# ---- factories ------------------------------------------------------------------------------

def full(shape, fill_value, dtype=None, device=None):
    """A new tensor of ``shape`` filled with ``fill_value`` (dtype: NumPy's for the value)."""
    if dtype is None:
        dtype = _np.asarray(fill_value).dtype
    if isinstance(fill_value, _np.generic):
        fill_value = fill_value.item()
    return _tenferro._full(shape, fill_value, _np.dtype(dtype), _device_or_cpu(device))


def zeros(shape, dtype=float64, device=None):
    return full(shape, 0, dtype, device)


def ones(shape, dtype=float64, device=None):
    return full(shape, 1, dtype, device)


def empty(shape, dtype=float64, device=None):
    return full(shape, 0, dtype, device)


def _like(x, dtype, device):
    x = asarray(x)
    return (x.dtype if dtype is None else dtype), (x.device if device is None else device)


def zeros_like(x, dtype=None, device=None):
    dtype, device = _like(x, dtype, device)
    return zeros(asarray(x).shape, dtype, device)


def ones_like(x, dtype=None, device=None):
    dtype, device = _like(x, dtype, device)
    return ones(asarray(x).shape, dtype, device)


def full_like(x, fill_value, dtype=None, device=None):
    dtype, device = _like(x, dtype, device)
    return full(asarray(x).shape, fill_value, dtype, device)


# ---- elementwise ----------------------------------------------------------------------------
# Op codes of the extension (module.cpp: Bin, Un, Red).
_ADD, _SUB, _MUL, _DIV, _POW, _MAX, _MIN, _REM, _EQ, _NE, _LT, _LE, _GT, _GE = range(14)
_NEG, _ABS, _CONJ, _SIGN, _EXP, _LOG, _SQRT, _SIN, _COS, _TANH, _EXPM1, _LOG1P = range(12)


def _t(x):
    return x if isinstance(x, Tensor) else asarray(x)


def _te(x):
    """A Tensor or an Expr operand (anything else through asarray)."""
    return x if isinstance(x, (Tensor, Expr)) else asarray(x)


def _bin(code):
    def f(x1, x2):
        return _tenferro._binary(code, x1, x2)
    return f


def _un(code, name):
    def f(x):
        return _tenferro._unary(code, _te(x))
    f.__name__ = name
    return f


add = _bin(_ADD)
subtract = _bin(_SUB)
multiply = _bin(_MUL)
divide = true_divide = _bin(_DIV)
power = _bin(_POW)
maximum = _bin(_MAX)
minimum = _bin(_MIN)
fmod = _bin(_REM)


def remainder(x1, x2):
    """NumPy's remainder (the sign of the divisor) from the core's fmod (the sign of the
    dividend): fmod(fmod(x1, x2) + x2, x2)."""
    return fmod(fmod(x1, x2) + x2, x2)


mod = remainder
Tensor.__mod__ = Expr.__mod__ = remainder
Tensor.__rmod__ = Expr.__rmod__ = lambda x2, x1: remainder(x1, x2)
equal = _bin(_EQ)
not_equal = _bin(_NE)
less = _bin(_LT)
less_equal = _bin(_LE)
greater = _bin(_GT)
greater_equal = _bin(_GE)
negative = _un(_NEG, "negative")
abs = absolute = _un(_ABS, "abs")
conj = conjugate = _un(_CONJ, "conj")
sign = _un(_SIGN, "sign")
exp = _un(_EXP, "exp")
log = _un(_LOG, "log")
sqrt = _un(_SQRT, "sqrt")
sin = _un(_SIN, "sin")
cos = _un(_COS, "cos")
tanh = _un(_TANH, "tanh")
expm1 = _un(_EXPM1, "expm1")
log1p = _un(_LOG1P, "log1p")


def real(x):
    """Real part (a zero-copy view of a complex tensor's storage; reals unchanged)."""
    return _tenferro._complex_part(_t(x), False)


def imag(x):
    """Imaginary part (a zero-copy view of a complex tensor's storage; zeros for reals)."""
    return _tenferro._complex_part(_t(x), True)


def isreal(x):
    x = _t(x)
    return x == x.real if x.dtype.kind == "c" else full(x.shape, True, bool_, x.device)


def iscomplexobj(x):
    return _t(x).dtype.kind == "c"


def where(condition, x, y):
    if isinstance(condition, Expr) or isinstance(x, Expr) or isinstance(y, Expr):
        return _tenferro._expr_where(condition, x, y)
    return _tenferro._where(_t(condition), x, y)


def allclose(a, b, rtol=1e-05, atol=1e-08):
    return bool(_np.allclose(_np.asarray(a), _np.asarray(b), rtol=rtol, atol=atol))


# ---- fused expressions ----------------------------------------------------------------------
# The elementwise functions, the operators, where and the reductions take Exprs too and then
# return Exprs (module.cpp, "lazy expressions"; docs/python.md, "Fused expressions").

def lazy(x):
    """``x`` (a Tensor, or anything ``asarray`` takes) as an ``Expr``: the operators, the
    elementwise functions, ``where`` and the reductions (``sum`` ``prod`` ``max`` ``min``, last)
    applied to an Expr build an expression instead of running; ``eval`` runs it as one fusion
    plan (one kernel on a GPU) with the result of the same ops run eagerly, bit for bit (a
    float sum or product may be reassociated)."""
    return x if isinstance(x, Expr) else _tenferro._lazy(_t(x))


def eval(expr):
    """``expr.eval()``: runs an Expr as one fusion plan and returns a new Tensor on the device of
    its tensors (a Tensor is copied). The errors are the eager ops', raised before the plan runs."""
    return lazy(expr).eval()


# ---- reductions -----------------------------------------------------------------------------

def _red(code, name):
    def f(x, axis=None, keepdims=False):
        return _tenferro._reduce(code, _te(x), axis, keepdims)
    f.__name__ = name
    return f


sum = _red(0, "sum")
prod = _red(1, "prod")
max = amax = _red(2, "max")
min = amin = _red(3, "min")


# ---- structural -----------------------------------------------------------------------------

def transpose(x, axes=None):
    """NumPy's transpose: reverses the axes, or permutes them (a zero-copy view)."""
    return _tenferro._transpose(_t(x), axes)


def reshape(x, shape, order="C"):
    """NumPy's C-order reshape: ``rev(colmajor_reshape(rev(x), rev(shape)))`` with ``rev``
    reversing the axes (a view where the layout allows, else one copy). ``order='F'`` is the
    core's column-major reshape."""
    x = _t(x)
    if order == "F":
        return _tenferro._transpose(_tenferro._reshape(_tenferro._transpose(x, None), tuple(reversed(_shape(shape)))), None)
    if order != "C":
        raise _error("invalid_argument", "reshape", "order", f"order must be 'C' or 'F', got {order!r}")
    return _tenferro._reshape(x, shape)


def _shape(shape):
    return (shape,) if isinstance(shape, _numbers.Integral) else tuple(shape)


def astype(x, dtype, copy=True):
    return _t(x).astype(dtype, copy=copy)


def copy(x):
    return _t(x).copy()


def broadcast_to(x, shape):
    return _tenferro._broadcast_to(_t(x), _shape(shape))


def concatenate(arrays, axis=0):
    arrays = [_t(a) for a in arrays]
    dev = arrays[0].device
    return _tenferro._concatenate([a.to(dev) for a in arrays], axis)


def expand_dims(x, axis):
    x = _t(x)
    axes = _shape(axis)
    nd = x.ndim + len(axes)
    axes = sorted(a % nd for a in axes)
    shape = list(x.shape)
    for a in axes:
        shape.insert(a, 1)
    return reshape(x, shape)


def squeeze(x, axis=None):
    x = _t(x)
    if axis is None:
        axes = [k for k, e in enumerate(x.shape) if e == 1]
    else:
        axes = [a % x.ndim for a in _shape(axis)]
    return reshape(x, [e for k, e in enumerate(x.shape) if k not in axes])


def stack(arrays, axis=0):
    arrays = [expand_dims(_t(a), axis) for a in arrays]
    return concatenate(arrays, axis)


def moveaxis(x, source, destination):
    x = _t(x)
    src = [a % x.ndim for a in _shape(source)]
    dst = [a % x.ndim for a in _shape(destination)]
    order = [k for k in range(x.ndim) if k not in src]
    for d, s in sorted(zip(dst, src)):
        order.insert(d, s)
    return transpose(x, order)


def diagonal(x, offset=0, axis1=0, axis2=1):
    if offset != 0:
        raise _error("unsupported", "diagonal", "offset", "only offset=0 is supported")
    x = _t(x)
    a, b = axis1 % x.ndim, axis2 % x.ndim
    d = _tenferro._diagonal(x, a, b)  # keeps axis a, drops b; NumPy puts the diagonal last
    keep = a if a < b else a - 1
    return moveaxis(d, keep, -1)


def trace(x, offset=0, axis1=0, axis2=1):
    return sum(diagonal(x, offset, axis1, axis2), axis=-1)


def _index(x, key):
    """The view of a basic index (integers, slices, None, ...): (the sliced view, which keeps
    an extent-1 axis per integer, and the result's shape as [("new", None) | ("axis", a)])."""
    if not isinstance(key, tuple):
        key = (key,)
    if any(k is Ellipsis for k in key):
        i = key.index(Ellipsis)
        fill = x.ndim - (len(key) - 1 - key.count(None))
        key = key[:i] + (slice(None),) * fill + key[i + 1:]
    starts, limits, steps, out_shape = [], [], [], []
    axis = 0
    for k in key:
        if k is None:
            out_shape.append(("new", None))
            continue
        n = x.shape[axis]
        if isinstance(k, slice):
            start, stop, step = k.indices(n)
            if (step > 0 and stop < start) or (step < 0 and stop > start):
                stop = start
            starts.append(start), limits.append(stop), steps.append(step)
            out_shape.append(("axis", axis))
        elif isinstance(k, _numbers.Integral) or (isinstance(k, Tensor) and k.ndim == 0):
            i = int(k)
            if not -n <= i < n:
                raise IndexError(f"index {i} is out of bounds for axis {axis} with size {n}")
            i %= n
            starts.append(i), limits.append(i + 1), steps.append(1)
        else:
            raise _error("unsupported", "getitem", "key", f"index {k!r}: integers, slices, None and ... only")
        axis += 1
    for a in range(axis, x.ndim):
        starts.append(0), limits.append(x.shape[a]), steps.append(1)
        out_shape.append(("axis", a))
    return _tenferro._slice(x, starts, limits, steps), out_shape


def _getitem(x, key):
    v, out_shape = _index(x, key)
    shape = tuple(1 if kind == "new" else v.shape[a] for kind, a in out_shape)
    return v if shape == v.shape else reshape(v, shape)


def _setitem(x, key, value):
    """``x[key] = value`` for basic indices (integers, slices, None, ...), as NumPy: ``value``
    broadcasts to ``x[key]``'s shape and is written into x's storage (read first when it
    overlaps x). Its dtype must cast to x's within a kind (NumPy's 'same_kind': int to float,
    float64 to float32, real to complex); anything else, e.g. float into int, is a
    dtype_mismatch instead of a silent truncation."""
    v, out_shape = _index(x, key)
    # Anything but a Tensor is copied in (a NumPy array may share memory with x).
    value = asarray(value, device=x.device, copy=True) if not isinstance(value, Tensor) else value
    if value.dtype != x.dtype and not _np.can_cast(value.dtype, x.dtype, "same_kind"):
        raise _error("dtype_mismatch", "setitem", "value",
                     f"cannot write {value.dtype} values into a {x.dtype} tensor without changing their kind "
                     f"(cast with astype first)")
    shape = tuple(1 if kind == "new" else v.shape[a] for kind, a in out_shape)
    value = broadcast_to(value, shape) if value.shape != shape else value
    # The view keeps an extent-1 axis where the key has an integer: give the value the same.
    value = reshape(value, v.shape) if value.shape != v.shape else value
    _tenferro._assign(v, value)


Tensor.__getitem__ = _getitem
Tensor.__setitem__ = _setitem


# ---- contractions ---------------------------------------------------------------------------

def tensordot(a, b, axes=2):
    """NumPy's tensordot (axes: an int or a pair of axis lists), through dot_general."""
    return _tenferro._tensordot(a, b, axes)


def matmul(a, b):
    a, b = _t(a), _t(b)
    if a.ndim <= 2 and b.ndim <= 2:
        return tensordot(a, b, ([a.ndim - 1], [0 if b.ndim == 1 else b.ndim - 2]))
    return einsum("...ij,...jk->...ik", a, b)


dot = matmul
Tensor.__matmul__ = matmul
Tensor.__rmatmul__ = lambda b, a: matmul(a, b)


def _optimize_args(optimize, path):
    """optimize and path of einsum, einsum_program and einsum_sliced, normalized: a path given
    as ``optimize`` (np.einsum_path's ['einsum_path', ...] list) becomes ``path``; True,
    False and None mean 'auto'."""
    if path is None and isinstance(optimize, (list, tuple)):
        path = [p for p in optimize if not isinstance(p, str)]
        optimize = "auto"
    if optimize in (True, False, None):
        optimize = "auto"
    return optimize, path


def einsum(subscripts, *operands, optimize="auto", path=None):
    """NumPy's einsum over tenferro's planner and executor.

    ``path`` (or ``optimize`` given as a list) is a contraction path in opt_einsum / cotengra
    format: a list of tuples of operand positions; each step contracts those operands, removes
    them and appends the result. Without one, ``optimize`` picks the planner: 'auto' (or True),
    'optimal', 'greedy' or 'random-greedy'.
    """
    optimize, path = _optimize_args(optimize, path)
    return _tenferro._einsum(subscripts, operands, path, optimize)


def einsum_program(subscripts, *shapes, optimize="auto", path=None):
    """An einsum planned once for operands of these shapes: ``prog(*operands)`` runs it
    (no parsing or planning per call). ``prog.path`` is the pairwise path, ``prog.flops`` and
    ``prog.largest_intermediate`` its cost. ``optimize`` and ``path`` as for ``einsum``."""
    optimize, path = _optimize_args(optimize, path)
    return _tenferro._einsum_program(subscripts, [_shape(s) for s in shapes], path, optimize)


def einsum_sliced(subscripts, *operands, memory_limit, devices=None, share=None, optimize="auto", path=None,
                  info=False):
    """``einsum`` sliced so that one slice holds at most ``memory_limit`` bytes beside the
    operands and the result (docs/einsum.md, "Slicing"). ``devices``: a list of devices (or
    names) the slices spread over (default: the operands' device); the result is on the first.
    ``share=(k, n)``: only the slices whose index is k modulo n, what one of n processes takes
    (``einsum_distributed``); the shares of k = 0..n-1 sum to the result. With ``info=True``
    returns ``(result, dict)``: slices, labels (ids), chunks, overhead, slice_bytes,
    unsliced_bytes, memory_limit."""
    optimize, path = _optimize_args(optimize, path)
    first, stride = share if share is not None else (0, 1)
    out, details = _tenferro._einsum_sliced(subscripts, operands, path, optimize, int(memory_limit), devices,
                                            int(first), int(stride))
    return (out, details) if info else out


def einsum_distributed(comm, subscripts, *operands, memory_limit, devices=None, root=0, allreduce=False,
                       optimize="auto", path=None):
    """``einsum_sliced`` across the processes of an mpi4py communicator: every rank runs its
    share of the slices (every rank must call it with the same operands' shapes and options),
    then the partial results are summed (``comm.Reduce`` to ``root``, or ``comm.Allreduce``).
    Returns the result (on the first device) at the root (every rank with ``allreduce``), None
    elsewhere. The ranks agree on success before any reduction: if any rank's share failed,
    every rank raises (that rank its own error, the others a tenferro.Error naming it)."""
    error = None
    try:
        part = einsum_sliced(subscripts, *operands, memory_limit=memory_limit, devices=devices,
                             share=(comm.Get_rank(), comm.Get_size()), optimize=optimize, path=path)
    except Exception as e:  # every rank must reach the agreement below
        error = e
    failed = comm.allgather(None if error is None else f"{type(error).__name__}: {error}")
    bad = [r for r, msg in enumerate(failed) if msg is not None]
    if bad:
        if error is not None:
            raise error
        raise _error("backend_failure", "einsum", "comm",
                     f"rank {bad[0]} of {comm.Get_size()} failed: {failed[bad[0]]}")
    host = _np.ascontiguousarray(to_numpy(part))
    if allreduce:
        comm.Allreduce(_np_mpi_in_place(), host)
    elif comm.Get_rank() == root:
        comm.Reduce(_np_mpi_in_place(), host, root=root)
    else:
        comm.Reduce(host, None, root=root)
        return None
    return asarray(host, device=part.device)


def _np_mpi_in_place():
    from mpi4py import MPI
    return MPI.IN_PLACE


# ---- computed on the host --------------------------------------------------------------------
# The core has no scans and no matrix factorizations. These functions download the operand,
# compute with NumPy (LAPACK for linalg) in the operand's dtype and return tensors on the
# operand's device: what tensor-network code (quimb's canonize and compress) calls on small
# matrices between contractions.

def _on_host(name, fn):
    def f(x, *args, **kwargs):
        x = _t(x)
        out = fn(_np.asarray(x), *args, **kwargs)
        if isinstance(out, tuple):
            return tuple(asarray(o, device=x.device) for o in out)
        return asarray(out, device=x.device)
    f.__name__ = name
    f.__doc__ = f"NumPy's {name}, computed on the host; the result is on the operand's device."
    return f


cumsum = _on_host("cumsum", lambda a, axis=None: _np.cumsum(a, axis=axis))


def count_nonzero(x, axis=None):
    """NumPy's count_nonzero: a Python int without ``axis``, else an int64 tensor."""
    n = sum((_t(x) != 0).astype(int64), axis=axis)
    return int(n) if axis is None else n


def eye(N, M=None, k=0, dtype=float64, device=None):
    """NumPy's eye on ``device`` (default the CPU)."""
    return asarray(_np.eye(N, M, k, dtype=_np.dtype(dtype)), device=device)


def diag(v, k=0):
    """NumPy's diag for k = 0: the diagonal of a matrix (the leading min(m, n) elements), or
    the square matrix with a vector on its diagonal."""
    if k != 0:
        raise _error("unsupported", "diag", "k", f"only k=0 is supported, got k={k}")
    v = _t(v)
    if v.ndim == 2:
        n = _builtins.min(v.shape)
        return diagonal(v[:n, :n])
    if v.ndim != 1:
        raise _error("invalid_argument", "diag", "v", f"expected a 1-D or 2-D tensor, got {v.ndim}-D")
    return v[:, None] * eye(v.shape[0], dtype=v.dtype, device=v.device)


class _Linalg:
    """``linalg``: the Frobenius norm with tenferro ops; svd, qr and eigh computed on the host
    (LAPACK through NumPy, in the operand's dtype), returned on the operand's device."""

    svd = staticmethod(_on_host("linalg.svd", lambda a, full_matrices=True, compute_uv=True:
                                _np.linalg.svd(a, full_matrices=full_matrices, compute_uv=compute_uv)))
    qr = staticmethod(_on_host("linalg.qr", lambda a, mode="reduced": _np.linalg.qr(a, mode=mode)))
    eigh = staticmethod(_on_host("linalg.eigh", lambda a, UPLO="L": _np.linalg.eigh(a, UPLO=UPLO)))

    @staticmethod
    def norm(x, ord=None, axis=None, keepdims=False):
        if ord not in (None, "fro", 2) or (ord == 2 and x.ndim != 1):
            raise _error("unsupported", "linalg.norm", "ord", f"only the Frobenius / 2-norm, got ord={ord!r}")
        x = _t(x)
        a = abs(x) if x.dtype.kind == "c" else x
        return sqrt(sum(a * a, axis=axis, keepdims=keepdims))


linalg = _Linalg()


def _register_with_autoray():
    """autoray calls ``linalg.svd(x)`` expecting the reduced factors (it gives NumPy, PyTorch
    and JAX the same default); tenferro's keeps NumPy's full_matrices=True."""
    try:
        import autoray
    except ImportError:
        return
    autoray.register_function("tenferro", "linalg.svd",
                              lambda x, full_matrices=False, **kw: linalg.svd(x, full_matrices=full_matrices, **kw))


_register_with_autoray()
