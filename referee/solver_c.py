"""The compiled double-dummy core (``solver_core.c``), loaded with cffi in ABI mode.

``make install`` builds ``referee/_solver_core.so.1`` with gcc; without it (or
without cffi) :func:`available` is False and :class:`referee.solver.Solver`
searches in Python, with the same results. The core holds no rules of its
own: :class:`Core` hands it the tables of :class:`referee.solver._Rules`.
"""

from __future__ import annotations

from pathlib import Path

LIBRARY = Path(__file__).with_name("_solver_core.so.1")   # not ".so": the doctest walk would take it for a module

_CDEF = """
typedef struct {
    uint32_t beats[32];
    int points[32];
    uint32_t ruff;
    uint32_t must_beat;
    int partner_free;
    int rule;
    int step;
    int dix;
    int bonus;
    int order[32];
    int ladder[4][8];
} dd_rules;
typedef struct dd_core dd_core;
dd_core *dd_new(const dd_rules *rules, int tt_bits);
void dd_free(dd_core *c);
void dd_clear(dd_core *c);
uint64_t dd_nodes(const dd_core *c);
int dd_value(dd_core *c, const uint32_t hands[4], const int *trick, int n, int leader, int ns, int won,
             int alpha, int beta);
"""

#: 2^18 buckets of two entries (16 bytes each): 8 MiB per core, enough for a whole deal
TT_BITS = 18

_LIB: list = []


def _lib():
    if not _LIB:
        try:
            import cffi
            ffi = cffi.FFI()
            ffi.cdef(_CDEF)
            _LIB.append((ffi, ffi.dlopen(str(LIBRARY))) if LIBRARY.exists() else None)
        except (ImportError, OSError):
            _LIB.append(None)
    return _LIB[0]


def available() -> bool:
    """Whether the core is built and loadable."""
    return _lib() is not None


class Core:
    """One deal's search state in C: the rules' tables and a transposition table."""

    def __init__(self, rules, tt_bits: int = TT_BITS):
        loaded = _lib()
        if loaded is None:
            raise RuntimeError(f"the C solver core is not built ({LIBRARY.name}): run `make install` (it needs gcc)")
        ffi, lib = loaded
        from .trump_tables import ORDER
        r = ffi.new("dd_rules *")
        r.beats = list(rules.beats)
        r.points = list(rules.points)
        r.ruff = rules.ruff
        r.must_beat = rules.must_beat
        r.partner_free = int(rules.partner_free)
        r.rule = rules.rule
        r.step = rules.step
        r.dix = rules.dix
        r.bonus = rules.bonus
        r.order = list(ORDER[rules.mode])
        r.ladder = [list(suit) for suit in rules.ladder]
        core = lib.dd_new(r, tt_bits)
        if core == ffi.NULL:
            raise MemoryError("no memory for the solver's transposition table")
        self._ffi, self._lib = ffi, lib
        self._core = ffi.gc(core, lib.dd_free)
        self._hands = ffi.new("uint32_t[4]")
        self._trick = ffi.new("int[4]")

    def value(self, pos, alpha: int, beta: int) -> int:
        """As :meth:`referee.solver_py.Core.value`."""
        self._hands[0:4] = pos.hands
        n = len(pos.trick)
        if n:
            self._trick[0:n] = pos.trick
        return self._lib.dd_value(self._core, self._hands, self._trick, n, pos.leader, pos.ns, pos.won, alpha, beta)

    def clear(self) -> None:
        """Forget what was learnt (before another deal)."""
        self._lib.dd_clear(self._core)

    @property
    def nodes(self) -> int:
        return self._lib.dd_nodes(self._core)
