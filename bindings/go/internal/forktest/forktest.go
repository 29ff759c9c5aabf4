// Package forktest forks the process from C for the binding's tests. Go itself cannot fork
// without exec, but a Go program may call fork() through cgo; the child here runs only C
// (libaead), never Go code, and reports to the parent through a pipe.
package forktest

/*
#include <signal.h>
#include <stdint.h>
#include <sys/wait.h>
#include <unistd.h>
#include <aead.h>

// Forks; the child runs fn(arg, r, out, out_cap), writes r[0..1] and out to the pipe and exits. The
// parent reads them into res and out. 0, or -1 when the fork, the pipe or the child failed.
typedef void (*child_fn)(const void *arg, int64_t r[2], uint8_t *out, size_t out_cap);
static int fork_run(child_fn fn, const void *arg, uint8_t *out, size_t out_cap, int64_t *res) {
    int fd[2];
    if (pipe(fd) != 0) return -1;
    pid_t pid = fork();
    if (pid < 0) return -1;
    if (pid == 0) {
        signal(SIGALRM, SIG_DFL);  // the Go runtime's handlers do not work in this child
        alarm(20);                 // a child stuck on a lock dies; the parent reports it
        int64_t r[2];
        fn(arg, r, out, out_cap);
        int ok = write(fd[1], r, sizeof r) == (ssize_t)sizeof r && write(fd[1], out, out_cap) == (ssize_t)out_cap;
        _exit(ok ? 0 : 1);
    }
    close(fd[1]);
    ssize_t got = read(fd[0], res, 2 * sizeof(int64_t)), got_out = 0;
    while (got == (ssize_t)(2 * sizeof(int64_t)) && (size_t)got_out < out_cap) {
        ssize_t m = read(fd[0], out + got_out, out_cap - (size_t)got_out);
        if (m <= 0) break;
        got_out += m;
    }
    close(fd[0]);
    int status = 0;
    if (waitpid(pid, &status, 0) != pid) return -1;
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || got != (ssize_t)(2 * sizeof(int64_t)) ||
        (size_t)got_out != out_cap)
        return -1;
    return 0;
}

struct seal_open_args {
    void *ctx;
    const uint8_t *nonce, *aad, *pt, *open_nonce, *sealed;
    size_t nonce_len, aad_len, pt_len, sealed_len, back_cap;
    uint8_t *back;
};

static void child_seal_open(const void *arg, int64_t r[2], uint8_t *out, size_t out_cap) {
    const struct seal_open_args *a = (const struct seal_open_args *)arg;
    r[0] = aead_seal_open((aead_ctx *)a->ctx, AEAD_SEAL, a->nonce, a->nonce_len, a->aad, a->aad_len, a->pt, a->pt_len,
                          out, out_cap);
    r[1] = aead_seal_open((aead_ctx *)a->ctx, AEAD_OPEN, a->open_nonce, a->nonce_len, a->aad, a->aad_len, a->sealed,
                          a->sealed_len, a->back, a->back_cap);
}

// Forks; the child seals (nonce, aad, pt) into out on ctx, then opens (open_nonce, sealed) into
// back, writes both results and out to the pipe and exits. The parent reads them into res and out.
static int fork_seal_open(void *ctx, const uint8_t *nonce, size_t nonce_len, const uint8_t *aad,
                          size_t aad_len, const uint8_t *pt, size_t pt_len, uint8_t *out, size_t out_cap,
                          const uint8_t *open_nonce, const uint8_t *sealed, size_t sealed_len,
                          uint8_t *back, size_t back_cap, int64_t *res) {
    struct seal_open_args a = {ctx, nonce, aad, pt, open_nonce, sealed, nonce_len, aad_len, pt_len, sealed_len,
                               back_cap, back};
    return fork_run(child_seal_open, &a, out, out_cap, res);
}

struct hpke_args {
    void *ctx;
    const uint8_t *pt;
    size_t pt_len, seal_cap;
};

// The child seals pt on the HPKE sender ctx into out[0..seal_cap) (r[0]), then exports the rest of
// out with the exporter context "fork" (r[1]).
static void child_hpke(const void *arg, int64_t r[2], uint8_t *out, size_t out_cap) {
    const struct hpke_args *a = (const struct hpke_args *)arg;
    r[0] = aead_hpke_seal((aead_hpke *)a->ctx, NULL, 0, a->pt, a->pt_len, out, a->seal_cap, NULL);
    r[1] = aead_hpke_export((const aead_hpke *)a->ctx, (const uint8_t *)"fork", 4, out + a->seal_cap,
                            out_cap - a->seal_cap);
}

static int fork_hpke(void *ctx, const uint8_t *pt, size_t pt_len, uint8_t *out, size_t seal_cap, size_t out_cap,
                     int64_t *res) {
    struct hpke_args a = {ctx, pt, pt_len, seal_cap};
    return fork_run(child_hpke, &a, out, out_cap, res);
}

struct stream_args {
    void *s;
    const uint8_t *pt;
    size_t pt_len;
};

// The child seals pt as the final segment of the stream writer s into out (r[0]), then asks for the
// writer's position (r[1]).
static void child_stream(const void *arg, int64_t r[2], uint8_t *out, size_t out_cap) {
    const struct stream_args *a = (const struct stream_args *)arg;
    r[0] = aead_stream_seal((aead_stream *)a->s, a->pt, a->pt_len, 0, 1, out, out_cap);
    r[1] = aead_stream_position((const aead_stream *)a->s);
}

static int fork_stream(void *s, const uint8_t *pt, size_t pt_len, uint8_t *out, size_t out_cap, int64_t *res) {
    struct stream_args a = {s, pt, pt_len};
    return fork_run(child_stream, &a, out, out_cap, res);
}
*/
import "C"

import (
	"errors"
	"unsafe"
)

// SealOpenInChild forks the process; the child seals pt (with nonce and aad) on the C context
// ctx (an *aead_ctx) into a buffer of outCap bytes, then opens sealed (with openNonce and aad),
// and exits. It returns the two aead_seal_open results of the child and what its seal wrote.
func SealOpenInChild(ctx unsafe.Pointer, nonce, aad, pt []byte, outCap int, openNonce, sealed []byte, backCap int) (seal, open int64, out []byte, err error) {
	out, back := make([]byte, max(outCap, 1)), make([]byte, max(backCap, 1))
	var res [2]int64
	rc := C.fork_seal_open(ctx, ptr(nonce), C.size_t(len(nonce)), ptr(aad), C.size_t(len(aad)), ptr(pt), C.size_t(len(pt)),
		ptr(out), C.size_t(outCap), ptr(openNonce), ptr(sealed), C.size_t(len(sealed)), ptr(back), C.size_t(backCap),
		(*C.int64_t)(unsafe.Pointer(&res[0])))
	if rc != 0 {
		return 0, 0, nil, errors.New("forktest: fork, pipe or child failed")
	}
	return res[0], res[1], out[:outCap], nil
}

// HPKESealExportInChild forks the process; the child seals pt on the HPKE sender context ctx (an
// *aead_hpke) into a buffer of len(pt)+16 bytes, then exports exportLen bytes with the exporter
// context "fork", and exits. It returns the child's aead_hpke_seal and aead_hpke_export results,
// what the seal wrote and the export.
func HPKESealExportInChild(ctx unsafe.Pointer, pt []byte, exportLen int) (seal, export int64, sealed, exported []byte, err error) {
	sealCap := len(pt) + 16
	out := make([]byte, sealCap+exportLen)
	var res [2]int64
	rc := C.fork_hpke(ctx, ptr(pt), C.size_t(len(pt)), ptr(out), C.size_t(sealCap), C.size_t(len(out)),
		(*C.int64_t)(unsafe.Pointer(&res[0])))
	if rc != 0 {
		return 0, 0, nil, nil, errors.New("forktest: fork, pipe or child failed")
	}
	return res[0], res[1], out[:sealCap], out[sealCap:], nil
}

// StreamSealInChild forks the process; the child seals pt as the final segment of the stream writer
// s (an *aead_stream) into a buffer of outCap bytes, then reads the writer's position, and exits. It
// returns the child's aead_stream_seal and aead_stream_position results and what the seal wrote.
func StreamSealInChild(s unsafe.Pointer, pt []byte, outCap int) (seal, position int64, out []byte, err error) {
	out = make([]byte, max(outCap, 1))
	var res [2]int64
	if C.fork_stream(s, ptr(pt), C.size_t(len(pt)), ptr(out), C.size_t(outCap), (*C.int64_t)(unsafe.Pointer(&res[0]))) != 0 {
		return 0, 0, nil, errors.New("forktest: fork, pipe or child failed")
	}
	return res[0], res[1], out[:outCap], nil
}

func ptr(b []byte) *C.uint8_t {
	if len(b) == 0 {
		return nil
	}
	return (*C.uint8_t)(unsafe.Pointer(&b[0]))
}
