/* What the C benchmarks share: a monotonic clock in ns, timing a way, medians, and dying with the program's name. */
#ifndef AEAD_BENCH_TIMING_H
#define AEAD_BENCH_TIMING_H

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static const char *bench_name = "aead-bench"; /* set by main: the program named in die() */

static inline double now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static inline void die(const char *what) {
    fprintf(stderr, "%s: %s failed\n", bench_name, what);
    exit(1);
}

static inline int cmp_double(const void *a, const void *b) {
    const double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* One way of doing a benchmark's operation on its state (each program defines struct bench_job). */
struct bench_job;
typedef void (*bench_way)(struct bench_job *);

/* The mean ns of n calls of w(j). */
static inline double time_way(bench_way w, struct bench_job *j, long n) {
    double t0 = now_ns();
    for (long i = 0; i < n; i++) w(j);
    return (now_ns() - t0) / (double)n;
}

/* The median of v[0..n) (sorts v). */
static inline double median(double *v, int n) {
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return v[n / 2];
}

#endif
