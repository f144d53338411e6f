"""libtest.py - the library's C API through ctypes, for the Python tests
that call it (test_cpython_diff.py, test_whatwg_node.py): the shared
library ctest names in $UTF8KIT_LIB (without it the test is skipped, exit
77), its result and options structs, and the kernels it offers."""
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
