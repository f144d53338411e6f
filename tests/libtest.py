"""libtest.py - the library's C API through ctypes, for the Python tests
that call it (test_cpython_diff.py, test_whatwg_node.py, ...): the shared
library ctest names in $UTF8KIT_LIB (without it the test is skipped, exit
77), its result and options structs, the kernels it offers, and random
text for the differential tests."""
import ctypes
import os
import sys


class Result(ctypes.Structure):
    _fields_ = [("status", ctypes.c_int), ("read", ctypes.c_size_t),
                ("written", ctypes.c_size_t), ("error_len", ctypes.c_size_t),
                ("replaced", ctypes.c_size_t)]


class Options(ctypes.Structure):
    _fields_ = [("policy", ctypes.c_int), ("substitute", ctypes.c_uint32),
                ("bom", ctypes.c_int), ("stop_after_error", ctypes.c_bool)]


def load():
    """The library, with the signatures of the calls both tests make."""
    lib = os.environ.get("UTF8KIT_LIB")
    if not lib or not os.path.exists(lib):
        print("skipped: UTF8KIT_LIB not set (run through ctest)")
        sys.exit(77)
    L = ctypes.CDLL(lib)
    L.utf8kit_convert.restype = Result
    L.utf8kit_convert.argtypes = [ctypes.c_int, ctypes.c_int, ctypes.c_void_p, ctypes.c_size_t,
                                  ctypes.c_void_p, ctypes.c_size_t, ctypes.POINTER(Options)]
    L.utf8kit_repair.restype = Result
    L.utf8kit_repair.argtypes = [ctypes.c_char_p, ctypes.c_size_t, ctypes.c_void_p,
                                 ctypes.c_size_t]
    L.utf8kit_is_valid.restype = ctypes.c_bool
    L.utf8kit_is_valid.argtypes = [ctypes.c_char_p, ctypes.c_size_t]
    L.utf8kit_impl_available.restype = ctypes.c_char_p
    L.utf8kit_impl_available.argtypes = [ctypes.c_size_t]
    L.utf8kit_impl_select.restype = ctypes.c_int
    L.utf8kit_impl_select.argtypes = [ctypes.c_char_p]
    L.utf8kit_impl_name.restype = ctypes.c_char_p
    return L


def kernels(L):
    """The names (bytes) of the kernels compiled in that this CPU runs."""
    names, i = [], 0
    while True:
        n = L.utf8kit_impl_available(i)
        if not n:
            return names
        names.append(n)
        i += 1


# Code points drawn by class so every length and boundary shows up.
CLASSES = [(0x00, 0x7F), (0x80, 0x7FF), (0x800, 0xD7FF), (0xE000, 0xFFFF), (0x10000, 0x10FFFF),
           (0x7E, 0x81), (0x7FE, 0x801), (0xD7FE, 0xD7FF), (0xE000, 0xE001), (0xFFFD, 0x10001),
           (0x10FFFE, 0x10FFFF)]


def random_text(rng, n):
    """n random characters, 60% from CLASSES and the rest printable ASCII."""
    out = []
    for _ in range(n):
        lo, hi = rng.choice(CLASSES) if rng.random() < 0.6 else (0x20, 0x7E)
        out.append(chr(rng.randint(lo, hi)))
    return "".join(out)


def mutate(rng, b):
    """b with 1 to 3 edits: a bit flipped, the end cut off, 1-3 random
    bytes inserted, or 1-3 bytes deleted."""
    b = bytearray(b)
    for _ in range(rng.randint(1, 3)):
        op = rng.random()
        if op < 0.35 and b:
            b[rng.randrange(len(b))] ^= 1 << rng.randrange(8)
        elif op < 0.55 and b:
            del b[rng.randrange(len(b)):]
        elif op < 0.8:
            i = rng.randrange(len(b) + 1)
            b[i:i] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 3)))
        elif b:
            i = rng.randrange(len(b))
            del b[i:i + rng.randint(1, 3)]
    return bytes(b)


class Checks:
    """Counts checks and failures; prints the first `show` failures
    (SHOW in the environment, default 30). msg is called only on a
    failure."""

    def __init__(self):
        self.checks = self.failures = 0
        self.show = int(os.environ.get("SHOW", "30"))

    def __call__(self, cond, msg):
        self.checks += 1
        if not cond:
            self.failures += 1
            if self.failures <= self.show:
                print("FAILED:", msg())


def convert(L, frm, to, data, policy=0):
    """utf8kit_convert of data (policy: 0 STRICT, 1 REPLACE) into a buffer
    with room to spare; (result, output bytes)."""
    opt = Options(policy, 0, 0, False)
    src = ctypes.create_string_buffer(data, max(len(data), 1))
    cap = 8 * len(data) + 16
    buf = ctypes.create_string_buffer(cap)
    r = L.utf8kit_convert(frm, to, src, len(data), buf, cap, ctypes.byref(opt))
    return r, buf.raw[:r.written]


def case_inputs():
    """The inputs (hex before '->') of every cases.txt of the third-party
    test data in $UTF8KIT_TESTDATA; none without it."""
    d = os.environ.get("UTF8KIT_TESTDATA")
    out = []
    if not d or not os.path.isdir(d):
        return out
    for name in sorted(os.listdir(d)):
        p = os.path.join(d, name, "cases.txt")
        if not os.path.exists(p):
            continue
        with open(p, encoding="utf-8") as f:
            for line in f:
                if line.startswith("#") or "->" not in line:
                    continue
                try:
                    out.append(bytes(int(h, 16) for h in line.split("->")[0].split()))
                except ValueError:
                    pass
    return out
