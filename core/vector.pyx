"""N games of one kind stepped together in C: the inner loop of a trainer.

    vec = core.rl.Vector("cup-the-crab", 2, 1024, seed=1, threads=2)
    vec.reset()
    while training:
        actions = policy(vec.observations, vec.masks)     # one legal id per game
        vec.step(actions)       # writes observations, masks, rewards, dones, to_play

Each game has one deciding seat at a time (`to_play`): the seat to move, or, in Cup the
Crab's secret selection, the lowest seat that has not selected yet (the simultaneous
choice becomes consecutive decisions, and a seat's observation shows only *that* the
others selected).  `observations[i]` is what `to_play[i]` may know (each game's
observation.pyx under core/games/, docs/rl.md) and `masks[i]` its legal actions.  When a game ends,
`rewards[i]` holds every seat's reward (1 a win, 1/k a victory shared by k, 0 a loss),
`dones[i]` is set, and the game is dealt again at once (its observation is then the new
game's first decision).  Steps run in C with the GIL released, on the calling thread and
`threads - 1` POSIX threads that the vector keeps asleep between calls: a thread started
while the caller works waits for the scheduler to move it to a free core (about 0.6 ms
measured here, as long as stepping a thousand games), a sleeping one wakes in about
20 us.  A forked child starts its own threads at its first step.  The threads take runs
of 64 games in turn, so one the system is slow to schedule leaves its share to the others.

The vector knows no game: it steps any registered game through the C function table the
game hands out (core/vtable.pxd, core.registry.vtable), the one the search reads too.
"""

from libc.stdint cimport uint8_t, uint16_t, uint64_t, int32_t
from libc.stdlib cimport malloc, calloc, free
from libc.string cimport memset, memcpy
from posix.time cimport clock_gettime, timespec, CLOCK_THREAD_CPUTIME_ID

from core.rng cimport Rng, rng_next, rng_seed, rng_below
from core.vtable cimport GameVTable, VTABLE_CAPSULE, VT_MAX_PLAYERS
from core._base cimport GameStateBase, fresh_seed
from cpython.pycapsule cimport PyCapsule_GetPointer

import core
from core import registry


cdef extern from "<pthread.h>" nogil:
    ctypedef unsigned long pthread_t
    ctypedef struct pthread_mutex_t:
        pass
    ctypedef struct pthread_cond_t:
        pass
    int pthread_create(pthread_t* thread, const void* attr,
                       void* (*start)(void*) noexcept nogil, void* arg)
    int pthread_join(pthread_t thread, void** retval)
    int pthread_mutex_init(pthread_mutex_t* mutex, const void* attr)
    int pthread_mutex_destroy(pthread_mutex_t* mutex)
    int pthread_mutex_lock(pthread_mutex_t* mutex)
    int pthread_mutex_unlock(pthread_mutex_t* mutex)
    int pthread_cond_init(pthread_cond_t* cond, const void* attr)
    int pthread_cond_destroy(pthread_cond_t* cond)
    int pthread_cond_wait(pthread_cond_t* cond, pthread_mutex_t* mutex)
    int pthread_cond_broadcast(pthread_cond_t* cond)


cdef extern from "<unistd.h>" nogil:
    int getpid()


cdef enum:
    MAX_LEGAL = 512                    # a game may have at most this many legal actions
    MASK_WORDS = 6                     # 64-bit words of a legality bitmap: 384 action ids
    MAX_THREADS = 64
    CHUNK = 64                         # games a thread claims at a time


# One game's slot: its bookkeeping, then its state and memory blobs (kept small: the
# games of a call should fit the caches).
ctypedef struct Slot:
    Rng deals                          # the game's deals: the same whoever samples
    Rng samples                        # sample_actions
    int decider
    int n_legal
    uint64_t legal_bits[MASK_WORDS]    # the decider's legal ids, bit a of word a // 64


# -- the batch ----------------------------------------------------------------------------

# One call's work: every game of a vector stepped (or sampled) once.
ctypedef struct Job:
    Batch* batch
    Py_ssize_t n
    Py_ssize_t next                    # the first game no thread has claimed yet
    int active                         # helpers working on the job now
    const int32_t* actions             # step: one action per game; NULL: sample_actions
    int32_t* sampled
    double cpu_seconds[MAX_THREADS]    # CPU time each thread spent on its games


# The helper threads of a vector, asleep on `wake` between jobs.
ctypedef struct Pool:
    pthread_mutex_t lock
    pthread_cond_t wake
    unsigned long generation           # bumped for each job offered
    Job* job                           # the job on offer; NULL between calls
    bint stop
    int started                        # helpers running
    int pid                            # the process they run in
    pthread_t helpers[MAX_THREADS]


ctypedef struct Helper:
    Pool* pool
    int index


ctypedef struct Batch:
    GameVTable vt                      # the game's functions (a copy: one load a call)
    const void* like                   # the state each deal is set up as (players, options)
    int players
    int first_player                   # -1: drawn at random each deal
    int obs_size
    Py_ssize_t n
    size_t slot_size
    char* slots
    float* observations
    uint8_t* masks
    float* rewards
    uint8_t* dones
    int32_t* to_play


cdef inline Slot* _slot(const Batch* b, Py_ssize_t i) noexcept nogil:
    return <Slot*>(b.slots + i * b.slot_size)


cdef inline void* _state(const Batch* b, Slot* slot) noexcept nogil:
    return <char*>slot + sizeof(Slot)


cdef inline void* _memory(const Batch* b, Slot* slot) noexcept nogil:
    return <char*>slot + sizeof(Slot) + b.vt.state_size


cdef void _refresh(Batch* b, Py_ssize_t i) noexcept nogil:
    """Lists the decider's legal actions and writes its mask and observation."""
    cdef Slot* slot = _slot(b, i)
    cdef void* s = _state(b, slot)
    cdef uint8_t* mask = b.masks + i * b.vt.n_actions
    cdef uint16_t legal[MAX_LEGAL]
    cdef int k, a
    slot.decider = b.vt.decider(s)
    slot.n_legal = b.vt.legal_actions(s, slot.decider, legal)
    memset(slot.legal_bits, 0, sizeof(slot.legal_bits))
    memset(mask, 0, b.vt.n_actions)
    for k in range(slot.n_legal):
        a = legal[k]
        slot.legal_bits[a >> 6] |= (<uint64_t>1) << (a & 63)
        mask[a] = 1
    b.to_play[i] = slot.decider
    b.vt.observe(s, _memory(b, slot), slot.decider, b.observations + i * b.obs_size)


cdef void _deal(Batch* b, Py_ssize_t i) noexcept nogil:
    cdef Slot* slot = _slot(b, i)
    cdef Rng deal_rng
    rng_seed(&deal_rng, rng_next(&slot.deals))
    b.vt.deal(_state(b, slot), b.like, b.first_player, &deal_rng)
    b.vt.forget(_memory(b, slot))


cdef void _step_one(Batch* b, Py_ssize_t i, int action) noexcept nogil:
    cdef Slot* slot = _slot(b, i)
    cdef void* s = _state(b, slot)
    cdef float* rewards = b.rewards + i * b.players
    cdef double won[VT_MAX_PLAYERS]
    cdef int seat
    b.vt.record(_memory(b, slot), s, slot.decider, action)
    b.vt.apply_action(s, slot.decider, action)
    if b.vt.decider(s) < 0:             # over
        b.vt.rewards(s, won)
        for seat in range(b.players):
            rewards[seat] = <float>won[seat]
        b.dones[i] = 1
        _deal(b, i)
    else:
        memset(rewards, 0, b.players * sizeof(float))
        b.dones[i] = 0
    _refresh(b, i)


cdef extern from *:
    int __builtin_popcountll(unsigned long long) nogil
    int __builtin_ctzll(unsigned long long) nogil


cdef inline int _nth_legal(const Slot* slot, int k) noexcept nogil:
    """The k-th (from 0) legal id of the slot's decider, in increasing order."""
    cdef int word = 0, count
    cdef uint64_t bits
    while True:
        bits = slot.legal_bits[word]
        count = __builtin_popcountll(bits)
        if k < count:
            break
        k -= count
        word += 1
    while k:
        bits &= bits - 1
        k -= 1
    return word * 64 + __builtin_ctzll(bits)


cdef inline double _thread_cpu() noexcept nogil:
    cdef timespec ts
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
    return ts.tv_sec + ts.tv_nsec * 1e-9


cdef extern from *:
    """
    static inline Py_ssize_t vector_claim(Py_ssize_t* next, Py_ssize_t chunk) {
        return __atomic_fetch_add(next, chunk, __ATOMIC_RELAXED);
    }
    static inline void vector_leave(int* active) {
        __atomic_sub_fetch(active, 1, __ATOMIC_RELEASE);
    }
    static inline int vector_active(int* active) {
        return __atomic_load_n(active, __ATOMIC_ACQUIRE);
    }
    """
    Py_ssize_t vector_claim(Py_ssize_t* next, Py_ssize_t chunk) nogil
    void vector_leave(int* active) nogil
    int vector_active(int* active) nogil


cdef extern from "<sched.h>" nogil:
    int sched_yield()


cdef void _claim_and_work(Job* job, int index) noexcept nogil:
    """Claims runs of CHUNK games until none is left, and steps (or samples) them."""
    cdef Py_ssize_t i, begin, end
    cdef Slot* slot
    cdef double start
    while True:
        begin = vector_claim(&job.next, CHUNK)
        if begin >= job.n:
            return
        end = begin + CHUNK if begin + CHUNK < job.n else job.n
        start = _thread_cpu()
        for i in range(begin, end):
            if job.actions != NULL:
                _step_one(job.batch, i, job.actions[i])
            else:
                slot = _slot(job.batch, i)
                job.sampled[i] = _nth_legal(slot, rng_below(&slot.samples, slot.n_legal))
        job.cpu_seconds[index] += _thread_cpu() - start


cdef void* _helper_main(void* arg) noexcept nogil:
    """A helper's life: asleep until a job is offered, then claims runs of its games."""
    cdef Pool* pool = (<Helper*>arg).pool
    cdef int index = (<Helper*>arg).index
    cdef unsigned long seen = 0         # the pool starts at generation 0, before any job
    cdef Job* job
    free(arg)
    pthread_mutex_lock(&pool.lock)
    while True:
        while pool.generation == seen and not pool.stop:
            pthread_cond_wait(&pool.wake, &pool.lock)
        if pool.stop:
            break
        seen = pool.generation
        job = pool.job
        if job == NULL:                 # woken after that job's call had ended
            continue
        job.active += 1                 # under the lock: the caller waits for it to leave
        pthread_mutex_unlock(&pool.lock)
        _claim_and_work(job, index)
        vector_leave(&job.active)
        pthread_mutex_lock(&pool.lock)
    pthread_mutex_unlock(&pool.lock)
    return NULL


cdef Pool* _pool_start(int helpers) noexcept nogil:
    """A pool of up to `helpers` threads (NULL if none could be had)."""
    cdef Pool* pool = <Pool*>calloc(1, sizeof(Pool))
    cdef Helper* helper
    if pool == NULL:
        return NULL
    pthread_mutex_init(&pool.lock, NULL)
    pthread_cond_init(&pool.wake, NULL)
    pool.pid = getpid()
    while pool.started < helpers:
        helper = <Helper*>malloc(sizeof(Helper))
        if helper == NULL:
            break
        helper.pool = pool
        helper.index = pool.started + 1
        if pthread_create(&pool.helpers[pool.started], NULL, _helper_main, helper) != 0:
            free(helper)
            break
        pool.started += 1
    if pool.started == 0:
        _pool_stop(pool)
        return NULL
    return pool


cdef void _pool_stop(Pool* pool) noexcept nogil:
    """Wakes the helpers to end, joins them and frees the pool."""
    cdef int t
    pthread_mutex_lock(&pool.lock)
    pool.stop = True
    pthread_cond_broadcast(&pool.wake)
    pthread_mutex_unlock(&pool.lock)
    for t in range(pool.started):
        pthread_join(pool.helpers[t], NULL)
    pthread_cond_destroy(&pool.wake)
    pthread_mutex_destroy(&pool.lock)
    free(pool)


cdef double _run(Batch* b, Pool* pool, const int32_t* actions,
                 int32_t* sampled) noexcept nogil:
    """Steps (or samples) every game on this thread and the pool's helpers (none if
    pool is NULL); all take runs of CHUNK games in turn, so a helper the system is slow
    to wake (a busy machine) leaves its share to the others instead of holding the call
    up: this thread waits only for helpers in the middle of a run.  Each game's result
    depends on its own slot only, so the threads change the time and nothing else.
    Returns the CPU seconds spent on the games."""
    cdef Job job
    cdef int t
    cdef double cpu = 0
    memset(&job, 0, sizeof(Job))
    job.batch = b
    job.n = b.n
    job.actions = actions
    job.sampled = sampled
    if pool != NULL:
        pthread_mutex_lock(&pool.lock)
        pool.job = &job
        pool.generation += 1
        pthread_cond_broadcast(&pool.wake)
        pthread_mutex_unlock(&pool.lock)
    _claim_and_work(&job, 0)
    if pool != NULL:
        pthread_mutex_lock(&pool.lock)
        pool.job = NULL                 # no helper joins from now on
        pthread_mutex_unlock(&pool.lock)
        while vector_active(&job.active) > 0:
            sched_yield()               # a helper is finishing a run it claimed
    for t in range(MAX_THREADS):
        cpu += job.cpu_seconds[t]
    return cpu


cdef class Vector:
    """n games of `name` for `players` seats, stepped together (see the module doc).

    Buffers, written in place by reset() and step() (NumPy arrays, or your own
    C-contiguous buffers of these types and shapes passed by keyword):
    observations float32 (n, observation size), masks uint8 (n, n_actions),
    rewards float32 (n, players), dones uint8 (n,), to_play int32 (n,).
    """
    cdef Batch b
    cdef Pool* _pool                     # the helper threads, started by the first step
    cdef readonly int threads
    cdef readonly double cpu_seconds     # CPU time spent in step() by all threads so far
    cdef readonly str name
    cdef GameStateBase _like             # the game each deal copies the setup of
    cdef readonly object observations, masks, rewards, dones, to_play
    cdef float[:, ::1] _obs
    cdef uint8_t[:, ::1] _masks
    cdef float[:, ::1] _rewards
    cdef uint8_t[::1] _dones
    cdef int32_t[::1] _to_play
    cdef uint64_t _seed
    cdef bint _busy                      # a call is stepping the games (GIL released)

    def __cinit__(self):
        self.b.slots = NULL
        self._pool = NULL

    def __init__(self, str name, int players, Py_ssize_t n, *, seed=None, int threads=1,
                 options=None, observations=None, masks=None, rewards=None, dones=None,
                 to_play=None):
        import numpy as np
        cdef const GameVTable* vt = _steppable(name, registry.vtable(name))
        self._like = core.new_game(name, players, seed=0, options=options)  # checks them
        if n < 1:
            raise ValueError(f"n must be a positive number of games, got {n}")
        if not 1 <= threads <= MAX_THREADS:
            raise ValueError(f"threads must be from 1 to {MAX_THREADS}, got {threads}")
        self.name = name
        self.threads = threads
        self._seed = fresh_seed(seed)
        first = (options or {}).get("first_player")
        self.b.vt = vt[0]
        self.b.like = self._like.c_state()
        self.b.players = players
        self.b.first_player = -1 if first is None else first
        self.b.obs_size = vt.observation_size(players)
        self.b.n = n
        self.b.slot_size = (sizeof(Slot) + self.b.vt.state_size + self.b.vt.memory_size
                            + 63) // 64 * 64
        self.b.slots = <char*>calloc(n, self.b.slot_size)
        if self.b.slots == NULL:
            raise MemoryError(f"no room for {n} games")
        shapes = {"observations": ((n, self.b.obs_size), np.float32, observations),
                  "masks": ((n, self.b.vt.n_actions), np.uint8, masks),
                  "rewards": ((n, players), np.float32, rewards),
                  "dones": ((n,), np.uint8, dones), "to_play": ((n,), np.int32, to_play)}
        arrays = {}
        for key, (shape, dtype, given) in shapes.items():
            arrays[key] = np.zeros(shape, dtype=dtype) if given is None else given
            if tuple(memoryview(arrays[key]).shape) != shape:
                raise ValueError(f"{key} must have shape {shape}, got"
                                 f" {tuple(memoryview(arrays[key]).shape)}")
        self.observations, self.masks, self.rewards = (
            arrays["observations"], arrays["masks"], arrays["rewards"])
        self.dones, self.to_play = arrays["dones"], arrays["to_play"]
        self._obs, self._masks, self._rewards = self.observations, self.masks, self.rewards
        self._dones, self._to_play = self.dones, self.to_play
        self.b.observations = &self._obs[0, 0]
        self.b.masks = &self._masks[0, 0]
        self.b.rewards = &self._rewards[0, 0]
        self.b.dones = &self._dones[0]
        self.b.to_play = &self._to_play[0]
        self.reset()

    def __dealloc__(self):
        if self._pool != NULL and self._pool.pid == getpid():
            with nogil:
                _pool_stop(self._pool)
        free(self.b.slots)  # (a forked child's copy of a pool has no threads: left alone)

    cdef Pool* _helpers(self) noexcept nogil:
        """The pool for this process, started at its first step (in a forked child too,
        whose copy of the parent's pool has no threads)."""
        if self.threads > 1 and (self._pool == NULL or self._pool.pid != getpid()):
            self._pool = _pool_start(self.threads - 1)
        return self._pool

    @property
    def n(self) -> int:
        return self.b.n

    @property
    def players(self) -> int:
        return self.b.players

    @property
    def observation_size(self) -> int:
        return self.b.obs_size

    @property
    def n_actions(self) -> int:
        return self.b.vt.n_actions

    def reset(self, seed=None) -> None:
        """Deals every game again (from `seed`, else the vector's seed): the same seed
        gives the same games and, with the same actions, the same steps."""
        cdef Rng master
        cdef Py_ssize_t i
        if seed is not None:
            self._seed = fresh_seed(seed)
        rng_seed(&master, self._seed)
        self._enter()
        with nogil:
            for i in range(self.b.n):
                rng_seed(&_slot(&self.b, i).deals, rng_next(&master))
                rng_seed(&_slot(&self.b, i).samples, rng_next(&master))
                _deal(&self.b, i)
                memset(self.b.rewards + i * self.b.players, 0,
                       self.b.players * sizeof(float))
                self.b.dones[i] = 0
                _refresh(&self.b, i)
        self._busy = False

    def step(self, actions) -> None:
        """Applies actions[i] (the decider's legal id) to game i, for every game.

        ValueError, with nothing changed, if one is not legal: the masks say which are.
        """
        cdef const int32_t[::1] acts = _int32(actions)
        cdef Py_ssize_t i, bad = -1
        cdef Slot* slot
        cdef int a
        if acts.shape[0] != self.b.n:
            raise ValueError(f"give one action per game: {self.b.n}, got {acts.shape[0]}")
        self._enter()
        with nogil:
            for i in range(self.b.n):
                slot = _slot(&self.b, i)
                a = acts[i]
                if (a < 0 or a >= self.b.vt.n_actions
                        or not (slot.legal_bits[a >> 6] >> (a & 63)) & 1):
                    bad = i
                    break
            if bad < 0:
                self.cpu_seconds += _run(&self.b, self._helpers(), &acts[0], NULL)
        self._busy = False
        if bad >= 0:
            raise ValueError(f"action {acts[bad]} is not legal in game {bad} for seat"
                             f" {_slot(&self.b, bad).decider}; nothing was applied")

    def sample_actions(self, out=None):
        """A uniformly random legal action per game (int32), drawn in C by the vector's
        threads (each game's draws come from its own generator: the threads change the
        time and nothing else)."""
        import numpy as np
        cdef int32_t[::1] buf
        if out is None:
            out = np.empty(self.b.n, dtype=np.int32)
        buf = out
        if buf.shape[0] != self.b.n:
            raise ValueError(f"out must hold {self.b.n} actions, got {buf.shape[0]}")
        self._enter()
        with nogil:
            _run(&self.b, self._helpers(), NULL, &buf[0])
        self._busy = False
        return out

    cdef int _enter(self) except -1:
        """One call at a time: the GIL is released while the games are stepped."""
        if self._busy:
            raise RuntimeError("this vector is in use by another thread: one call at a time")
        self._busy = True
        return 0

    def game(self, Py_ssize_t i):
        """A copy of game i as a core GameState (for checks and tools)."""
        if not 0 <= i < self.b.n:
            raise IndexError(f"game index must be from 0 to {self.b.n - 1}, got {i}")
        cdef GameStateBase state = self._like.clone()
        memcpy(state.c_state(), _state(&self.b, _slot(&self.b, i)), self.b.vt.state_size)
        return state


cdef const GameVTable* _steppable(str name, capsule) except NULL:
    """The game's vtable, if it has everything the vector calls (ValueError else)."""
    cdef const GameVTable* vt = <const GameVTable*>PyCapsule_GetPointer(capsule, VTABLE_CAPSULE)
    missing = [field for field, fn in (
        ("legal_actions", vt.legal_actions != NULL), ("apply_action", vt.apply_action != NULL),
        ("rewards", vt.rewards != NULL), ("deal", vt.deal != NULL),
        ("decider", vt.decider != NULL), ("observation_size", vt.observation_size != NULL),
        ("forget", vt.forget != NULL), ("record", vt.record != NULL),
        ("observe", vt.observe != NULL)) if not fn]
    if missing:
        raise ValueError(f"the vector cannot step {name!r}: its vtable has no"
                         f" {', '.join(missing)} (docs/adding-a-game.md)")
    if (vt.n_actions > MASK_WORDS * 64 or vt.max_legal > MAX_LEGAL
            or vt.max_players > VT_MAX_PLAYERS):
        raise ValueError(f"the vector steps games of at most {MASK_WORDS * 64} action ids,"
                         f" {MAX_LEGAL} legal actions and {VT_MAX_PLAYERS} seats; {name!r}"
                         f" has {vt.n_actions}, {vt.max_legal} and {vt.max_players}")
    return vt


cdef const int32_t[::1] _int32(actions):
    try:
        return actions
    except (ValueError, TypeError):
        import numpy as np
        return np.ascontiguousarray(actions, dtype=np.int32)
