"""What the kernel needs from the standard library, taken before any learner code runs.

Learner code may patch any module (``os.write = ...``, ``json.dumps = ...``); the kernel
keeps the function objects themselves, so such a patch changes what the learner sees, not
what the kernel does. Everything here is implemented in C: a Python function looks its
helpers up in its module at every call, and those a learner could patch. Where a module
does not exist (a browser has no ``resource``), its functions are None and the kernel does
without them.
"""

from __future__ import annotations

import _functools  # type: ignore[import-not-found]  # (no stub: functools.partial is it)
import _json
import _operator
import _pickle
import collections as _collections
import gc as _gc
import itertools as _itertools
import marshal as _marshal
import sys as _sys
import types as _types

try:  # absent in a browser
    import posix as _posix
except ImportError:  # pragma: no cover - browsers only
    _posix = None  # type: ignore[assignment]

try:  # the per-call CPU timer: absent in a browser, where no signal interrupts a call
    import signal as _signal_module

    _setitimer = _signal_module.setitimer
    _ITIMER_PROF = _signal_module.ITIMER_PROF
except (ImportError, AttributeError):  # pragma: no cover - browsers only
    _setitimer = None  # type: ignore[assignment]
    _ITIMER_PROF = 0

try:
    import _blake2
except ImportError:  # pragma: no cover - builds without blake2
    _blake2 = None  # type: ignore[assignment]
_blake2b = _blake2.blake2b if _blake2 is not None else None

_compare_digest = _operator._compare_digest
_attrgetter = _operator.attrgetter
_getitem = _operator.getitem
_setitem = _operator.setitem
_delitem = _operator.delitem
#: What an object refers to, read by the collector's own traversal: it calls no Python code,
#: so it shows what a ``MappingProxyType`` wraps without asking the mapping anything.
_referents = _gc.get_referents
_gc_isenabled = _gc.isenabled
_gc_disable = _gc.disable
_gc_enable = _gc.enable
#: True only while the digest's encoder reads what a mapping proxy wraps (see
#: :func:`.reach.placeholder`): the guard lets that one event through without its checks.
_TRUSTED_READ: list[bool] = [False]
_map = map
_zip = zip
_islice = _itertools.islice
_partial = _functools.partial
_list = list

_marshal_loads = _marshal.loads
#: Reads the plain data the trusted side pickles (dicts, lists, tuples, text and numbers only:
#: it finds no class, so it runs no code).
_pickle_loads = _pickle.loads
_getframe = _sys._getframe
_setrecursionlimit = _sys.setrecursionlimit
_sys_modules = _sys.modules
_MappingProxy = _types.MappingProxyType
_DefaultDict = _collections.defaultdict
_str = str
_CodeType = _types.CodeType
_FunctionType = _types.FunctionType
_str_exact = str.__str__  # a str subclass's characters, without calling its own __str__
_int_exact = int.__int__  # likewise for int and float subclasses
_float_exact = float.__float__
_str_startswith = str.startswith
_str_join = str.join
_str_isascii = str.isascii
_str_encode = str.encode
_UnicodeEncodeError = UnicodeEncodeError
_BlockingIOError = BlockingIOError
_bytes_hex = bytes.hex
_list_append = list.append
_dict_items = dict.items
_encode_string = _json.encode_basestring_ascii
#: The C encoder behind ``json.dumps``: called on plain data only, it runs no Python code.
_make_encoder = _json.make_encoder

if _posix is not None:
    #: Part of the digest's placeholders: text a learner value happens to hold cannot be one.
    _token_nonce = _posix.urandom(8).hex()
    _read = _posix.read
    _write = _posix.write
    _set_blocking = _posix.set_blocking
    _close = _posix.close
    _getpid = _posix.getpid
    _exit = _posix._exit
    _kill = _posix.kill
    _fstat = _posix.fstat
else:  # pragma: no cover - browsers only
    _read = _write = _set_blocking = _close = _getpid = _exit = _kill = _fstat = None
    _token_nonce = "browser"

#: Set by :mod:`.serve`: where the learner's submission lives (frames below it are theirs).
_ROOTS: list[str] = []
#: Set by :mod:`.serve`: where the interpreter's standard library lives.
_STDLIB: list[str] = []
