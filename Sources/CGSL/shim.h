// CGSL — the one C door of Habitat: the GNU Scientific Library (GPL-3.0).
//
// Only Sources/Stochastics/GSL.swift imports this module. Swift 6 cannot read GSL's global
// generator-type variables (`gsl_rng_taus2`, …: mutable C globals are not concurrency-safe),
// so they are reached through the `static inline` accessors below.
#ifndef HABITAT_CGSL_SHIM_H
#define HABITAT_CGSL_SHIM_H

#include <math.h>
#include <stdint.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_statistics_double.h>
#include <gsl/gsl_multimin.h>
#include <gsl/gsl_qrng.h>

// MARK: Generator types

static inline const gsl_rng_type *habitat_rng_type_taus2(void) { return gsl_rng_taus2; }
static inline const gsl_rng_type *habitat_rng_type_mt19937(void) { return gsl_rng_mt19937; }
static inline const gsl_rng_type *habitat_rng_type_ranlxd2(void) { return gsl_rng_ranlxd2; }

/// The Nelder–Mead simplex minimiser type (`gsl_multimin_fminimizer_nmsimplex2`, a C global Swift 6 cannot read).
static inline const gsl_multimin_fminimizer_type *habitat_multimin_nmsimplex2(void) { return gsl_multimin_fminimizer_nmsimplex2; }

/// Sobol's quasi-random sequence (`gsl_qrng_sobol`, dimensions 1…40; a C global Swift 6 cannot read).
static inline const gsl_qrng_type *habitat_qrng_type_sobol(void) { return gsl_qrng_sobol; }

// MARK: Error handling

/// Turns GSL's default abort-on-error handler off; GSL functions then report through their return values.
static inline void habitat_gsl_error_handler_off(void) { (void)gsl_set_error_handler_off(); }

// MARK: Hot-path draws

/// `gsl_rng_uniform` without the extra library call: [0, 1).
static inline double habitat_rng_uniform(const gsl_rng *r) { return (r->type->get_double)(r->state); }

/// `gsl_rng_get` without the extra library call: the generator's raw output in [min, max].
static inline unsigned long habitat_rng_get(const gsl_rng *r) { return (r->type->get)(r->state); }

/// GSL's exponential sampler (`gsl_ran_exponential`: inverse transform, -mu * log1p(-u)) with `log(1 - u)` in place
/// of `log1p(-u)`: the same value up to rounding, because 1 - u is exact for generators whose uniforms are
/// multiples of 2^-32 (taus2, mt19937), and about twice as fast (glibc's log1p is slow).
static inline double habitat_ran_exponential(const gsl_rng *r, double mu) {
    return -mu * log(1.0 - (r->type->get_double)(r->state));
}

// MARK: taus2 inline (the same recurrence as GSL's rng/taus.c, on the generator's own state)

/// The layout of GSL's private `taus_state_t` (rng/taus.c, unchanged since GSL 1.0).
typedef struct { unsigned long int s1, s2, s3; } habitat_taus_state_t;

/// One step of GSL's `taus_get` on a taus2 generator's state, inlined into the caller (no call through the
/// generator type's function pointer). Bit-identical to `gsl_rng_get`; the state stays GSL's, so GSL's own
/// samplers (ziggurat, gamma, …) and these inline draws advance one and the same sequence.
static inline unsigned long habitat_taus2_get(gsl_rng *r) {
    habitat_taus_state_t *s = (habitat_taus_state_t *)r->state;
    const unsigned long mask = 0xffffffffUL;
    s->s1 = (((s->s1 & 4294967294UL) << 12) & mask) ^ ((((s->s1 << 13) & mask) ^ s->s1) >> 19);
    s->s2 = (((s->s2 & 4294967288UL) << 4) & mask) ^ ((((s->s2 << 2) & mask) ^ s->s2) >> 25);
    s->s3 = (((s->s3 & 4294967280UL) << 17) & mask) ^ ((((s->s3 << 3) & mask) ^ s->s3) >> 11);
    return s->s1 ^ s->s2 ^ s->s3;
}

/// `gsl_rng_uniform` for taus2, inlined: [0, 1) in multiples of 2^-32, as GSL's `taus_get_double`.
static inline double habitat_taus2_uniform(gsl_rng *r) { return habitat_taus2_get(r) / 4294967296.0; }

/// `habitat_ran_exponential` for taus2, inlined.
static inline double habitat_taus2_exponential(gsl_rng *r, double mu) { return -mu * log(1.0 - habitat_taus2_uniform(r)); }

// MARK: Direct seeding of taus2 (96 bits of state instead of gsl_rng_set's 32-bit seed)

/// Sets a taus2 generator's three 32-bit components directly, applying the same validity fix-ups as
/// GSL's `taus_set` (s1 >= 2, s2 >= 8, s3 >= 16) and the same six warm-up steps.
/// Returns GSL_EINVAL if `r` is not a taus2 generator.
static inline int habitat_taus2_set_state(gsl_rng *r, uint32_t a, uint32_t b, uint32_t c) {
    if (r->type != gsl_rng_taus2 || r->type->size != sizeof(habitat_taus_state_t)) return GSL_EINVAL;
    habitat_taus_state_t *s = (habitat_taus_state_t *)r->state;
    s->s1 = a; s->s2 = b; s->s3 = c;
    if (s->s1 < 2UL) s->s1 += 2UL;
    if (s->s2 < 8UL) s->s2 += 8UL;
    if (s->s3 < 16UL) s->s3 += 16UL;
    for (int i = 0; i < 6; i++) (void)(r->type->get)(r->state);
    return GSL_SUCCESS;
}

#endif
