/* team.h - run one piece of work in n threads at once.
 *
 * Header-only on purpose: the library's .c files are linked into every
 * probe, and only the threaded probes (cores, bandwidth, sched) are linked
 * with the thread library, which configure finds for them.
 *
 * The threads are created first and released together, so that thread
 * creation (tens of microseconds each) stays out of the measurement; each
 * thread times its own work.  A thread may be pinned to one CPU, so that
 * two threads of an experiment never share a CPU by the scheduler's choice.
 */
#ifndef HWPROBE_TEAM_H
#define HWPROBE_TEAM_H

#ifdef HWPROBE_NO_THREADS
#error "configure found no way to build with POSIX threads"
#endif
#include <pthread.h>

#include "cpus.h"
#include "hwprobe.h"
#include "memory.h"

/* A member's work returns what it computed, for the team to keep alive:
 * the threads of a team run at once, and writing hwp_sink from each would
 * be a data race. */
typedef uint64_t (*hwteam_work)(void *arg, int rank);

struct hwteam_member {
    struct hwteam_team *team;
    int rank;
    double start, end; /* seconds, on hwp_now()'s clock */
    uint64_t result;   /* the work's, read after the join */
};

/* ready and go change under the lock, which orders them and what the
 * threads read after them; no atomics are needed there. */
struct hwteam_team {
    pthread_mutex_t lock;
    pthread_cond_t cond;
    int ready, go;
    const int *cpus; /* CPU of each rank, or NULL: let the OS place them */
    hwteam_work work;
    void *arg;
    struct hwteam_member member[HWCPU_MAX_CPUS];
};

static inline void *hwteam_member_main(void *p)
{
    struct hwteam_member *me = p;
    struct hwteam_team *t = me->team;
    if (t->cpus != NULL)
        (void)hwcpu_pin(t->cpus[me->rank]);
    pthread_mutex_lock(&t->lock);
    t->ready++;
    pthread_cond_broadcast(&t->cond);
    while (!t->go)
        pthread_cond_wait(&t->cond, &t->lock);
    pthread_mutex_unlock(&t->lock);
    me->start = hwp_now();
    me->result = t->work(t->arg, me->rank);
    me->end = hwp_now();
    return NULL;
}

/* Run work(arg, rank) for rank 0..n-1 at once.  Returns 0, or -1 when the
 * threads could not be created; the times are left in t->member[]. */
static inline int hwteam_run(struct hwteam_team *t, int n, const int *cpus,
                        hwteam_work work, void *arg)
{
    pthread_t tid[HWCPU_MAX_CPUS];
    int i, made = 0;
    if (n < 1 || n > HWCPU_MAX_CPUS)
        return -1;
    pthread_mutex_init(&t->lock, NULL);
    pthread_cond_init(&t->cond, NULL);
    t->ready = t->go = 0;
    t->cpus = cpus;
    t->work = work;
    t->arg = arg;
    for (i = 0; i < n; i++) {
        t->member[i].team = t;
        t->member[i].rank = i;
        if (pthread_create(&tid[i], NULL, hwteam_member_main, &t->member[i])
            != 0)
            break;
        made++;
    }
    pthread_mutex_lock(&t->lock);
    while (t->ready < made)
        pthread_cond_wait(&t->cond, &t->lock);
    t->go = 1;
    pthread_cond_broadcast(&t->cond);
    pthread_mutex_unlock(&t->lock);
    for (i = 0; i < made; i++) {
        pthread_join(tid[i], NULL);
        hwp_sink += t->member[i].result;
    }
    pthread_cond_destroy(&t->cond);
    pthread_mutex_destroy(&t->lock);
    return made == n ? 0 : -1;
}

/* The longest time any member worked: the time of the slowest share. */
static inline double hwteam_slowest(const struct hwteam_team *t, int n)
{
    double worst = 0.0;
    int i;
    for (i = 0; i < n; i++)
        if (t->member[i].end - t->member[i].start > worst)
            worst = t->member[i].end - t->member[i].start;
    return worst;
}

/* From the first start to the last end: the wall time of the whole team. */
static inline double hwteam_span(const struct hwteam_team *t, int n)
{
    double first = t->member[0].start, last = t->member[0].end;
    int i;
    for (i = 1; i < n; i++) {
        if (t->member[i].start < first)
            first = t->member[i].start;
        if (t->member[i].end > last)
            last = t->member[i].end;
    }
    return last - first;
}

/* Memory first touched by a thread on CPU cpu, so that on a NUMA machine
 * its pages live in that CPU's node (first touch, as BlackjackBench
 * places them): hwmem_alloc(bytes, align, hugepage) run there. */
struct hwteam_placement {
    char *base;
    size_t bytes, align;
    int hugepage;
};

static inline uint64_t hwteam_place_work(void *arg, int rank)
{
    struct hwteam_placement *p = arg;
    (void)rank;
    p->base = hwmem_alloc(p->bytes, p->align, p->hugepage);
    return 0;
}

static inline char *hwteam_alloc_on(int cpu, size_t bytes, size_t align,
                                 int hugepage)
{
    static struct hwteam_team team;
    struct hwteam_placement p;
    double t0 = hwp_now();
    p.base = NULL;
    p.bytes = bytes;
    p.align = align;
    p.hugepage = hugepage;
    if (hwteam_run(&team, 1, &cpu, hwteam_place_work, &p) != 0
        || p.base == NULL)
        hwp_skip("cannot create threads");
    hwp_log("%zu MiB placed by CPU %d in %.3f s", bytes >> 20, cpu,
            hwp_now() - t0);
    return p.base;
}

/* Two threads taking turns on shared data, a producer and a consumer:
 * `turn` says whose turn it is.  Passing the turn publishes what the
 * passer wrote (a release store), and the new holder reads it after an
 * acquire load of turn: so the data is seen whole on weakly ordered
 * memory (ARM) too.  turn is atomic because hwteam_turn_spin reads it
 * without the lock; the __atomic builtins of GCC and Clang work on a plain
 * int in C99, where <stdatomic.h> and _Atomic are C11. */
struct hwteam_turns {
    pthread_mutex_t lock;
    pthread_cond_t cond;
    int turn;
};

static inline void hwteam_turns_init(struct hwteam_turns *t, int first)
{
    pthread_mutex_init(&t->lock, NULL);
    pthread_cond_init(&t->cond, NULL);
    __atomic_store_n(&t->turn, first, __ATOMIC_RELAXED);
}

static inline void hwteam_turns_destroy(struct hwteam_turns *t)
{
    pthread_cond_destroy(&t->cond);
    pthread_mutex_destroy(&t->lock);
}

/* Sleep until it is me's turn: a sleeping thread takes nothing from the
 * other (a spinning SMT sibling would take half the core). */
static inline void hwteam_turn_wait(struct hwteam_turns *t, int me)
{
    pthread_mutex_lock(&t->lock);
    while (__atomic_load_n(&t->turn, __ATOMIC_ACQUIRE) != me)
        pthread_cond_wait(&t->cond, &t->lock);
    pthread_mutex_unlock(&t->lock);
}

/* Spin until it is me's turn: to start at once (waking a sleeper costs
 * tens of microseconds), on a CPU not put to sleep in the meantime.
 * Without the lock, so that the spinner does not hold up the pass. */
static inline void hwteam_turn_spin(struct hwteam_turns *t, int me)
{
    while (__atomic_load_n(&t->turn, __ATOMIC_ACQUIRE) != me)
        ;
}

/* Under the lock, so that a sleeper between its test and its wait
 * cannot miss the broadcast. */
static inline void hwteam_turn_pass(struct hwteam_turns *t, int to)
{
    pthread_mutex_lock(&t->lock);
    __atomic_store_n(&t->turn, to, __ATOMIC_RELEASE);
    pthread_cond_broadcast(&t->cond);
    pthread_mutex_unlock(&t->lock);
}


/* A producer and a consumer in turns (the locality probe): rank 0 calls
 * produce(arg, k) for pass k, then rank 1 times consume(arg), one pass,
 * until reps passes are timed.  A pass whose consumer started more than
 * max_gap seconds after the producer finished is not timed: its CPU was
 * busy elsewhere while the data waited, and a neighbour may have pushed
 * the data out meanwhile.  After max_late of them per pass asked for,
 * late passes are timed too.  With one CPU, it does both (produce NULL:
 * only consumes).  The two never run at once, so either may write
 * hwp_sink: the turns order the writes. */
struct hwteam_relay {
    void (*produce)(void *arg, long k);
    double (*consume)(void *arg); /* seconds */
    void *arg;
    long reps, max_late;
    double max_gap;
    long counted, late; /* passes timed, and late */
    double seconds;     /* the consumer's, summed over the timed passes */
    double produced;    /* when the producer finished writing */
    struct hwteam_turns turns;
};

static inline uint64_t hwteam_relay_pair(void *arg, int rank)
{
    struct hwteam_relay *r = arg;
    for (;;) {
        if (rank == 0) {
            /* Asleep while the consumer reads, spinning while the
             * producer writes. */
            hwteam_turn_wait(&r->turns, 0);
            if (r->counted >= r->reps)
                return 0;
            r->produce(r->arg, r->counted);
            r->produced = hwp_now();
        } else {
            if (r->counted >= r->reps)
                return 0;
            hwteam_turn_spin(&r->turns, 1);
            if (hwp_now() - r->produced <= r->max_gap
                || ++r->late > r->max_late * r->reps) {
                r->seconds += r->consume(r->arg);
                r->counted++;
            }
        }
        hwteam_turn_pass(&r->turns, !rank);
    }
}

static inline uint64_t hwteam_relay_alone(void *arg, int rank)
{
    struct hwteam_relay *r = arg;
    (void)rank;
    for (; r->counted < r->reps; r->counted++) {
        if (r->produce != NULL)
            r->produce(r->arg, r->counted);
        r->seconds += r->consume(r->arg);
    }
    return 0;
}

/* Run the relay on cpus[0] (producer) and cpus[1] (consumer), or on
 * cpus[0] alone when n is 1; the consumer's seconds, -1 when the threads
 * could not be created. */
static inline double hwteam_relay_run(struct hwteam_team *t, int n,
                                   const int *cpus, struct hwteam_relay *r)
{
    int status;
    r->counted = r->late = 0;
    r->seconds = r->produced = 0.0;
    hwteam_turns_init(&r->turns, 0);
    status = hwteam_run(t, n, cpus,
                        n == 2 ? hwteam_relay_pair : hwteam_relay_alone, r);
    hwteam_turns_destroy(&r->turns);
    return status == 0 ? r->seconds : -1.0;
}

#endif
