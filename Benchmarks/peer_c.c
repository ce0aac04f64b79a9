/*
 * Habitat's plain-C reference for the two `habitat bench kernel` workloads.
 *
 * Purpose: the speed of the simplest fast design -- ONE global binary heap of
 * events ordered by (time, insertion number), a switch per event kind, and
 * cancellation done lazily: a cancelled timer is left in the heap and skipped
 * when it surfaces, because its generation number no longer matches its
 * owner's.  Benchmarks/README.md defines the workloads.
 *
 * Random numbers: MT19937 seeded and read exactly as CPython's random.Random
 * (seed(int) -> init_by_array over the 32-bit words of the seed; random() is
 * a 53-bit double built from two outputs; expovariate(rate) is
 * -log(1 - random()) / rate).  Benchmarks/peer_simpy.py draws the same numbers
 * in the same order, so for one seed both print the same trajectory, which
 * Benchmarks/check_trajectories.py verifies.  Build without floating-point
 * contraction or fast-math so the arithmetic matches Python's bit for bit:
 *
 *     cc -O2 -ffp-contract=off -o peer_c peer_c.c -lm
 *
 * Usage:
 *     peer_c mm1 [customers=1000000] [seed=42]
 *     peer_c agents [agents=100000] [days=30] [seed=42]
 *     peer_c draws [seed=42] [count=8]     (raw stream, for the check)
 *
 * Output: one line of key=value pairs, starting with
 * workload=... impl=c events=... seconds=... events_per_s=...
 * Floating-point statistics are printed with 17 significant digits, so they
 * read back as the exact doubles.
 *
 * Copyright the Habitat authors.  GPL-3.0-or-later (see COPYING).
 */
#define _POSIX_C_SOURCE 199309L
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static void die(const char *what) {
    fprintf(stderr, "peer_c: %s\n", what);
    exit(1);
}

static void *grow(void *p, size_t items, size_t size) {
    if (items && size > SIZE_MAX / items) die("allocation too large");
    void *q = realloc(p, items * size);
    if (!q) die("out of memory");
    return q;
}

/* ------------------------------------------------------------------------ */
/* Mersenne Twister MT19937 (Matsumoto & Nishimura), CPython-compatible.     */
/* ------------------------------------------------------------------------ */

enum { MT_WORDS = 624, MT_SHIFT = 397 };

typedef struct {
    uint32_t state[MT_WORDS];
    int next; /* index of the next state word to temper; MT_WORDS = regenerate */
} Twister;

static void twister_fill(Twister *tw, uint32_t s) {
    tw->state[0] = s;
    for (uint32_t k = 1; k < MT_WORDS; k++) {
        uint32_t prev = tw->state[k - 1];
        tw->state[k] = 1812433253u * (prev ^ (prev >> 30)) + k;
    }
    tw->next = MT_WORDS;
}

/* The reference init_by_array, which CPython's random.seed(int) calls with
 * the absolute value of the seed split into little-endian 32-bit words. */
static void twister_seed_words(Twister *tw, const uint32_t *words, uint32_t count) {
    uint32_t *s = tw->state;
    twister_fill(tw, 19650218u);
    uint32_t i = 1, j = 0;
    for (uint32_t left = count > MT_WORDS ? count : MT_WORDS; left > 0; left--) {
        s[i] = (s[i] ^ ((s[i - 1] ^ (s[i - 1] >> 30)) * 1664525u)) + words[j] + j;
        if (++i >= MT_WORDS) { s[0] = s[MT_WORDS - 1]; i = 1; }
        if (++j >= count) j = 0;
    }
    for (uint32_t left = MT_WORDS - 1; left > 0; left--) {
        s[i] = (s[i] ^ ((s[i - 1] ^ (s[i - 1] >> 30)) * 1566083941u)) - i;
        if (++i >= MT_WORDS) { s[0] = s[MT_WORDS - 1]; i = 1; }
    }
    s[0] = 0x80000000u;
}

/* random.Random(seed) for a non-negative integer seed below 2**64. */
static void twister_seed(Twister *tw, uint64_t seed) {
    uint32_t words[2] = {(uint32_t)(seed & 0xffffffffu), (uint32_t)(seed >> 32)};
    twister_seed_words(tw, words, words[1] ? 2 : 1);
}

static void twister_regenerate(Twister *tw) {
    uint32_t *s = tw->state;
    for (int k = 0; k < MT_WORDS; k++) {
        uint32_t mixed = (s[k] & 0x80000000u) | (s[(k + 1) % MT_WORDS] & 0x7fffffffu);
        uint32_t v = s[(k + MT_SHIFT) % MT_WORDS] ^ (mixed >> 1);
        if (mixed & 1u) v ^= 0x9908b0dfu;
        s[k] = v;
    }
    tw->next = 0;
}

static inline uint32_t twister_u32(Twister *tw) {
    if (tw->next >= MT_WORDS) twister_regenerate(tw);
    uint32_t y = tw->state[tw->next++];
    y ^= y >> 11;
    y ^= (y << 7) & 0x9d2c5680u;
    y ^= (y << 15) & 0xefc60000u;
    y ^= y >> 18;
    return y;
}

/* random.random(): 27 high bits then 26 high bits, as one 53-bit fraction. */
static inline double uniform01(Twister *tw) {
    double hi = (double)(twister_u32(tw) >> 5);
    double lo = (double)(twister_u32(tw) >> 6);
    return (hi * 67108864.0 + lo) / 9007199254740992.0;
}

/* random.expovariate(rate). */
static inline double exponential(Twister *tw, double rate) {
    return -log(1.0 - uniform01(tw)) / rate;
}

/* ------------------------------------------------------------------------ */
/* The event heap: 1-based implicit binary min-heap on (at, order).          */
/* ------------------------------------------------------------------------ */

enum Kind { ARRIVAL, DEPARTURE, URGE, EARN, MIDNIGHT };

typedef struct {       /* 24 bytes */
    double at;         /* model time of the event */
    uint64_t order;    /* insertion number: equal times pop first-in first-out */
    uint32_t who_what; /* agent index (0 in mm1) << 3 | enum Kind */
    uint32_t gen;      /* generation of a cancellable timer when it was scheduled */
} Event;

#define KIND_BITS 3
#define OWNER(e) ((e).who_what >> KIND_BITS)
#define KIND(e) ((enum Kind)((e).who_what & ((1u << KIND_BITS) - 1)))
#define MAX_AGENTS (UINT32_MAX >> KIND_BITS)

typedef struct {
    Event *slot;     /* slot[1..size]; slot[0] unused */
    size_t size, room, peak;
    uint64_t issued; /* pushes so far, also the next order number */
    uint64_t taken;  /* pops so far */
} Agenda;

static void agenda_init(Agenda *q, size_t room) {
    memset(q, 0, sizeof *q);
    q->room = room < 16 ? 16 : room;
    q->slot = grow(NULL, q->room + 1, sizeof(Event));
}

static inline int earlier(const Event *a, const Event *b) {
    if (a->at != b->at) return a->at < b->at;
    return a->order < b->order;
}

static inline void agenda_push(Agenda *q, double at, enum Kind kind, uint32_t owner, uint32_t gen) {
    if (q->size == q->room) {
        q->room *= 2;
        q->slot = grow(q->slot, q->room + 1, sizeof(Event));
    }
    Event e = {.at = at, .order = q->issued++, .who_what = owner << KIND_BITS | (uint32_t)kind, .gen = gen};
    size_t hole = ++q->size;
    while (hole > 1 && earlier(&e, &q->slot[hole / 2])) {
        q->slot[hole] = q->slot[hole / 2];
        hole /= 2;
    }
    q->slot[hole] = e;
    if (q->size > q->peak) q->peak = q->size;
}

/* Removes the earliest event into *out; returns 0 when the agenda is empty. */
static inline int agenda_pop(Agenda *q, Event *out) {
    if (q->size == 0) return 0;
    *out = q->slot[1];
    q->taken++;
    Event tail = q->slot[q->size--];
    size_t hole = 1, n = q->size;
    for (;;) {
        size_t child = 2 * hole;
        if (child > n) break;
        if (child < n && earlier(&q->slot[child + 1], &q->slot[child])) child++;
        if (!earlier(&q->slot[child], &tail)) break;
        q->slot[hole] = q->slot[child];
        hole = child;
    }
    if (n) q->slot[hole] = tail;
    return 1;
}

static double wall_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* ------------------------------------------------------------------------ */
/* Workload mm1: one server, Poisson arrivals (rate 0.9), exponential        */
/* service (rate 1.0), first come first served, until N customers depart.    */
/* Interarrival gaps come from random.Random(2*seed), service times from     */
/* random.Random(2*seed + 1).                                                */
/* ------------------------------------------------------------------------ */

typedef struct { /* waiting line: arrival times, first in first out */
    double *at;
    size_t head, count, room, peak; /* room is a power of two */
} Line;

static void line_join(Line *l, double arrived) {
    if (l->count == l->room) {
        size_t room = l->room ? 2 * l->room : 1024;
        double *bigger = grow(NULL, room, sizeof(double));
        for (size_t k = 0; k < l->count; k++) bigger[k] = l->at[(l->head + k) & (l->room - 1)];
        free(l->at);
        l->at = bigger; l->head = 0; l->room = room;
    }
    l->at[(l->head + l->count) & (l->room - 1)] = arrived;
    if (++l->count > l->peak) l->peak = l->count;
}

static double line_leave(Line *l) {
    double arrived = l->at[l->head];
    l->head = (l->head + 1) & (l->room - 1);
    l->count--;
    return arrived;
}

static int mm1(long customers, uint64_t seed) {
    const double lambda = 0.9, mu = 1.0;
    const double wq_theory = (lambda / mu) / (mu - lambda), w_theory = 1.0 / (mu - lambda);
    double started = wall_seconds();

    Twister gaps, work;
    twister_seed(&gaps, 2 * seed);
    twister_seed(&work, 2 * seed + 1);
    Agenda q;
    agenda_init(&q, 64);
    Line line = {0};

    int serving = 0;
    double served_arrived = 0.0, served_started = 0.0; /* the customer at the server */
    long arrived = 0, departed = 0;
    double total_wq = 0.0, total_w = 0.0, clock = 0.0;

    agenda_push(&q, 0.0 + exponential(&gaps, lambda), ARRIVAL, 0, 0);
    Event e;
    while (departed < customers && agenda_pop(&q, &e)) {
        clock = e.at;
        if (KIND(e) == ARRIVAL) {
            arrived++;
            if (serving) {
                line_join(&line, clock);
            } else {
                serving = 1;
                served_arrived = served_started = clock;
                agenda_push(&q, clock + exponential(&work, mu), DEPARTURE, 0, 0);
            }
            agenda_push(&q, clock + exponential(&gaps, lambda), ARRIVAL, 0, 0);
        } else {
            departed++;
            total_wq += served_started - served_arrived;
            total_w += clock - served_arrived;
            if (departed == customers) break;
            if (line.count) {
                served_arrived = line_leave(&line);
                served_started = clock;
                agenda_push(&q, clock + exponential(&work, mu), DEPARTURE, 0, 0);
            } else {
                serving = 0;
            }
        }
    }

    double seconds = wall_seconds() - started;
    long events = arrived + departed;
    double wq = total_wq / (double)departed, w = total_w / (double)departed;
    printf("workload=mm1 impl=c events=%ld seconds=%.6f events_per_s=%.0f N=%ld seed=%" PRIu64
           " arrivals=%ld departures=%ld end_time=%.17g Wq=%.17g W=%.17g Wq_th=%.1f W_th=%.1f"
           " Wq_relerr=%.5f W_relerr=%.5f heap_pushes=%" PRIu64 " heap_pops=%" PRIu64
           " heap_max=%zu queue_max=%zu\n",
           events, seconds, (double)events / seconds, customers, seed, arrived, departed, clock, wq, w,
           wq_theory, w_theory, (wq - wq_theory) / wq_theory, (w - w_theory) / w_theory, q.issued, q.taken,
           q.peak, line.peak);
    free(line.at);
    free(q.slot);
    return 0;
}

/* ------------------------------------------------------------------------ */
/* Workload agents: A independent agents over D days, time in hours.         */
/* Each agent: urges as a Poisson stream at 40 a day, each resisted with     */
/* probability 0.3; an earn timer that fires every hour and that every urge  */
/* restarts (an hour after the urge); a rollover at every midnight that      */
/* closes the day's urge count.  Nothing is scheduled after the horizon      */
/* 24*D; events at the horizon itself still happen.  One stream,             */
/* random.Random(seed), in this order: each agent's first gap, agent by      */
/* agent; then, at each urge, the resist draw and the next gap.              */
/* ------------------------------------------------------------------------ */

typedef struct {
    uint32_t earn_gen;    /* bumped by every urge: older earn events are stale */
    uint32_t urges_today;
} Agent;

static int agents(long count, long days, uint64_t seed) {
    const double day = 24.0, earn_every = 1.0, resist_p = 0.3;
    const double urge_rate = 40.0 / 24.0; /* per hour */
    const double horizon = day * (double)days;
    double started = wall_seconds();

    Twister rng;
    twister_seed(&rng, seed);
    Agent *who = grow(NULL, (size_t)count, sizeof(Agent));
    memset(who, 0, (size_t)count * sizeof(Agent));
    Agenda q;
    agenda_init(&q, (size_t)count * 4);

    long urges = 0, resists = 0, gives = 0, earns = 0, rollovers = 0, stale = 0, resets = 0;
    uint64_t daily_sumsq = 0;

    for (uint32_t a = 0; a < (uint32_t)count; a++) {
        double first = 0.0 + exponential(&rng, urge_rate);
        if (first <= horizon) agenda_push(&q, first, URGE, a, 0);
        if (earn_every <= horizon) agenda_push(&q, earn_every, EARN, a, 0);
        if (day <= horizon) agenda_push(&q, day, MIDNIGHT, a, 0);
    }

    Event e;
    while (agenda_pop(&q, &e)) {
        uint32_t owner = OWNER(e);
        Agent *g = &who[owner];
        double now = e.at;
        switch (KIND(e)) {
        case URGE: {
            urges++;
            g->urges_today++;
            if (uniform01(&rng) < resist_p) resists++; else gives++;
            g->earn_gen++; /* the pending earn event, if any, is now stale */
            resets++;
            if (now + earn_every <= horizon) agenda_push(&q, now + earn_every, EARN, owner, g->earn_gen);
            double next = now + exponential(&rng, urge_rate);
            if (next <= horizon) agenda_push(&q, next, URGE, owner, 0);
            break;
        }
        case EARN:
            if (e.gen != g->earn_gen) { stale++; break; }
            earns++;
            if (now + earn_every <= horizon) agenda_push(&q, now + earn_every, EARN, owner, g->earn_gen);
            break;
        case MIDNIGHT:
            rollovers++;
            daily_sumsq += (uint64_t)g->urges_today * g->urges_today;
            g->urges_today = 0;
            if (now + day <= horizon) agenda_push(&q, now + day, MIDNIGHT, owner, 0);
            break;
        default:
            die("unexpected event kind");
        }
    }

    double seconds = wall_seconds() - started;
    long events = urges + earns + rollovers;
    double expected_urges = (double)count * 40.0 * (double)days;
    printf("workload=agents impl=c events=%ld seconds=%.6f events_per_s=%.0f agents=%ld days=%ld seed=%" PRIu64
           " urges=%ld resists=%ld gives=%ld earns=%ld rollovers=%ld daily_sumsq=%" PRIu64
           " resist_frac=%.5f urges_relerr=%.5f resets=%ld stale_pops=%ld heap_pushes=%" PRIu64
           " heap_pops=%" PRIu64 " heap_max=%zu\n",
           events, seconds, (double)events / seconds, count, days, seed, urges, resists, gives, earns, rollovers,
           daily_sumsq, urges ? (double)resists / (double)urges : 0.0, (urges - expected_urges) / expected_urges,
           resets, stale, q.issued, q.taken, q.peak);
    free(who);
    free(q.slot);
    return 0;
}

/* Prints the first draws of random.Random(seed): random() then expovariate(0.9), alternating. */
static int draws(uint64_t seed, long count) {
    Twister rng;
    twister_seed(&rng, seed);
    for (long k = 0; k < count; k++) {
        if (k % 2 == 0) printf("random %.17g\n", uniform01(&rng));
        else printf("expovariate %.17g\n", exponential(&rng, 0.9));
    }
    return 0;
}

/* ------------------------------------------------------------------------ */

static long whole(const char *text, const char *name, long lo, long hi) {
    char *end;
    errno = 0;
    long v = strtol(text, &end, 10);
    if (errno || end == text || *end || v < lo || v > hi) {
        fprintf(stderr, "peer_c: %s must be a whole number in %ld..%ld (got %s)\n", name, lo, hi, text);
        exit(2);
    }
    return v;
}

static uint64_t seed_arg(const char *text) {
    char *end;
    errno = 0;
    unsigned long long v = strtoull(text, &end, 10);
    if (errno || end == text || *end || text[0] == '-' || v > UINT64_MAX / 2 - 1) {
        fprintf(stderr, "peer_c: seed must be a whole number in 0..%" PRIu64 " (got %s)\n", UINT64_MAX / 2 - 1, text);
        exit(2);
    }
    return (uint64_t)v;
}

int main(int argc, char **argv) {
    const char *w = argc > 1 ? argv[1] : "";
    if (!strcmp(w, "mm1") && argc <= 4) {
        long n = argc > 2 ? whole(argv[2], "customers", 1, 1000000000L) : 1000000;
        return mm1(n, argc > 3 ? seed_arg(argv[3]) : 42);
    }
    if (!strcmp(w, "agents") && argc <= 5) {
        long a = argc > 2 ? whole(argv[2], "agents", 1, MAX_AGENTS) : 100000;
        long d = argc > 3 ? whole(argv[3], "days", 1, 36500) : 30;
        return agents(a, d, argc > 4 ? seed_arg(argv[4]) : 42);
    }
    if (!strcmp(w, "draws") && argc <= 4) {
        uint64_t s = argc > 2 ? seed_arg(argv[2]) : 42;
        return draws(s, argc > 3 ? whole(argv[3], "count", 0, 1000000) : 8);
    }
    fprintf(stderr,
            "usage: %s mm1 [customers=1000000] [seed=42]\n"
            "       %s agents [agents=100000] [days=30] [seed=42]\n"
            "       %s draws [seed=42] [count=8]\n",
            argv[0], argv[0], argv[0]);
    return 2;
}
