"""Python binding of the distkit collective runtime (libdistkit's C API).

Pure Python over ctypes: no compiler, no numpy needed. Collectives work on
any object exposing a C-contiguous buffer (bytearray, array.array,
memoryview, numpy arrays); the element type comes from the buffer's format
or an explicit ``dtype=``. A rank started by distlaunch (or mlx.launch with
DISTKIT_INSECURE=1) does::

    import array, distkit
    with distkit.init() as g:
        x = array.array("f", [g.rank] * 4)
        g.all_reduce(x)                    # in place, sum
        print(g.rank, g.size, list(x))

The library is found through DISTKIT_LIBRARY (a path), else next to an
installed copy of this package (see _location.py, written at install),
else the system's library search (ctypes.util.find_library).
"""

import ctypes
import ctypes.util
import functools
import os

__all__ = [
    "Error", "Group", "init", "init_explicit", "dtype_size",
    "DTYPES", "OPS", "library_path",
]

# Same order as distkit_dtype / distkit_op in distkit/distkit.h.
DTYPES = ("bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
          "uint64", "float16", "bfloat16", "float32", "float64", "complex64")
OPS = ("sum", "prod", "max", "min")

_STATUS = ("ok", "invalid argument", "configuration", "peer", "authentication",
           "timeout", "broken", "system", "internal")

# struct/memoryview format characters -> dtype (native sizes, as numpy and
# array.array export them). 'l'/'L' are 8 bytes on LP64 (macOS, Linux).
_FORMATS = {
    "?": "bool", "b": "int8", "B": "uint8", "h": "int16", "H": "uint16",
    "i": "int32", "I": "uint32", "q": "int64", "Q": "uint64",
    "e": "float16", "f": "float32", "d": "float64", "Zf": "complex64",
}
if ctypes.sizeof(ctypes.c_long) == 8:
    _FORMATS.update({"l": "int64", "L": "uint64"})
else:
    _FORMATS.update({"l": "int32", "L": "uint32"})


class Error(RuntimeError):
    """A failed runtime call: ``status`` is the distkit_status name, the
    message the library's one-line explanation (naming the peer, etc.)."""

    def __init__(self, status, message):
        self.status = status
        super().__init__(message)


def library_path():
    """Where libdistkit is loaded from (see the module docstring)."""
    explicit = os.environ.get("DISTKIT_LIBRARY")
    if explicit:
        return explicit
    try:
        from . import _location  # written by `cmake --install`
        candidate = os.path.normpath(os.path.join(os.path.dirname(__file__), _location.LIBRARY))
        if os.path.exists(candidate):
            return candidate
    except ImportError:
        pass
    found = ctypes.util.find_library("distkit")
    if found:
        return found
    raise Error("configuration",
                "libdistkit not found; install distkit or set DISTKIT_LIBRARY to the "
                "path of libdistkit.so / libdistkit.dylib")


@functools.lru_cache(maxsize=None)
def _library():
    lib = ctypes.CDLL(library_path())
    grp = ctypes.c_void_p
    size = ctypes.c_size_t
    status = ctypes.c_int
    signatures = {
        "distkit_init_from_env": (status, [ctypes.POINTER(grp)]),
        "distkit_init": (status, [ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_int,
                                  ctypes.POINTER(grp)]),
        "distkit_finalize": (None, [grp]),
        "distkit_rank": (ctypes.c_int, [grp]),
        "distkit_size": (ctypes.c_int, [grp]),
        "distkit_dtype_size": (size, [ctypes.c_int]),
        "distkit_all_reduce": (status, [grp, ctypes.c_void_p, ctypes.c_void_p, size,
                                        ctypes.c_int, ctypes.c_int]),
        "distkit_all_gather": (status, [grp, ctypes.c_void_p, ctypes.c_void_p, size,
                                        ctypes.c_int]),
        "distkit_reduce_scatter": (status, [grp, ctypes.c_void_p, ctypes.c_void_p, size,
                                            ctypes.c_int, ctypes.c_int]),
        "distkit_broadcast": (status, [grp, ctypes.c_void_p, size, ctypes.c_int, ctypes.c_int]),
        "distkit_send": (status, [grp, ctypes.c_void_p, size, ctypes.c_int]),
        "distkit_recv": (status, [grp, ctypes.c_void_p, size, ctypes.c_int]),
        "distkit_barrier": (status, [grp]),
        "distkit_split": (status, [grp, ctypes.c_int, ctypes.c_int, ctypes.POINTER(grp)]),
        "distkit_last_error": (ctypes.c_char_p, []),
    }
    for name, (restype, argtypes) in signatures.items():
        fn = getattr(lib, name)
        fn.restype = restype
        fn.argtypes = argtypes
    return lib


def _check(code):
    if code != 0:
        name = _STATUS[code] if 0 <= code < len(_STATUS) else "error %d" % code
        raise Error(name, _library().distkit_last_error().decode("utf-8", "replace"))


def dtype_size(dtype):
    """Bytes per element of a dtype name ("float32", ...)."""
    return _library().distkit_dtype_size(_index(DTYPES, dtype, "dtype"))


def _index(names, name, what):
    """Position of `name` in DTYPES or OPS (`what`: "dtype" or "op")."""
    try:
        return names.index(name)
    except ValueError:
        raise ValueError("unknown %s %r; use one of %s" % (what, name, ", ".join(names))) from None


class _Buffer:
    """A buffer's address, byte length and dtype, kept alive while in use."""

    def __init__(self, obj, dtype, writable):
        view = memoryview(obj)
        if not view.c_contiguous:
            raise ValueError("buffer is not C-contiguous; copy it first (e.g. numpy.ascontiguousarray)")
        if dtype is None:
            fmt = view.format.lstrip("@=<")
            dtype = _FORMATS.get(fmt)
            if dtype is None:
                raise ValueError("buffer format %r has no distkit dtype; pass dtype=" % view.format)
        self.dtype = dtype
        self.code = _index(DTYPES, dtype, "dtype")  # its distkit_dtype value
        self.nbytes = view.nbytes
        size = dtype_size(dtype)
        if self.nbytes % size != 0:
            raise ValueError("buffer of %d bytes is not a whole number of %s elements"
                             % (self.nbytes, dtype))
        self.count = self.nbytes // size
        raw = view.cast("B") if view.nbytes else view
        if view.readonly:
            if writable:
                raise ValueError("buffer is read-only; pass a writable one (bytearray, array, numpy)")
            self._keep = ctypes.create_string_buffer(bytes(raw), max(self.nbytes, 1))
        elif self.nbytes == 0:
            self._keep = ctypes.create_string_buffer(1)  # a valid address for 0 bytes
        else:
            self._keep = (ctypes.c_char * self.nbytes).from_buffer(raw)
        self.address = ctypes.addressof(self._keep)


class Group:
    """A communication group: every rank calls the same collectives in the
    same order. Not for concurrent use from several threads."""

    def __init__(self, handle):
        self._handle = handle

    def _h(self):
        if not self._handle:
            raise Error("invalid argument", "group is closed")
        return self._handle

    @property
    def rank(self):
        return _library().distkit_rank(self._h())

    @property
    def size(self):
        return _library().distkit_size(self._h())

    def all_reduce(self, data, out=None, op="sum", dtype=None):
        """Reduces `data` over all ranks into `out` (default: in place)."""
        src = _Buffer(data, dtype, writable=out is None)
        dst = src if out is None else _Buffer(out, src.dtype, writable=True)
        if dst.nbytes != src.nbytes:
            raise ValueError("out has %d bytes, data %d" % (dst.nbytes, src.nbytes))
        _check(_library().distkit_all_reduce(self._h(), src.address, dst.address, src.count,
                                             src.code, _index(OPS, op, "op")))
        return data if out is None else out

    def all_gather(self, data, out=None, dtype=None):
        """Concatenates every rank's `data` in rank order into `out`
        (default: a new bytearray of size * len(data) bytes)."""
        src = _Buffer(data, dtype, writable=False)
        if out is None:
            out = bytearray(src.nbytes * self.size)
        dst = _Buffer(out, src.dtype, writable=True)
        if dst.nbytes != src.nbytes * self.size:
            raise ValueError("out has %d bytes; all_gather needs size * %d"
                             % (dst.nbytes, src.nbytes))
        _check(_library().distkit_all_gather(self._h(), src.address, dst.address, src.count,
                                             src.code))
        return out

    def reduce_scatter(self, data, out=None, op="sum", dtype=None):
        """Reduces `data` (size blocks) and leaves this rank's block in `out`."""
        src = _Buffer(data, dtype, writable=False)
        n = self.size
        if src.count % n != 0:
            raise ValueError("reduce_scatter needs a multiple of size (%d) elements, got %d"
                             % (n, src.count))
        if out is None:
            out = bytearray(src.nbytes // n)
        dst = _Buffer(out, src.dtype, writable=True)
        if dst.nbytes * n != src.nbytes:
            raise ValueError("out has %d bytes; reduce_scatter needs %d"
                             % (dst.nbytes, src.nbytes // n))
        _check(_library().distkit_reduce_scatter(self._h(), src.address, dst.address,
                                                 dst.count, src.code, _index(OPS, op, "op")))
        return out

    def broadcast(self, data, root=0, dtype=None):
        """Copies root's `data` into every rank's `data` (in place)."""
        buf = _Buffer(data, dtype, writable=True)
        _check(_library().distkit_broadcast(self._h(), buf.address, buf.count, buf.code, root))
        return data

    def send(self, data, dst):
        buf = _Buffer(data, "uint8", writable=False)
        _check(_library().distkit_send(self._h(), buf.address, buf.nbytes, dst))

    def recv(self, data, src):
        """Receives exactly len(data) bytes from rank `src` into `data`."""
        buf = _Buffer(data, "uint8", writable=True)
        _check(_library().distkit_recv(self._h(), buf.address, buf.nbytes, src))
        return data

    def barrier(self):
        _check(_library().distkit_barrier(self._h()))

    def split(self, color, key=0):
        """Sub-group of the ranks that pass the same color (ordered by key,
        then rank); None for color < 0."""
        out = ctypes.c_void_p()
        _check(_library().distkit_split(self._h(), color, key, ctypes.byref(out)))
        return Group(out.value) if out.value else None

    def close(self):
        if self._handle:
            _library().distkit_finalize(self._handle)
            self._handle = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        try:
            self.close()
        except Exception:  # interpreter shutdown: the library may be gone
            pass


def init():
    """The group of this rank, from the environment distlaunch gives
    (MLX_RANK, MLX_HOSTFILE, DISTKIT_SECRET_FILE)."""
    out = ctypes.c_void_p()
    _check(_library().distkit_init_from_env(ctypes.byref(out)))
    return Group(out.value)


def init_explicit(hostfile_json, rank, secret_hex=None, timeout_ms=0):
    """A group from an explicit ring hostfile (JSON text), rank and secret."""
    out = ctypes.c_void_p()
    secret = secret_hex.encode() if secret_hex is not None else None
    _check(_library().distkit_init(hostfile_json.encode(), rank, secret, timeout_ms,
                                   ctypes.byref(out)))
    return Group(out.value)
