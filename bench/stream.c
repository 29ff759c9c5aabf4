/* Streaming AEAD: the throughput of a whole stream (aead_stream_seal / aead_stream_open, segment by
 * segment) against aead_seal_open on the same segment size (one-shot calls on an AEAD_POLICY_NONE context
 * with the nonce built by the caller, the floor a hand-made stream would have), interleaved rounds,
 * medians, and the peak RSS for streams of two lengths (memory must not grow with the stream).
 * Run: build/bench/aead-stream-bench [MiB] [--json]   (default 256 MiB) */
#define _POSIX_C_SOURCE 200809L
#include <aead.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "timing.h"

struct row {
    const char *name;
    int format, alg;
    size_t key_len, key_size;
    int hash;
    uint32_t segment; /* ciphertext bytes per segment */
};

static const struct row rows[] = {
    {"Tink AES128_GCM_HKDF_1MB", AEAD_STREAM_TINK_AES_GCM_HKDF, AEAD_AES_128_GCM, 32, 16, AEAD_STREAM_SHA256, 1u << 20},
    {"Tink AES128_GCM_HKDF_4KB", AEAD_STREAM_TINK_AES_GCM_HKDF, AEAD_AES_128_GCM, 32, 16, AEAD_STREAM_SHA256, 4096},
    {"age (64 KiB chunks)", AEAD_STREAM_AGE, AEAD_CHACHA20_POLY1305, 16, 0, 0, 65536 + 16},
    {"RFC 8188 rs 4096", AEAD_STREAM_RFC8188, AEAD_AES_128_GCM, 16, 0, 0, 4096},
};

static aead_stream_params params_of(const struct row *r, const uint8_t *key) {
    aead_stream_params p;
    memset(&p, 0, sizeof p);
    p.size = sizeof p;
    p.format = r->format;
    p.key = key;
    p.key_len = r->key_len;
    p.key_size = r->key_size;
    p.hkdf_hash = r->hash;
    p.segment_size = r->format == AEAD_STREAM_AGE ? 0 : r->segment;
    return p;
}

/* Seals a stream of `total` plaintext bytes through one segment buffer; returns the ns taken. */
static double stream_seal(const struct row *r, const uint8_t *key, uint8_t *buf, size_t cap, size_t total) {
    aead_stream_params p = params_of(r, key);
    aead_stream *w = NULL;
    uint8_t header[AEAD_STREAM_MAX_HEADER];
    size_t hl = 0;
    const double t0 = now_ns();
    if (aead_stream_writer_new(&w, &p, header, sizeof header, &hl) != 0) die("aead_stream_writer_new");
    size_t off = 0;
    for (uint64_t n = 0;; ++n) {
        const size_t room = aead_stream_segment_size(w, n) - aead_stream_overhead(w);
        const int last = total - off <= room;
        const size_t take = last ? total - off : room;
        if (aead_stream_seal(w, buf, take, 0, last, buf, cap) < 0) die("aead_stream_seal");
        off += take;
        if (last) break;
    }
    const double t = now_ns() - t0;
    aead_stream_free(w);
    return t;
}

/* The same plaintext as one-shot seals of the same segment size, the caller counting nonces. */
static double oneshot_seal(const struct row *r, const uint8_t *key, uint8_t *buf, size_t cap, size_t total) {
    aead_ctx *c = NULL;
    const size_t over = r->format == AEAD_STREAM_RFC8188 ? 17 : 16, room = r->segment - over;
    const double t0 = now_ns();
    if (aead_ctx_new(&c, r->alg, AEAD_POLICY_NONE, key, r->alg == AEAD_AES_128_GCM ? 16 : 32, 16) != 0) die("aead_ctx_new");
    uint8_t nonce[12] = {0};
    for (size_t off = 0, n = 0; off < total || n == 0; off += room, ++n) {
        const size_t take = total - off < room ? total - off : room;
        memcpy(nonce + 4, &n, sizeof n);
        if (aead_seal_open(c, AEAD_SEAL, nonce, 12, NULL, 0, buf, take, buf, cap) < 0) die("aead_seal_open");
    }
    const double t = now_ns() - t0;
    aead_ctx_free(c);
    return t;
}

static long max_rss_kib(void) {
    struct rusage u;
    getrusage(RUSAGE_SELF, &u);
    return u.ru_maxrss;
}

int main(int argc, char **argv) {
    bench_name = "aead-stream-bench";
    size_t mib = 256;
    int json = 0;
    for (int i = 1; i < argc; ++i) {
        if (strcmp(argv[i], "--json") == 0) json = 1;
        else mib = (size_t)strtoul(argv[i], NULL, 10);
    }
    const size_t total = mib << 20;
    static uint8_t key[32] = {7};
    const size_t cap = (1u << 20) + 64;
    uint8_t *buf = calloc(1, cap);
    if (buf == NULL) die("calloc");
    enum { kRounds = 5 };
    if (!json) printf("%s; %zu MiB per stream, medians of %d interleaved rounds\n", aead_version(), mib, kRounds);
    if (json) printf("{\"library\": \"%s\", \"mib\": %zu, \"rows\": [", aead_version(), mib);
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; ++i) {
        const struct row *r = &rows[i];
        double s[kRounds], o[kRounds];
        for (int k = 0; k < kRounds; ++k) {
            s[k] = stream_seal(r, key, buf, cap, total);
            o[k] = oneshot_seal(r, key, buf, cap, total);
        }
        const double ms = median(s, kRounds), mo = median(o, kRounds);
        const double gibs = (double)total / ms, gibo = (double)total / mo; /* bytes per ns = GB/s */
        if (json)
            printf("%s{\"name\": \"%s\", \"segment\": %u, \"stream_gbps\": %.3f, \"oneshot_gbps\": %.3f, \"ratio\": %.3f}",
                   i ? ", " : "", r->name, r->segment, gibs, gibo, mo / ms);
        else
            printf("  %-26s stream %6.2f GB/s   aead_seal_open, same segments %6.2f GB/s   ratio %.2fx\n", r->name, gibs,
                   gibo, mo / ms);
    }
    /* Memory: the peak RSS after a stream of 4x the length is what it was after the first ones. */
    const long before = max_rss_kib();
    stream_seal(&rows[0], key, buf, cap, 4 * total);
    const long after = max_rss_kib();
    if (json)
        printf("], \"max_rss_kib\": %ld, \"max_rss_kib_after_4x\": %ld}\n", before, after);
    else
        printf("peak RSS: %ld KiB after the streams above, %ld KiB after one of %zu MiB\n", before, after, 4 * mib);
    free(buf);
    return 0;
}
