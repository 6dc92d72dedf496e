# A tiny seedable PRNG in C (SplitMix64), owned by each game state.
#
# SplitMix64 passes BigCrush, needs 8 bytes of state (cheap to copy with a
# state) and uses only 64-bit integer arithmetic, so one seed gives the same
# sequence on every machine.  Everything here is `noexcept nogil` so that deals,
# shuffles and playouts run without the GIL.

from libc.stdint cimport uint32_t, uint64_t


ctypedef struct Rng:
    uint64_t state  # advances by the golden-ratio increment on every draw


cdef inline void rng_seed(Rng* rng, uint64_t seed) noexcept nogil:
    rng.state = seed


cdef inline uint64_t rng_next(Rng* rng) noexcept nogil:
    cdef uint64_t z
    rng.state += 0x9E3779B97F4A7C15ULL
    z = rng.state
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL
    return z ^ (z >> 31)


cdef inline uint32_t _scaled(Rng* rng, uint32_t draw, uint32_t bound) noexcept nogil:
    """A uniform 32-bit draw mapped to [0, bound) without bias (Lemire's method: the rare
    draws that would bias it are replaced by fresh ones)."""
    cdef uint64_t m = <uint64_t>draw * bound
    cdef uint32_t low = <uint32_t>m
    cdef uint32_t threshold
    if low < bound:
        threshold = <uint32_t>(-bound) % bound
        while low < threshold:
            m = (rng_next(rng) >> 32) * <uint64_t>bound
            low = <uint32_t>m
    return <uint32_t>(m >> 32)


cdef inline uint32_t rng_below(Rng* rng, uint32_t bound) noexcept nogil:
    """A uniform integer in [0, bound), bound > 0 (from the draw's high 32 bits)."""
    return _scaled(rng, <uint32_t>(rng_next(rng) >> 32), bound)


cdef inline uint32_t rng_below_pair(Rng* rng, uint32_t bound, uint32_t bound2,
                                    uint32_t* second) noexcept nogil:
    """Two independent uniform integers, in [0, bound) (returned) and [0, bound2) (in
    *second), from the two halves of one draw: half the PRNG work of a shuffle."""
    cdef uint64_t z = rng_next(rng)
    second[0] = _scaled(rng, <uint32_t>z, bound2)
    return _scaled(rng, <uint32_t>(z >> 32), bound)
