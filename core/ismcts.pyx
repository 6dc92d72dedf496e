"""Information-Set MCTS (single observer) and flat Monte Carlo, for any game with a vtable.

The search is written once against `GameVTable` (core/vtable.pxd): a game hands in its
flat C state as bytes, the seat that searches (the observer), a PyCapsule with its
vtable, and the observer's extra knowledge.  Everything below `search` runs in C with
the GIL released; with threads > 1 each thread grows its own tree with its own PRNG
(root parallelism, POSIX threads) and the root statistics are summed.

ISMCTS-SO (Cowling, Powley and Whitehouse 2012): every iteration samples a
determinization of the root for the observer, descends the single tree choosing among
the children that are legal in that determinization by UCB with availability counts,
expands one untried legal move, finishes with a random playout and backs up each
seat's reward into the nodes where that seat acted.  Moves the observer cannot see
(`vtable.hidden`) are not tree edges: they are drawn uniformly at random, so no node
below them is told which hidden move was made (Cowling et al.'s treatment of partially
observable moves).  See docs/ai.md.

Flat Monte Carlo: every iteration samples a determinization, plays the least tried
root move and then random moves to the end; the best mean reward wins.
"""

from libc.stdint cimport int8_t, int16_t, int32_t, uint16_t, uint32_t, uint64_t
from libc.stdlib cimport calloc, free, malloc, realloc
from libc.string cimport memcpy, memset
from libc.math cimport log, sqrt
from posix.time cimport clock_gettime, timespec, CLOCK_MONOTONIC, CLOCK_THREAD_CPUTIME_ID
from cpython.pycapsule cimport PyCapsule_GetPointer

from core.rng cimport Rng, rng_next, rng_seed, rng_below
from core.vtable cimport (GameVTable, VTABLE_CAPSULE, VT_MAX_PLAYERS, vt_playout_fn,
                         vt_rewards_fn)


cdef extern from "<pthread.h>" nogil:
    ctypedef unsigned long pthread_t
    int pthread_create(pthread_t* thread, const void* attr,
                       void* (*start)(void*) noexcept nogil, void* arg)
    int pthread_join(pthread_t thread, void** retval)

ALGORITHMS = ("ismcts", "flat")
# Playouts: uniformly random moves, or the game's rules of thumb (vtable.policy_playout).
PLAYOUTS = ("random", "policy")
# Rewards backed up: the victory share (vtable.rewards), one that keeps the table's
# order too (vtable.rank_rewards), or the place alone (vtable.place_rewards); with two
# players all three are the same.
REWARDS = ("win", "rank", "place")
# The root's moves chosen by UCB, like every node's, or by sequential halving (Karnin,
# Koren and Somekh 2013; at the root of MCTS: Pepels, Cazenave, Winands and Lanctot 2014):
# rounds of equal tries of the moves still in, the worse half dropped after each; it
# needs the iteration budget to plan its rounds, so ISMCTS with iterations only.
ROOTS = ("ucb", "halving")

cdef enum:
    ALG_ISMCTS = 0
    ALG_FLAT = 1
    TIME_CHECK_EVERY = 16       # iterations between clock reads in a timed search
    NODE_BUDGET = 1 << 23       # nodes for all trees of one search (32 bytes each: 256 MiB)
    SQRT_LOG_TABLE = 1 << 16


# sqrt(log(n)) for the availability counts most nodes have: UCB without a log per child.
cdef double SQRT_LOG[SQRT_LOG_TABLE]


cdef void _fill_sqrt_log() noexcept:
    cdef int i
    SQRT_LOG[0] = 0
    for i in range(1, SQRT_LOG_TABLE):
        SQRT_LOG[i] = sqrt(log(<double>i))


_fill_sqrt_log()


cdef inline double _sqrt_log(uint32_t n) noexcept nogil:
    return SQRT_LOG[n] if n < SQRT_LOG_TABLE else sqrt(log(<double>n))


ctypedef struct Node:
    int32_t first_child         # -1: none yet
    int32_t next_sibling
    uint32_t visits
    uint32_t avail              # times this node's move was legal when its parent was passed
    double reward               # sum of the rewards of `actor`, who made the move
    float inv_sqrt_visits       # 1 / sqrt(visits), kept so UCB needs no sqrt per child
    int16_t action              # the move into this node (-1 at the root)
    int8_t actor


ctypedef struct Worker:
    const GameVTable* vt
    const char* root            # the real state: only vt.determinize reads it
    const char* info
    int observer
    int algorithm
    vt_playout_fn playout       # vt.playout or vt.policy_playout
    vt_rewards_fn rewards       # vt.rewards, vt.rank_rewards or vt.place_rewards
    double c                    # exploration constant
    long budget                 # iterations to run (0: run until the deadline)
    long max_moves              # stop once this many moves were simulated (0: no cap)
    long moves                  # moves simulated so far: tree, hidden and playout moves
    double deadline             # CLOCK_MONOTONIC seconds (0: no deadline)
    Rng rng
    Node* nodes
    long n_nodes
    long cap
    char* work                  # the determinization being played
    uint16_t* legal
    uint64_t* child_of          # action -> the step's stamp << 32 | its child: see _iterate_ismcts
    uint32_t stamp              # the tree steps taken, mod 2**32 (0 is no step's)
    int32_t* path
    double* reward              # per seat, of the playout just finished
    long* flat_visits           # flat Monte Carlo's tallies per root action
    double* flat_reward
    long done
    double cpu_seconds          # CPU time the worker's thread spent searching
    long max_nodes              # the tree stops growing at this size
    int root_actor              # the seat deciding at the root (-1 until listed)
    int root_n                  # how many moves it has there
    uint16_t* root_legal        # those moves, listed once: see _root_step
    int32_t* root_child         # the child of each (-1 until tried)
    bint halving                # the root's moves by sequential halving, not UCB
    int alive                   # halving: how many moves are still in
    int cursor                  # halving: the next of them to try
    int rounds_left             # halving: rounds still to play after this one
    long round_ends             # halving: the iteration count at which this round ends
    int* arms                   # halving: indices into root_legal, the moves still in first


cdef inline double _now() noexcept nogil:
    cdef timespec ts
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return ts.tv_sec + ts.tv_nsec * 1e-9


cdef inline double _thread_cpu() noexcept nogil:
    cdef timespec ts
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
    return ts.tv_sec + ts.tv_nsec * 1e-9


cdef inline int _next_decision(Worker* w) noexcept nogil:
    """Plays the observer's unseen moves at random; the next seat to decide, or -1."""
    cdef const GameVTable* vt = w.vt
    cdef int actor, action
    while True:
        actor = vt.actor(w.work, w.observer)
        if actor < 0 or not vt.hidden(w.work, actor, w.observer):
            return actor
        action = vt.random_legal(w.work, actor, &w.rng)
        if action < 0:                  # a game that breaks its vtable's promise
            return -1
        vt.apply_action(w.work, actor, action)
        w.moves += 1


cdef int32_t _new_node(Worker* w, int32_t parent, int actor, int action) noexcept nogil:
    """A new child of parent, or -1 when the tree may not grow (its size cap, or memory)."""
    cdef Node* grown
    cdef Node* node
    if w.n_nodes >= w.max_nodes:
        return -1
    if w.n_nodes == w.cap:
        grown = <Node*>realloc(w.nodes, 2 * w.cap * sizeof(Node))
        if grown == NULL:
            return -1
        w.nodes = grown
        w.cap *= 2
    node = &w.nodes[w.n_nodes]
    node.first_child = -1
    node.next_sibling = w.nodes[parent].first_child
    node.visits = 0
    node.avail = 1
    node.reward = 0
    node.inv_sqrt_visits = 0
    node.action = action
    node.actor = actor
    w.nodes[parent].first_child = w.n_nodes
    w.n_nodes += 1
    return w.n_nodes - 1


cdef inline double _ucb(const Worker* w, Node* child) noexcept nogil:
    """A legal child's UCB score, counting this pass as one more time it was available."""
    child.avail += 1
    return (child.reward / child.visits
            + w.c * _sqrt_log(child.avail) * child.inv_sqrt_visits)


cdef inline int _ceil_log2(int n) noexcept nogil:
    cdef int rounds = 0
    while (1 << rounds) < n:
        rounds += 1
    return rounds if rounds > 0 else 1


cdef inline long _round_budget(const Worker* w) noexcept nogil:
    """A halving round's iterations: what is left shared among the rounds left, and at
    least one try of every move still in."""
    cdef long share = (w.budget - w.done) // (w.rounds_left + 1)
    return share if share > w.alive else w.alive


cdef inline double _mean(const Worker* w, int arm) noexcept nogil:
    cdef int32_t child = w.root_child[arm]
    if child < 0 or w.nodes[child].visits == 0:
        return -1.0                     # never tried: below every mean reward
    return w.nodes[child].reward / w.nodes[child].visits


cdef void _keep_better_half(Worker* w) noexcept nogil:
    """Orders the moves still in by mean reward (insertion sort: stable, a few hundred
    moves a few times a search) and keeps the better half, rounded up."""
    cdef int k, j, arm
    cdef double mean
    for k in range(1, w.alive):
        arm = w.arms[k]
        mean = _mean(w, arm)
        j = k - 1
        while j >= 0 and _mean(w, w.arms[j]) < mean:
            w.arms[j + 1] = w.arms[j]
            j -= 1
        w.arms[j + 1] = arm
    w.alive = (w.alive + 1) // 2


cdef int _halving_pick(Worker* w) noexcept nogil:
    """The root move this iteration tries: the moves still in, in turn; when a round's
    iterations are spent, the worse half is dropped and the next round begins."""
    cdef int arm
    if w.done >= w.round_ends and w.rounds_left > 0:
        _keep_better_half(w)
        w.rounds_left -= 1
        w.cursor = 0
        w.round_ends = w.done + _round_budget(w)
    arm = w.arms[w.cursor]
    w.cursor = w.cursor + 1 if w.cursor + 1 < w.alive else 0
    return arm


cdef int32_t _root_step(Worker* w, int actor, bint* expanded) noexcept nogil:
    """The root's step of an iteration, as the general one below takes it, without listing
    the moves again: the root's moves are the observer's own, the same in every
    determinization (its information set fixes them), so they are listed by the first
    iteration and kept, each beside its child.  With a selection of Cup the Crab's at
    the root (up to 286 moves) the listing and the walk over the children's list were
    about a quarter of a first decision's instructions.  The move is UCB's, as in the
    general step, or with w.halving the one _halving_pick gives.  Returns the child taken
    (applied to w.work; expanded: new) or -1, as the general step would."""
    cdef const GameVTable* vt = w.vt
    cdef Node* nodes = w.nodes
    cdef int32_t child, best = -1
    cdef int i, untried = 0
    cdef double score, best_score = -1e300
    if w.root_actor < 0:
        w.root_n = vt.legal_actions(w.work, actor, w.root_legal)
        if w.root_n == 0:               # a game that breaks its vtable's promise
            return -1
        w.root_actor = actor
        for i in range(w.root_n):
            w.root_child[i] = -1
            w.arms[i] = i
        w.alive, w.cursor = w.root_n, 0
        w.rounds_left = _ceil_log2(w.root_n) - 1
        w.round_ends = w.done + _round_budget(w)
    if w.halving:
        i = _halving_pick(w)
        child = w.root_child[i]
        expanded[0] = child < 0
        if child < 0:
            child = _new_node(w, 0, actor, w.root_legal[i])
            if child < 0:
                return -1
            w.root_child[i] = child
        vt.apply_action(w.work, actor, w.root_legal[i])
        w.moves += 1
        return child
    for i in range(w.root_n):
        child = w.root_child[i]
        if child < 0:
            w.legal[untried] = i        # an index into root_legal here
            untried += 1
        else:
            score = _ucb(w, &nodes[child])
            if score > best_score:
                best_score = score
                best = child
    expanded[0] = untried > 0
    if untried:
        i = w.legal[rng_below(&w.rng, untried)]
        child = _new_node(w, 0, actor, w.root_legal[i])
        if child >= 0:
            w.root_child[i] = child
            vt.apply_action(w.work, actor, w.root_legal[i])
            w.moves += 1
        return child
    vt.apply_action(w.work, actor, nodes[best].action)
    w.moves += 1
    return best


cdef inline void _next_stamp(Worker* w) noexcept nogil:
    w.stamp += 1
    if w.stamp == 0:                    # wrapped: no entry may read as this step's
        memset(w.child_of, 0, w.vt.n_actions * sizeof(uint64_t))
        w.stamp = 1


cdef void _iterate_ismcts(Worker* w) noexcept nogil:
    """One ISMCTS-SO iteration (once the tree is full, the playout starts at its leaf)."""
    cdef const GameVTable* vt = w.vt
    cdef Node* nodes
    cdef int32_t node = 0, child, best
    cdef int depth = 0, actor, n, i, untried, action
    cdef uint64_t stamp, entry
    cdef double score, best_score
    cdef bint expanded
    vt.determinize(w.root, w.observer, w.info, &w.rng, w.work)
    w.path[0] = 0
    while True:
        actor = _next_decision(w)
        if actor < 0:
            break
        if depth == 0 and (actor == w.root_actor or w.root_actor < 0):
            child = _root_step(w, actor, &expanded)
            if child < 0:
                break
            node = child
            depth = 1
            w.path[1] = node
            if expanded:
                break
            continue
        n = vt.legal_actions(w.work, actor, w.legal)
        if n == 0:                      # a game that breaks its vtable's promise
            break
        # The node's children by action, stamped with this step: an entry of an earlier
        # step reads as no child, so nothing is reset after (the children sit scattered
        # through the tree, and a second walk over them was a tenth of a deep tree's time).
        _next_stamp(w)
        stamp = <uint64_t>w.stamp << 32
        nodes = w.nodes
        child = nodes[node].first_child
        while child >= 0:
            if nodes[child].actor == actor:
                w.child_of[nodes[child].action] = stamp | <uint32_t>child
            child = nodes[child].next_sibling
        untried = 0
        best = -1
        best_score = -1e300
        for i in range(n):
            action = w.legal[i]
            entry = w.child_of[action]
            child = <int32_t>(entry & 0xFFFFFFFFu) if entry >> 32 == w.stamp else -1
            if child < 0:
                w.legal[untried] = action    # untried <= i: compacting in place is safe
                untried += 1
            else:
                score = _ucb(w, &nodes[child])
                if score > best_score:
                    best_score = score
                    best = child
        if untried:
            action = w.legal[rng_below(&w.rng, untried)]
            child = _new_node(w, node, actor, action)
            if child >= 0:
                vt.apply_action(w.work, actor, action)
                w.moves += 1
                depth += 1
                w.path[depth] = child
            break
        vt.apply_action(w.work, actor, nodes[best].action)
        w.moves += 1
        node = best
        depth += 1
        w.path[depth] = node
    w.moves += w.playout(w.work, &w.rng)
    w.rewards(w.work, w.reward)
    nodes = w.nodes
    nodes[0].visits += 1
    for i in range(1, depth + 1):
        node = w.path[i]
        nodes[node].visits += 1
        nodes[node].inv_sqrt_visits = 1.0 / sqrt(<double>nodes[node].visits)
        nodes[node].reward += w.reward[nodes[node].actor]


cdef void _iterate_flat(Worker* w) noexcept nogil:
    """One flat Monte Carlo iteration: the least tried root move, then a random playout."""
    cdef const GameVTable* vt = w.vt
    cdef int actor, n, i, action, pick
    vt.determinize(w.root, w.observer, w.info, &w.rng, w.work)
    actor = _next_decision(w)
    if actor < 0:
        return
    n = vt.legal_actions(w.work, actor, w.legal)
    if n == 0:
        return
    pick = w.legal[0]
    for i in range(1, n):
        action = w.legal[i]
        if w.flat_visits[action] < w.flat_visits[pick]:
            pick = action
    vt.apply_action(w.work, actor, pick)
    w.moves += 1 + w.playout(w.work, &w.rng)
    w.rewards(w.work, w.reward)
    w.flat_visits[pick] += 1
    w.flat_reward[pick] += w.reward[actor]


cdef void _run(Worker* shared) noexcept nogil:
    """Runs one worker's budget on a private copy (no false sharing between threads)."""
    cdef Worker local = shared[0]
    cdef double cpu = _thread_cpu()
    _run_local(&local)
    local.cpu_seconds = _thread_cpu() - cpu
    shared[0] = local


cdef void* _thread_main(void* worker) noexcept nogil:
    _run(<Worker*>worker)
    return NULL


cdef void _run_all(Worker* workers, int threads) noexcept nogil:
    """Runs worker 0 on this thread and each other one on a thread of its own.

    Plain POSIX threads, created and joined per search: nothing survives the search, so
    a process may fork between searches (a thread pool such as OpenMP's may not).
    """
    cdef pthread_t* ids = <pthread_t*>malloc(threads * sizeof(pthread_t))
    cdef char* started = <char*>calloc(threads, 1)
    cdef int t
    if ids == NULL or started == NULL:
        for t in range(threads):
            _run(&workers[t])
    else:
        for t in range(1, threads):
            started[t] = pthread_create(&ids[t], NULL, _thread_main, &workers[t]) == 0
        _run(&workers[0])
        for t in range(1, threads):
            if started[t]:
                pthread_join(ids[t], NULL)
            else:                       # no thread to be had: run it here
                _run(&workers[t])
    free(ids)
    free(started)


cdef void _run_local(Worker* w) noexcept nogil:
    while True:
        if w.budget and w.done >= w.budget:
            return
        if w.max_moves and w.moves >= w.max_moves:
            return
        if (w.deadline > 0 and w.done and w.done % TIME_CHECK_EVERY == 0
                and _now() >= w.deadline):
            return
        if w.algorithm == ALG_ISMCTS:
            _iterate_ismcts(w)
        else:
            _iterate_flat(w)
        w.done += 1


cdef int _alloc(Worker* w, const GameVTable* vt, long nodes) noexcept:
    w.cap = nodes if nodes > 16 else 16
    w.nodes = <Node*>malloc(w.cap * sizeof(Node))
    w.work = <char*>malloc(vt.state_size)
    w.legal = <uint16_t*>malloc((vt.max_legal + 1) * sizeof(uint16_t))
    w.child_of = <uint64_t*>calloc(vt.n_actions, sizeof(uint64_t))
    w.stamp = 0
    w.path = <int32_t*>malloc((vt.max_depth + 2) * sizeof(int32_t))
    w.reward = <double*>calloc(VT_MAX_PLAYERS, sizeof(double))
    w.flat_visits = <long*>calloc(vt.n_actions, sizeof(long))
    w.flat_reward = <double*>calloc(vt.n_actions, sizeof(double))
    w.root_legal = <uint16_t*>malloc((vt.max_legal + 1) * sizeof(uint16_t))
    w.root_child = <int32_t*>malloc((vt.max_legal + 1) * sizeof(int32_t))
    w.arms = <int*>malloc((vt.max_legal + 1) * sizeof(int))
    w.root_actor = -1
    if (w.root_legal == NULL or w.root_child == NULL or w.arms == NULL or w.nodes == NULL
            or w.work == NULL or w.legal == NULL or w.child_of == NULL
            or w.path == NULL or w.reward == NULL or w.flat_visits == NULL
            or w.flat_reward == NULL):
        return -1
    w.nodes[0].first_child = -1
    w.nodes[0].next_sibling = -1
    w.nodes[0].visits = 0
    w.nodes[0].avail = 0
    w.nodes[0].reward = 0
    w.nodes[0].inv_sqrt_visits = 0
    w.nodes[0].action = -1
    w.nodes[0].actor = -1
    w.n_nodes = 1
    return 0


cdef void _release(Worker* w) noexcept:
    free(w.nodes); free(w.work); free(w.legal); free(w.child_of); free(w.path)
    free(w.reward); free(w.flat_visits); free(w.flat_reward); free(w.root_legal)
    free(w.root_child); free(w.arms)


cdef void _check_position(const GameVTable* vt, bytes state, object info, bytes info_bytes,
                          object playout) except *:
    """What a search and an evaluation both take: a state and info of this game, and a
    playout the vtable offers."""
    if playout not in PLAYOUTS:
        raise ValueError(f"playout must be one of {PLAYOUTS}, got {playout!r}")
    if len(state) != vt.state_size:
        raise ValueError(f"a {vt.name.decode()} state is {vt.state_size} bytes, got {len(state)}")
    if info is not None and len(info_bytes) != vt.info_size:
        raise ValueError(f"{vt.name.decode()} info is {vt.info_size} bytes, got {len(info_bytes)}")


cdef vt_rewards_fn _rewards_of(const GameVTable* vt, str reward) noexcept:
    """The vtable's rewards of a name of REWARDS (checked by the caller)."""
    if reward == "rank":
        return vt.rank_rewards
    if reward == "place":
        return vt.place_rewards
    return vt.rewards


def search(object vtable, bytes state, int observer, info=None, *, long iterations=0,
           double time_ms=0, str algorithm="ismcts", double exploration=0.7,
           unsigned long long seed=0, int threads=1, str playout="random",
           str reward="win", long max_moves=0, str root="ucb") -> dict:
    """Searches the observer's move in `state` (the game's C state as bytes).

    Exactly one of iterations (in all, shared out among the threads) and time_ms (for
    every thread) is positive.  playout and reward pick the variant (PLAYOUTS, REWARDS);
    the defaults are the search as it was first written.  max_moves > 0 (shared out among
    the threads as iterations are) also stops the search once it has simulated that many
    moves (tree, hidden and playout moves): a measure of its work that, unlike a clock,
    keeps the search repeatable, and bounds the cost of a decision whose playouts are
    long (a game's first) where an iteration count alone does not.  Returns the root statistics
    summed over the threads: {"best", "actions", "visits", "rewards", "simulations",
    "moves", "seconds", "cpu_seconds", "nodes", "threads"}, where rewards are sums of the
    observer's rewards and "best" is the most visited move (ISMCTS) or the best mean
    (flat); with root="halving" (ROOTS; ISMCTS with an iteration budget), the best mean of
    the moves left in the last round.  The caller checks that the observer may act.
    """
    cdef const GameVTable* vt = <const GameVTable*>PyCapsule_GetPointer(vtable, VTABLE_CAPSULE)
    cdef Worker* workers
    cdef Worker* w
    cdef Rng master
    cdef int t, alg, a, child
    cdef long total = 0, nodes = 0, moves = 0
    cdef double started, elapsed, cpu = 0
    cdef bytes info_bytes = b"" if info is None else bytes(info)
    if algorithm not in ALGORITHMS:
        raise ValueError(f"algorithm must be one of {ALGORITHMS}, got {algorithm!r}")
    alg = ALG_ISMCTS if algorithm == "ismcts" else ALG_FLAT
    _check_position(vt, state, info, info_bytes, playout)
    if reward not in REWARDS:
        raise ValueError(f"reward must be one of {REWARDS}, got {reward!r}")
    if root not in ROOTS:
        raise ValueError(f"root must be one of {ROOTS}, got {root!r}")
    if root == "halving" and (alg != ALG_ISMCTS or iterations <= 0):
        raise ValueError("root='halving' is for ismcts with an iteration budget")
    if (iterations > 0) == (time_ms > 0) or iterations < 0 or time_ms < 0:
        raise ValueError("give exactly one of iterations and time_ms, positive")
    if threads < 1:
        raise ValueError(f"threads must be at least 1, got {threads}")
    if max_moves < 0:
        raise ValueError(f"max_moves must be 0 (no cap) or positive, got {max_moves}")
    if iterations and threads > iterations:
        threads = iterations            # no thread without an iteration to run
    workers = <Worker*>calloc(threads, sizeof(Worker))
    if workers == NULL:
        raise MemoryError()
    rng_seed(&master, seed)
    try:
        for t in range(threads):
            w = &workers[t]
            w.vt = vt
            w.root = state
            w.info = NULL if info is None else <const char*>info_bytes
            w.observer = observer
            w.algorithm = alg
            w.playout = vt.policy_playout if playout == "policy" else vt.playout
            w.rewards = _rewards_of(vt, reward)
            w.c = exploration
            w.budget = iterations // threads + (t < iterations % threads) if iterations else 0
            w.max_moves = max(1, max_moves // threads) if max_moves else 0
            w.halving = root == "halving"
            rng_seed(&w.rng, rng_next(&master))
            w.max_nodes = NODE_BUDGET // threads
            if _alloc(w, vt, min(w.budget + 2, w.max_nodes) if iterations and alg == ALG_ISMCTS
                      else 1 << 16) < 0:
                raise MemoryError("no memory for the search tree")
        with nogil:
            started = _now()
            if time_ms > 0:
                for t in range(threads):
                    workers[t].deadline = started + time_ms / 1000.0
            _run_all(workers, threads)
            elapsed = _now() - started
        visits = [0] * vt.n_actions
        rewards = [0.0] * vt.n_actions
        finalists = set()
        total = 0
        for t in range(threads):
            w = &workers[t]
            total += w.done
            moves += w.moves
            nodes += w.n_nodes
            cpu += w.cpu_seconds
            if alg == ALG_FLAT:
                for a in range(vt.n_actions):
                    visits[a] += w.flat_visits[a]
                    rewards[a] += w.flat_reward[a]
            else:
                if w.halving and w.root_actor >= 0:
                    finalists.update(w.root_legal[w.arms[a]] for a in range(w.alive))
                child = w.nodes[0].first_child
                while child >= 0:
                    visits[w.nodes[child].action] += w.nodes[child].visits
                    rewards[w.nodes[child].action] += w.nodes[child].reward
                    child = w.nodes[child].next_sibling
    finally:
        for t in range(threads):
            _release(&workers[t])
        free(workers)
    actions = [a for a in range(vt.n_actions) if visits[a]]
    if not actions:
        raise ValueError("the observer has no move to search in this state")
    if alg == ALG_FLAT:
        best = max(actions, key=lambda a: (rewards[a] / visits[a], visits[a], -a))
    elif finalists.intersection(actions):
        best = max(finalists.intersection(actions),
                   key=lambda a: (rewards[a] / visits[a], visits[a], -a))
    else:                               # UCB, or halving's last moves never tried (a full tree)
        best = max(actions, key=lambda a: (visits[a], rewards[a] / visits[a], -a))
    return {
        "best": best, "actions": actions,
        "visits": [visits[a] for a in actions], "rewards": [rewards[a] for a in actions],
        "simulations": total, "moves": moves, "seconds": elapsed, "cpu_seconds": cpu, "nodes": nodes,
        "threads": threads,
    }


def evaluate(object vtable, bytes state, int observer, info=None, *, long iterations,
             str playout="policy", unsigned long long seed=0) -> list:
    """Each seat's mean victory share over `iterations` playouts of determinizations of
    `state` for the observer: its chance of winning as the observer can judge it.

    Only the determinizer reads the state, so positions the observer cannot tell apart
    get the same figures for the same seed.  Runs in C with the GIL released.
    """
    cdef const GameVTable* vt = <const GameVTable*>PyCapsule_GetPointer(vtable, VTABLE_CAPSULE)
    cdef vt_playout_fn play
    cdef bytes info_bytes = b"" if info is None else bytes(info)
    cdef const char* root = state
    cdef const char* known = NULL if info is None else <const char*>info_bytes
    cdef char* work
    cdef double total[VT_MAX_PLAYERS]
    cdef double reward[VT_MAX_PLAYERS]
    cdef Rng rng
    cdef long i
    cdef int seat, players
    _check_position(vt, state, info, info_bytes, playout)
    if iterations < 1:
        raise ValueError(f"iterations must be at least 1, got {iterations}")
    play = vt.policy_playout if playout == "policy" else vt.playout
    players = vt.players(root)
    work = <char*>malloc(vt.state_size)
    if work == NULL:
        raise MemoryError()
    rng_seed(&rng, seed)
    for seat in range(VT_MAX_PLAYERS):
        total[seat] = 0
    with nogil:
        for i in range(iterations):
            vt.determinize(root, observer, known, &rng, work)
            play(work, &rng)
            vt.rewards(work, reward)
            for seat in range(players):
                total[seat] += reward[seat]
    free(work)
    return [total[seat] / iterations for seat in range(players)]


def margins(object vtable, bytes state, *, long iterations, str playout="policy",
            unsigned long long seed=0) -> list:
    """Each ordered pair of seats' mean margin over `iterations` playouts of `state` itself,
    every card as it lies (no determinization: for judging a finished game's replay, never
    for a seat's decision): out[a][b] is the mean of +1 where a ends above b by the game's
    order of the table (vtable.rank_rewards), 0 level, -1 below.  Runs in C with the GIL
    released."""
    cdef const GameVTable* vt = <const GameVTable*>PyCapsule_GetPointer(vtable, VTABLE_CAPSULE)
    cdef vt_playout_fn play
    cdef const char* root = state
    cdef char* work
    cdef double total[VT_MAX_PLAYERS][VT_MAX_PLAYERS]
    cdef double reward[VT_MAX_PLAYERS]
    cdef Rng rng
    cdef long i
    cdef int a, b, players
    _check_position(vt, state, None, b"", playout)
    if iterations < 1:
        raise ValueError(f"iterations must be at least 1, got {iterations}")
    play = vt.policy_playout if playout == "policy" else vt.playout
    players = vt.players(root)
    work = <char*>malloc(vt.state_size)
    if work == NULL:
        raise MemoryError()
    rng_seed(&rng, seed)
    for a in range(VT_MAX_PLAYERS):
        for b in range(VT_MAX_PLAYERS):
            total[a][b] = 0
    with nogil:
        for i in range(iterations):
            memcpy(work, root, vt.state_size)
            play(work, &rng)
            vt.rank_rewards(work, reward)
            for a in range(players):
                for b in range(players):
                    total[a][b] += (reward[a] > reward[b]) - (reward[a] < reward[b])
    free(work)
    return [[total[a][b] / iterations for b in range(players)] for a in range(players)]
