/* libaead._fast: the compiled hot path of the Python binding (CPython stable ABI where it has buffers).
 *
 * cffi stays the loader: it creates and frees the aead_ctx (libaead/__init__.py) and hands the pointer
 * to Core._bind. This module only does what costs on every call: argument parsing (METH_FASTCALL),
 * buffer access, the output bytes object (PyBytes_FromStringAndSize(NULL, n)) and one aead_seal_open or
 * aead_seal_open_many call. It checks in pyca/cryptography's order; every failure is raised by the
 * Python error hook (set_error_hook), so exception types and messages live in one place (Python).
 * The GIL is released only for calls of at least gil_threshold input bytes (measured: below that the
 * release and re-acquire cost more than another thread could gain).
 *
 * Hostile callers: every length is read once from its Py_buffer (or bytes object) into a
 * local or a record, and only that copy is checked and passed on; nothing here re-reads caller memory.
 * No sum or product of caller-controlled lengths is formed without a check that it fits: each input is
 * held to the algorithm's limit before its output length is computed, and a batch's output total is
 * checked against PY_SSIZE_T_MAX before it is added to, so a short `buf` can never match a wrapped
 * total. Every refusal happens before the C call, with nothing written.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <aead.h>
#include <stddef.h>
#include <string.h>

/* Pseudo-codes for the error hook besides the negative AEAD_ERR_* values. */
#define FAIL_BUFFER_SIZE (-1001)  /* extra = the required length */
#define FAIL_CONVERT (-1002)      /* an exception is pending: re-raise it naming the record index */
#define FAIL_LENGTHS (-1003)      /* the sequences of a batch differ in length */
#define FAIL_UNBOUND (-1004)      /* an object whose constructor did not run */
#define FAIL_TOTAL (-1005)        /* a batch's summed output length exceeds PY_SSIZE_T_MAX */
#define FAIL_CCM_LENGTH (-1006)   /* AES-CCM: the message does not fit the nonce's length field */
#define FAIL_SIV_EMPTY (-1007)    /* AES-SIV: an empty plaintext on a libcrypto that cannot seal one (< 3.5) */
#define FAIL_SIV_COMPONENTS (-1008) /* AES-SIV: more than AEAD_SIV_MAX_COMPONENTS; extra = the count */
#define FAIL_NOT_LIST (-1009)     /* AES-SIV: associated data that is neither a list nor None (the object) */

#define TAG 16

static PyObject *error_hook;         /* libaead._errors.fail(obj, code, index, extra) */
static Py_ssize_t gil_threshold = 32768; /* bench.py --gil measures the crossover */
/* Runs `call` (an assignment) with the GIL held below gil_threshold input bytes, released at or above. */
#define CALL_GIL_ABOVE_THRESHOLD(in_bytes, call) \
    do {                                         \
        if ((in_bytes) < gil_threshold) {        \
            call;                                \
        } else {                                 \
            Py_BEGIN_ALLOW_THREADS               \
            call;                                \
            Py_END_ALLOW_THREADS                 \
        }                                        \
    } while (0)

typedef struct {
    PyObject_HEAD
    aead_ctx *ctx;
    PyObject *owner;       /* the cffi object that frees ctx (ffi.gc) */
    Py_ssize_t nonce_min;  /* accepted nonce lengths (pyca's), checked before the call */
    Py_ssize_t nonce_max;
    int random_nonce;      /* AEAD_POLICY_RANDOM_NONCE: no nonce argument; output nonce || ct || tag */
    Py_ssize_t max_in;     /* longest plaintext the algorithm allows (AEAD_*_MAX_PLAINTEXT), << PY_SSIZE_T_MAX */
    Py_ssize_t overhead;   /* output minus input length of a seal: the tag (4..16), plus the drawn nonce */
    int ccm;               /* AES-CCM: the message length must fit in 15 - nonce_len bytes (RFC 3610) */
    int siv_no_empty;      /* SivCore: the libcrypto cannot seal an empty plaintext (OpenSSL < 3.5) */
} Core;

/* Raises through the Python hook; always returns NULL. `what` (FAIL_NOT_LIST: the offending object) is
 * handed to the hook in place of the pending exception. */
static PyObject *fail_with(PyObject *self, Py_ssize_t code, Py_ssize_t index, Py_ssize_t extra, PyObject *what) {
    PyObject *exc = what != NULL ? what : Py_None;
    PyObject *type = NULL, *value = NULL, *tb = NULL;
    if (code == FAIL_CONVERT) {
#if PY_VERSION_HEX >= 0x030C0000
        value = PyErr_GetRaisedException();
#else
        PyErr_Fetch(&type, &value, &tb);
        PyErr_NormalizeException(&type, &value, &tb);
        if (tb != NULL && value != NULL) PyException_SetTraceback(value, tb);
#endif
        exc = value != NULL ? value : Py_None;
    }
    if (error_hook == NULL) {
        Py_XDECREF(type);
        Py_XDECREF(value);
        Py_XDECREF(tb);
        PyErr_SetString(PyExc_RuntimeError, "libaead._fast: no error hook");
        return NULL;
    }
    PyObject *r = PyObject_CallFunction(error_hook, "OnnnO", self, code, index, extra, exc);
    Py_XDECREF(r);
    Py_XDECREF(type);
    Py_XDECREF(value);
    Py_XDECREF(tb);
    if (!PyErr_Occurred()) PyErr_SetString(PyExc_RuntimeError, "libaead._fast: error hook returned");
    return NULL;
}

static PyObject *fail(PyObject *self, Py_ssize_t code, Py_ssize_t index, Py_ssize_t extra) {
    return fail_with(self, code, index, extra, NULL);
}

/* One input argument: bytes are read in place (immutable, kept alive by the caller); anything else
 * through the buffer protocol (contiguous), released by release_input. */
typedef struct {
    const uint8_t *ptr;
    Py_ssize_t len;
    int has_view;
    Py_buffer view;
} Input;

static const uint8_t empty_byte;

static int get_input(PyObject *obj, Input *in) {
    in->has_view = 0;
    if (PyBytes_CheckExact(obj)) {
        char *p;
        if (PyBytes_AsStringAndSize(obj, &p, &in->len) < 0) return -1;
        in->ptr = (const uint8_t *)p;
        return 0;
    }
    if (PyObject_GetBuffer(obj, &in->view, PyBUF_SIMPLE) < 0) return -1;
    in->has_view = 1;
    in->ptr = in->view.buf != NULL ? (const uint8_t *)in->view.buf : &empty_byte;
    in->len = in->view.len;
    return 0;
}

/* associated_data may be None (= empty). */
static int get_aad(PyObject *obj, Input *in) {
    if (obj == Py_None) {
        in->has_view = 0;
        in->ptr = &empty_byte;
        in->len = 0;
        return 0;
    }
    return get_input(obj, in);
}

static void release_input(Input *in) {
    if (in->has_view) {
        PyBuffer_Release(&in->view);
        in->has_view = 0;
    }
}

/* The output buffer of the _into methods: writable and contiguous. pyca raises TypeError for a
 * read-only buffer and BufferError for a non-contiguous writable one. */
static int get_output(PyObject *obj, Py_buffer *view) {
    if (PyObject_GetBuffer(obj, view, PyBUF_WRITABLE) == 0) return 0;
    if (!PyErr_ExceptionMatches(PyExc_BufferError)) return -1;
    PyObject *mv = PyMemoryView_FromObject(obj);
    int readonly = 0;
    if (mv != NULL) {
        PyObject *ro = PyObject_GetAttrString(mv, "readonly");
        readonly = ro != NULL && PyObject_IsTrue(ro) == 1;
        Py_XDECREF(ro);
        Py_DECREF(mv);
    }
    if (readonly) {
        PyErr_Clear();
        PyErr_SetString(PyExc_TypeError, "argument 'buf': Buffer is not writable.");
    } else if (!PyErr_Occurred()) {
        PyErr_SetString(PyExc_BufferError, "buf must be a contiguous buffer");
    } else if (!PyErr_ExceptionMatches(PyExc_BufferError)) {
        /* PyMemoryView_FromObject's own error: report the original kind */
        PyErr_Clear();
        PyErr_SetString(PyExc_BufferError, "buf must be a contiguous buffer");
    }
    return -1;
}

/* METH_FASTCALL | METH_KEYWORDS argument parsing for a fixed list of required names, with the
 * messages CPython's own parser gives. */
static int parse_args(const char *fname, const char *const *names, Py_ssize_t n, PyObject *const *args,
                      Py_ssize_t nargs, PyObject *kwnames, PyObject **out) {
    if (nargs > n) {
        PyErr_Format(PyExc_TypeError, "%s() takes %zd positional arguments but %zd were given", fname, n, nargs);
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) out[i] = i < nargs ? args[i] : NULL;
    if (kwnames != NULL) {
        Py_ssize_t nkw = PyTuple_Size(kwnames);
        for (Py_ssize_t k = 0; k < nkw; k++) {
            PyObject *key = PyTuple_GetItem(kwnames, k);
            Py_ssize_t i = 0;
            while (i < n && PyUnicode_CompareWithASCIIString(key, names[i]) != 0) i++;
            if (i == n) {
                PyErr_Format(PyExc_TypeError, "%s() got an unexpected keyword argument '%U'", fname, key);
                return -1;
            }
            if (out[i] != NULL) {
                PyErr_Format(PyExc_TypeError, "%s() got multiple values for argument '%s'", fname, names[i]);
                return -1;
            }
            out[i] = args[nargs + k];
        }
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        if (out[i] == NULL) {
            PyErr_Format(PyExc_TypeError, "%s() missing required argument '%s' (pos %zd)", fname, names[i], i + 1);
            return -1;
        }
    }
    return 0;
}

static int64_t call_one(Core *self, int op, const Input *nonce, const Input *aad, const Input *data, uint8_t *out,
                        size_t out_cap) {
    const uint8_t *np = nonce != NULL ? nonce->ptr : NULL;
    size_t nl = nonce != NULL ? (size_t)nonce->len : 0;
    if (data->len < gil_threshold) {
        return aead_seal_open(self->ctx, op, np, nl, aad->ptr, (size_t)aad->len, data->ptr, (size_t)data->len, out,
                              out_cap);
    }
    int64_t r;
    Py_BEGIN_ALLOW_THREADS
    r = aead_seal_open(self->ctx, op, np, nl, aad->ptr, (size_t)aad->len, data->ptr, (size_t)data->len, out, out_cap);
    Py_END_ALLOW_THREADS
    return r;
}

/* The length checks the library would make, before any output length is computed from in_len (so the
 * sum cannot wrap: in_len <= max_in + overhead, far below PY_SSIZE_T_MAX) or any output allocated: 0, or
 * the code (AEAD_ERR_AUTH: too short to hold the tag; AEAD_ERR_TOO_LONG: over the algorithm's limit). */
static Py_ssize_t check_length(const Core *self, int op, Py_ssize_t in_len, Py_ssize_t overhead) {
    if (op == AEAD_SEAL) return in_len > self->max_in ? AEAD_ERR_TOO_LONG : 0;
    if (in_len < overhead) return AEAD_ERR_AUTH;
    return in_len - overhead > self->max_in ? AEAD_ERR_TOO_LONG : 0;
}

/* AES-CCM (RFC 3610 section 2.1): the length field has L = 15 - nonce_len bytes, so a message of
 * 2^(8L) bytes or more cannot be encoded (pyca: "Data too long for nonce"). 0 or FAIL_CCM_LENGTH. */
static Py_ssize_t check_ccm(const Core *self, Py_ssize_t nonce_len, Py_ssize_t plain_len) {
    if (!self->ccm) return 0;
    const Py_ssize_t l = 15 - nonce_len; /* nonce_len is 7..13 here: l is 2..8 */
    if (l >= 8) return 0;
    return ((uint64_t)plain_len >> (8 * l)) != 0 ? FAIL_CCM_LENGTH : 0;
}

/* A Core method's arguments: the nonce (NULL under a random-nonce policy, which has no such argument), the data,
 * the associated data and buf (NULL unless `into`); with_nonce / without name them for each policy. */
typedef struct {
    PyObject *nonce, *data, *aad, *buf;
} CoreArgs;
static inline int core_args(Core *self, const char *fname, const char *const *with_nonce, const char *const *without,
                            int into, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames, CoreArgs *o) {
    PyObject *a[4];
    const int rn = self->random_nonce;
    const Py_ssize_t nfixed = (rn ? 2 : 3) + into;
    if (parse_args(fname, rn ? without : with_nonce, nfixed, args, nargs, kwnames, a) < 0) return -1;
    if (self->ctx == NULL) {
        fail((PyObject *)self, FAIL_UNBOUND, -1, 0);
        return -1;
    }
    o->nonce = rn ? NULL : a[0];
    o->data = a[rn ? 0 : 1];
    o->aad = a[rn ? 1 : 2];
    o->buf = into ? a[nfixed - 1] : NULL;
    return 0;
}

static const char *const NAMES_NONCE[] = {"nonce", "data", "associated_data", "buf"};
static const char *const NAMES_RANDOM[] = {"data", "associated_data", "buf"};

/* The four methods of one body: Prefix_encrypt, _decrypt, _encrypt_into and _decrypt_into (sfx: "" or _many, which
 * goes into the names and the function names given to the body); `into` and `op` select. */
#define ENTRY_POINT(Prefix, body, sfx, dir, op, into, tail)                                                           \
    static PyObject *Prefix##_##dir##crypt##sfx##tail(PyObject *self, PyObject *const *args, Py_ssize_t nargs,        \
                                                      PyObject *kwnames) {                                            \
        return body((Core *)self, op, into, #dir "crypt" #sfx #tail, args, nargs, kwnames);                          \
    }
#define ENTRY_POINTS(Prefix, body, sfx)                   \
    ENTRY_POINT(Prefix, body, sfx, en, AEAD_SEAL, 0, )    \
    ENTRY_POINT(Prefix, body, sfx, de, AEAD_OPEN, 0, )    \
    ENTRY_POINT(Prefix, body, sfx, en, AEAD_SEAL, 1, _into) \
    ENTRY_POINT(Prefix, body, sfx, de, AEAD_OPEN, 1, _into)

/* encrypt / decrypt / encrypt_into / decrypt_into share one body; `into` and `op` select. */
static PyObject *single(Core *self, int op, int into, const char *fname, PyObject *const *args, Py_ssize_t nargs,
                        PyObject *kwnames) {
    CoreArgs o;
    if (core_args(self, fname, NAMES_NONCE, NAMES_RANDOM, into, args, nargs, kwnames, &o) < 0) return NULL;
    PyObject *o_nonce = o.nonce, *o_data = o.data, *o_aad = o.aad, *o_buf = o.buf;

    Input nonce, data, aad;
    Py_buffer bufview;
    PyObject *result = NULL;
    nonce.has_view = data.has_view = aad.has_view = 0;
    int have_buf = 0;
    if (o_nonce != NULL && get_input(o_nonce, &nonce) < 0) goto done;
    if (get_input(o_data, &data) < 0) goto done;
    if (get_aad(o_aad, &aad) < 0) goto done;
    if (into) {
        if (get_output(o_buf, &bufview) < 0) goto done;
        have_buf = 1;
    }
    if (o_nonce != NULL && (nonce.len < self->nonce_min || nonce.len > self->nonce_max)) {
        fail((PyObject *)self, AEAD_ERR_NONCE_SIZE, -1, 0);
        goto done;
    }
    const Py_ssize_t overhead = self->overhead;
    Py_ssize_t code = check_length(self, op, data.len, overhead);
    if (code != 0) {
        fail((PyObject *)self, code, -1, 0);
        goto done;
    }
    const Py_ssize_t out_len = op == AEAD_SEAL ? data.len + overhead : data.len - overhead;  /* no wrap */
    if (o_nonce != NULL && (code = check_ccm(self, nonce.len, op == AEAD_SEAL ? data.len : out_len)) != 0) {
        fail((PyObject *)self, code, -1, 0);
        goto done;
    }
    if (into && bufview.len != out_len) {
        fail((PyObject *)self, FAIL_BUFFER_SIZE, -1, out_len);
        goto done;
    }
    uint8_t *out;
    PyObject *fresh = NULL;
    if (into) {
        out = (uint8_t *)bufview.buf;
    } else {
        fresh = PyBytes_FromStringAndSize(NULL, out_len);
        if (fresh == NULL) goto done;
        out = (uint8_t *)PyBytes_AsString(fresh);
    }
    int64_t r = call_one(self, op, o_nonce != NULL ? &nonce : NULL, &aad, &data, out, (size_t)out_len);
    if (r < 0) {
        Py_XDECREF(fresh);
        fail((PyObject *)self, (Py_ssize_t)r, -1, 0);
        goto done;
    }
    result = into ? PyLong_FromLongLong(r) : fresh;
done:
    release_input(&nonce);
    release_input(&data);
    release_input(&aad);
    if (have_buf) PyBuffer_Release(&bufview);
    return result;
}

ENTRY_POINTS(Core, single, )

/* ---- batches: many records, one aead_seal_open_many crossing ---- */

/* Buffer views held by a batch, for the inputs that are not bytes; grown on demand (none for bytes). */
typedef struct {
    Py_buffer *v;
    Py_ssize_t n, cap;
} Views;

static int views_get(Views *vs, PyObject *obj, const uint8_t **ptr, size_t *len) {
    if (PyBytes_CheckExact(obj)) {
        char *p;
        Py_ssize_t l;
        if (PyBytes_AsStringAndSize(obj, &p, &l) < 0) return -1;
        *ptr = (const uint8_t *)p;
        *len = (size_t)l;
        return 0;
    }
    if (vs->n == vs->cap) {
        const size_t cap = vs->cap ? (size_t)vs->cap * 2 : 16;
        Py_buffer *nv = cap > (size_t)PY_SSIZE_T_MAX / sizeof(Py_buffer)
                            ? NULL
                            : (Py_buffer *)PyMem_Realloc(vs->v, cap * sizeof(Py_buffer));
        if (nv == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        vs->v = nv;
        vs->cap = (Py_ssize_t)cap;
    }
    Py_buffer *view = &vs->v[vs->n];
    if (PyObject_GetBuffer(obj, view, PyBUF_SIMPLE) < 0) return -1;
    vs->n++;
    *ptr = view->buf != NULL ? (const uint8_t *)view->buf : &empty_byte;
    *len = (size_t)view->len;
    return 0;
}

static void views_release(Views *vs) {
    for (Py_ssize_t i = 0; i < vs->n; i++) PyBuffer_Release(&vs->v[i]);
    PyMem_Free(vs->v);
    vs->v = NULL;
    vs->n = vs->cap = 0;
}

/* What the two batch paths (aead_record, aead_record_v) share, through each record type's layout: the
 * outputs' placement and the scan for the first failing record. */
typedef struct {
    size_t stride, out, out_cap, result;
} RecordLayout;
#define REC_AT(type, recs, l, i, field) (*(type *)((char *)(recs) + (size_t)(i) * (l)->stride + (l)->field))
static const RecordLayout RECORD_LAYOUT = {sizeof(aead_record), offsetof(aead_record, out),
                                           offsetof(aead_record, out_cap), offsetof(aead_record, result)};

/* into: buf must be exactly `total` bytes, split in record order; else one new bytes object per record
 * (*outs, a new list). 0, or -1 with the exception raised. */
static int batch_outputs(PyObject *self, void *recs, const RecordLayout *l, Py_ssize_t n, const Py_buffer *bufview,
                         Py_ssize_t total, PyObject **outs) {
    if (bufview != NULL) {
        if (bufview->len != total) {
            fail(self, FAIL_BUFFER_SIZE, -1, total);
            return -1;
        }
        uint8_t *p = (uint8_t *)bufview->buf;
        for (Py_ssize_t i = 0; i < n; i++) {
            REC_AT(uint8_t *, recs, l, i, out) = p;
            p += REC_AT(size_t, recs, l, i, out_cap);
        }
        return 0;
    }
    if ((*outs = PyList_New(n)) == NULL) return -1;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *b = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)REC_AT(size_t, recs, l, i, out_cap));
        if (b == NULL) return -1;
        REC_AT(uint8_t *, recs, l, i, out) = (uint8_t *)PyBytes_AsString(b);
        PyList_SetItem(*outs, i, b); /* steals b */
    }
    return 0;
}

/* After the call: a refusal of the whole batch, or the first failing record (its code through `map`,
 * NULL: as is), raises. 0 when every record succeeded, else -1. */
static int batch_results(PyObject *self, int op, int64_t ok, void *recs, const RecordLayout *l, Py_ssize_t n,
                         Py_ssize_t (*map)(int, int64_t)) {
    if (ok < 0) {
        fail(self, (Py_ssize_t)ok, -1, 0);
        return -1;
    }
    if (ok == n) return 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        const int64_t r = REC_AT(int64_t, recs, l, i, result);
        if (r < 0) {
            fail(self, map != NULL ? map(op, r) : (Py_ssize_t)r, i, 0);
            return -1;
        }
    }
    return 0;
}

/* n elements of `size` bytes (PyMem_Malloc), or NULL with MemoryError raised (also when the size would wrap). */
static void *batch_alloc(Py_ssize_t n, size_t size) {
    void *p = (size_t)n > (size_t)PY_SSIZE_T_MAX / size ? NULL : PyMem_Malloc((size_t)n * size);
    if (p == NULL) PyErr_NoMemory();
    return p;
}

/* Adds one record to a batch's totals: 0, or -1 (raised) when the output total would pass PY_SSIZE_T_MAX.
 * The input total saturates (it only picks whether the GIL is released). */
static inline int batch_add(PyObject *self, Py_ssize_t i, Py_ssize_t in_len, Py_ssize_t out_len, Py_ssize_t *total,
                            Py_ssize_t *total_in) {
    if (out_len > PY_SSIZE_T_MAX - *total) {
        fail(self, FAIL_TOTAL, i, 0);
        return -1;
    }
    *total += out_len;
    *total_in = in_len > PY_SSIZE_T_MAX - *total_in ? PY_SSIZE_T_MAX : *total_in + in_len;
    return 0;
}

/* The end of a batch body (self, op, into, recs, n, bufview, total, total_in, outs, result in scope): the outputs
 * placed, one call of `many_fn` over the records (the GIL released from gil_threshold input bytes), each record's
 * result checked (codes through `map`), then `result` set; any failure jumps to `done` with the exception raised. */
#define BATCH_RUN(layout, many_fn, map)                                                                              \
    int64_t ok;                                                                                                      \
    if (batch_outputs((PyObject *)self, recs, layout, n, into ? &bufview : NULL, total, &outs) < 0) goto done;       \
    CALL_GIL_ABOVE_THRESHOLD(total_in, ok = many_fn(self->ctx, op, recs, (size_t)n));                                \
    if (batch_results((PyObject *)self, op, ok, recs, layout, n, map) < 0) goto done;                                \
    result = batch_return(into, total, &outs)

/* A batch's cleanup: the input views, the output buffer (NULL: none), the heap arrays (NULL: none) and the
 * references the body held (NULL: none). */
static inline void batch_release(Views *views, Py_buffer *bufview, void *heap_records, void *heap_bufs, PyObject *outs,
                                 PyObject *held1, PyObject *held2, PyObject *held3) {
    views_release(views);
    if (bufview != NULL) PyBuffer_Release(bufview);
    PyMem_Free(heap_records);
    PyMem_Free(heap_bufs);
    Py_XDECREF(outs);
    Py_XDECREF(held1);
    Py_XDECREF(held2);
    Py_XDECREF(held3);
}

/* What a batch returns: the total written (into), else the list of outputs (taken from *outs). */
static inline PyObject *batch_return(int into, Py_ssize_t total, PyObject **outs) {
    if (into) return PyLong_FromSsize_t(total);
    PyObject *list = *outs;
    *outs = NULL;
    return list;
}

static const char *const MANY_NONCE[] = {"nonces", "datas", "associated_datas", "buf"};
static const char *const MANY_RANDOM[] = {"datas", "associated_datas", "buf"};

#define STACK_RECORDS 32

static PyObject *many(Core *self, int op, int into, const char *fname, PyObject *const *args, Py_ssize_t nargs,
                      PyObject *kwnames) {
    CoreArgs o;
    if (core_args(self, fname, MANY_NONCE, MANY_RANDOM, into, args, nargs, kwnames, &o) < 0) return NULL;
    PyObject *o_nonces = o.nonce, *o_datas = o.data, *o_aads = o.aad, *o_buf = o.buf;

    /* Tuples hold strong references, so a list mutated by another thread while the GIL is released
     * cannot free an input under the call. */
    PyObject *nonces = NULL, *datas = NULL, *aads = NULL, *outs = NULL, *result = NULL;
    aead_record stack_records[STACK_RECORDS];
    aead_record *recs = stack_records;
    Views views = {NULL, 0, 0};
    Py_buffer bufview;
    int have_buf = 0;

    if (o_nonces != NULL && (nonces = PySequence_Tuple(o_nonces)) == NULL) goto done;
    if ((datas = PySequence_Tuple(o_datas)) == NULL) goto done;
    if (o_aads != Py_None && (aads = PySequence_Tuple(o_aads)) == NULL) goto done;
    const Py_ssize_t n = PyTuple_Size(datas);
    if ((nonces != NULL && PyTuple_Size(nonces) != n) || (aads != NULL && PyTuple_Size(aads) != n)) {
        fail((PyObject *)self, FAIL_LENGTHS, -1, 0);
        goto done;
    }
    if (into) {
        if (get_output(o_buf, &bufview) < 0) goto done;
        have_buf = 1;
    }
    if (n > STACK_RECORDS && (recs = (aead_record *)batch_alloc(n, sizeof(aead_record))) == NULL) goto done;
    const Py_ssize_t overhead = self->overhead;
    Py_ssize_t total = 0, total_in = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        aead_record *rec = &recs[i];
        rec->nonce = NULL;
        rec->nonce_len = 0;
        if (nonces != NULL && views_get(&views, PyTuple_GetItem(nonces, i), &rec->nonce, &rec->nonce_len) < 0) {
            fail((PyObject *)self, FAIL_CONVERT, i, 0);
            goto done;
        }
        if (views_get(&views, PyTuple_GetItem(datas, i), &rec->in, &rec->in_len) < 0) {
            fail((PyObject *)self, FAIL_CONVERT, i, 0);
            goto done;
        }
        PyObject *ad = aads != NULL ? PyTuple_GetItem(aads, i) : Py_None;
        if (ad == Py_None) {
            rec->aad = &empty_byte;
            rec->aad_len = 0;
        } else if (views_get(&views, ad, &rec->aad, &rec->aad_len) < 0) {
            fail((PyObject *)self, FAIL_CONVERT, i, 0);
            goto done;
        }
        if (nonces != NULL && ((Py_ssize_t)rec->nonce_len < self->nonce_min ||
                               (Py_ssize_t)rec->nonce_len > self->nonce_max)) {
            fail((PyObject *)self, AEAD_ERR_NONCE_SIZE, i, 0);
            goto done;
        }
        const Py_ssize_t in_len = (Py_ssize_t)rec->in_len;  /* a Py_buffer length: <= PY_SSIZE_T_MAX */
        Py_ssize_t code = check_length(self, op, in_len, overhead);
        if (code != 0) {
            fail((PyObject *)self, code, i, 0);
            goto done;
        }
        const Py_ssize_t out_len = op == AEAD_SEAL ? in_len + overhead : in_len - overhead;  /* no wrap */
        if (nonces != NULL &&
            (code = check_ccm(self, (Py_ssize_t)rec->nonce_len, op == AEAD_SEAL ? in_len : out_len)) != 0) {
            fail((PyObject *)self, code, i, 0);
            goto done;
        }
        if (batch_add((PyObject *)self, i, in_len, out_len, &total, &total_in) < 0) goto done;
        rec->out_cap = (size_t)out_len;
        rec->out = NULL;
        rec->result = 0;
    }
    BATCH_RUN(&RECORD_LAYOUT, aead_seal_open_many, NULL);
done:
    batch_release(&views, have_buf ? &bufview : NULL, recs != stack_records ? recs : NULL, NULL, outs, nonces, datas,
                  aads);
    return result;
}

ENTRY_POINTS(Core, many, _many)

/* The start of both types' _bind: refuses a second bind and a NULL address, then keeps owner (which owns the
 * context) alive and takes the context. 0, or -1 with the exception raised. */
static int bind_ctx(Core *self, PyObject *owner, unsigned long long address) {
    if (self->ctx != NULL) {
        PyErr_SetString(PyExc_TypeError, "libaead: context already bound");
        return -1;
    }
    if (address == 0) {
        PyErr_SetString(PyExc_ValueError, "libaead: NULL context");
        return -1;
    }
    Py_INCREF(owner);
    self->owner = owner;
    self->ctx = (aead_ctx *)(uintptr_t)address;
    return 0;
}

/* ---- AES-SIV (library 1.3): associated data as a list of components, aead_seal_open_v ----
 *
 * The two functions are reached through pointers that libaead/__init__.py hands over (set_siv, from
 * cffi's lib) when the loaded library is 1.3.0 or later, so this module still loads on an older one
 * (which lacks them; AESSIV then refuses in its constructor). A list of components is copied into a
 * tuple first (strong references: another thread changing the list cannot free a component under the
 * call), each component's length is read once into an aead_buf, and the library copies that array at
 * the start of the call. Output SIV(16) || ciphertext. */
#if AEAD_VERSION_NUMBER >= 10300
#define HAVE_SIV 1
#define SIV_TAG 16
#define SIV_ONE_MAX ((Py_ssize_t)AEAD_ONE_UPDATE_MAX) /* each component and the plaintext (pyca: 2**31 - 1) */

typedef int64_t (*seal_open_v_fn)(aead_ctx *, int, const uint8_t *, size_t, const aead_buf *, size_t, const uint8_t *,
                                  size_t, uint8_t *, size_t);
typedef int64_t (*seal_open_many_v_fn)(aead_ctx *, int, aead_record_v *, size_t);
static seal_open_v_fn seal_open_v_p;
static seal_open_many_v_fn seal_open_many_v_p;

static PyObject *set_siv(PyObject *mod, PyObject *args) {
    (void)mod;
    unsigned long long one, many_v;
    if (!PyArg_ParseTuple(args, "KK", &one, &many_v)) return NULL;
    seal_open_v_p = (seal_open_v_fn)(uintptr_t)one;
    seal_open_many_v_p = (seal_open_many_v_fn)(uintptr_t)many_v;
    Py_RETURN_NONE;
}

/* associated_data (None or a list; index >= 0: of a batch record) -> *out: NULL (no components) or a new
 * tuple of at most AEAD_SIV_MAX_COMPONENTS items. 0, or -1 with the exception raised. */
static int siv_list(Core *self, PyObject *ad, Py_ssize_t index, PyObject **out) {
    *out = NULL;
    if (ad == Py_None) return 0;
    if (!PyList_Check(ad)) {
        fail_with((PyObject *)self, FAIL_NOT_LIST, index, 0, ad);
        return -1;
    }
    PyObject *t = PyList_AsTuple(ad);
    if (t == NULL) return -1;
    const Py_ssize_t n = PyTuple_Size(t);
    if (n > (Py_ssize_t)AEAD_SIV_MAX_COMPONENTS) {
        Py_DECREF(t);
        fail((PyObject *)self, FAIL_SIV_COMPONENTS, index, n);
        return -1;
    }
    *out = t;
    return 0;
}

/* The components of t (from siv_list, may be NULL) into bufs; their views are kept in vs. *total grows by
 * their lengths (saturating: a GIL threshold only). 0, or -1 with the exception raised. */
static int siv_fill(Core *self, PyObject *t, Views *vs, aead_buf *bufs, Py_ssize_t index, Py_ssize_t *total) {
    const Py_ssize_t n = t != NULL ? PyTuple_Size(t) : 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        if (views_get(vs, PyTuple_GetItem(t, i), &bufs[i].data, &bufs[i].len) < 0) {
            if (index >= 0) fail((PyObject *)self, FAIL_CONVERT, index, 0);
            return -1; /* a single call: the conversion's own TypeError / BufferError, as pyca */
        }
        const Py_ssize_t len = (Py_ssize_t)bufs[i].len; /* a Py_buffer or bytes length: <= PY_SSIZE_T_MAX */
        if (len > SIV_ONE_MAX) {
            fail((PyObject *)self, AEAD_ERR_TOO_LONG, index, 0);
            return -1;
        }
        *total = len > PY_SSIZE_T_MAX - *total ? PY_SSIZE_T_MAX : *total + len;
    }
    return 0;
}

/* The plaintext / ciphertext length checks (pyca's order): 0 or a code; *out_len the output length. */
static Py_ssize_t siv_check(const Core *self, int op, Py_ssize_t in_len, Py_ssize_t *out_len) {
    if (op == AEAD_SEAL) {
        if (in_len > SIV_ONE_MAX) return AEAD_ERR_TOO_LONG;
        if (in_len == 0 && self->siv_no_empty) return FAIL_SIV_EMPTY;
        *out_len = in_len + SIV_TAG;
        return 0;
    }
    if (in_len < SIV_TAG) return AEAD_ERR_AUTH;
    if (in_len - SIV_TAG > SIV_ONE_MAX) return AEAD_ERR_TOO_LONG;
    *out_len = in_len - SIV_TAG;
    return 0;
}

/* A refusal of the library, as pyca raises it: AEAD_ERR_UNSUPPORTED is the empty message a libcrypto
 * < 3.5 cannot handle (a seal: ValueError; an open: InvalidTag, as pyca's OpenSSL fails it there). */
static Py_ssize_t siv_result_code(int op, int64_t r) {
    if (r == AEAD_ERR_UNSUPPORTED) return op == AEAD_SEAL ? FAIL_SIV_EMPTY : AEAD_ERR_AUTH;
    return (Py_ssize_t)r;
}

static const char *const SIV_NAMES[] = {"data", "associated_data", "buf"};

static PyObject *siv_single(Core *self, int op, int into, const char *fname, PyObject *const *args, Py_ssize_t nargs,
                            PyObject *kwnames) {
    PyObject *a[3];
    if (parse_args(fname, SIV_NAMES, 2 + into, args, nargs, kwnames, a) < 0) return NULL;
    if (self->ctx == NULL || seal_open_v_p == NULL) return fail((PyObject *)self, FAIL_UNBOUND, -1, 0);
    PyObject *o_ad = a[1];
    Input data;
    data.has_view = 0;
    Py_buffer bufview;
    int have_buf = 0;
    PyObject *comps = NULL, *result = NULL, *fresh = NULL;
    Views views = {NULL, 0, 0};
    aead_buf bufs[AEAD_SIV_MAX_COMPONENTS];
    if (get_input(a[0], &data) < 0) goto done;
    if (o_ad != Py_None && !PyList_Check(o_ad)) {
        fail_with((PyObject *)self, FAIL_NOT_LIST, -1, 0, o_ad);
        goto done;
    }
    if (into) {
        if (get_output(a[2], &bufview) < 0) goto done;
        have_buf = 1;
    }
    Py_ssize_t out_len = 0;
    Py_ssize_t code = siv_check(self, op, data.len, &out_len);
    if (code != 0) {
        fail((PyObject *)self, code, -1, 0);
        goto done;
    }
    if (into && bufview.len != out_len) {
        fail((PyObject *)self, FAIL_BUFFER_SIZE, -1, out_len);
        goto done;
    }
    Py_ssize_t total_in = data.len;
    if (siv_list(self, o_ad, -1, &comps) < 0 || siv_fill(self, comps, &views, bufs, -1, &total_in) < 0) goto done;
    const size_t count = comps != NULL ? (size_t)PyTuple_Size(comps) : 0;
    uint8_t *out;
    if (into) {
        out = (uint8_t *)bufview.buf;
    } else {
        if ((fresh = PyBytes_FromStringAndSize(NULL, out_len)) == NULL) goto done;
        out = (uint8_t *)PyBytes_AsString(fresh);
    }
    int64_t r;
    CALL_GIL_ABOVE_THRESHOLD(total_in, r = seal_open_v_p(self->ctx, op, NULL, 0, count ? bufs : NULL, count, data.ptr,
                                                         (size_t)data.len, out, (size_t)out_len));
    if (r < 0) {
        fail((PyObject *)self, siv_result_code(op, r), -1, 0);
        goto done;
    }
    result = into ? PyLong_FromLongLong(r) : fresh;
    if (!into) fresh = NULL;
done:
    Py_XDECREF(fresh);
    views_release(&views);
    release_input(&data);
    if (have_buf) PyBuffer_Release(&bufview);
    Py_XDECREF(comps);
    return result;
}

ENTRY_POINTS(Siv, siv_single, )

static const char *const SIV_MANY_NAMES[] = {"datas", "associated_datas", "buf"};
static const RecordLayout SIV_RECORD_LAYOUT = {sizeof(aead_record_v), offsetof(aead_record_v, out),
                                               offsetof(aead_record_v, out_cap), offsetof(aead_record_v, result)};

/* Batches: aead_seal_open_many_v over every record, one crossing. Every record is converted and
 * checked first (nothing is done when one is bad); the first failing record raises, naming its index. */
static PyObject *siv_many(Core *self, int op, int into, const char *fname, PyObject *const *args, Py_ssize_t nargs,
                          PyObject *kwnames) {
    PyObject *a[3];
    if (parse_args(fname, SIV_MANY_NAMES, 2 + into, args, nargs, kwnames, a) < 0) return NULL;
    if (self->ctx == NULL || seal_open_many_v_p == NULL) return fail((PyObject *)self, FAIL_UNBOUND, -1, 0);
    PyObject *datas = NULL, *aads = NULL, *lists = NULL, *outs = NULL, *result = NULL;
    aead_record_v stack_records[STACK_RECORDS];
    aead_record_v *recs = stack_records;
    aead_buf *bufs = NULL;
    Views views = {NULL, 0, 0};
    Py_buffer bufview;
    int have_buf = 0;
    if ((datas = PySequence_Tuple(a[0])) == NULL) goto done;
    if (a[1] != Py_None && (aads = PySequence_Tuple(a[1])) == NULL) goto done;
    const Py_ssize_t n = PyTuple_Size(datas);
    if (aads != NULL && PyTuple_Size(aads) != n) {
        fail((PyObject *)self, FAIL_LENGTHS, -1, 0);
        goto done;
    }
    if (into) {
        if (get_output(a[2], &bufview) < 0) goto done;
        have_buf = 1;
    }
    if ((lists = PyTuple_New(n)) == NULL) goto done; /* each record's component tuple (or None) */
    if (n > STACK_RECORDS && (recs = (aead_record_v *)batch_alloc(n, sizeof(aead_record_v))) == NULL) goto done;
    Py_ssize_t total = 0, total_in = 0, components = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        aead_record_v *rec = &recs[i];
        rec->nonce = NULL;
        rec->nonce_len = 0;
        rec->aad = NULL;
        rec->aad_count = 0;
        rec->out = NULL;
        rec->result = 0;
        if (views_get(&views, PyTuple_GetItem(datas, i), &rec->in, &rec->in_len) < 0) {
            fail((PyObject *)self, FAIL_CONVERT, i, 0);
            goto done;
        }
        PyObject *comps;
        if (siv_list(self, aads != NULL ? PyTuple_GetItem(aads, i) : Py_None, i, &comps) < 0) goto done;
        if (comps == NULL) {
            Py_INCREF(Py_None);
            comps = Py_None;
        } else {
            rec->aad_count = (size_t)PyTuple_Size(comps);
            components += (Py_ssize_t)rec->aad_count; /* <= 126 per record: no wrap below PY_SSIZE_T_MAX */
        }
        PyTuple_SetItem(lists, i, comps); /* steals comps */
        const Py_ssize_t in_len = (Py_ssize_t)rec->in_len;
        Py_ssize_t out_len = 0;
        const Py_ssize_t code = siv_check(self, op, in_len, &out_len);
        if (code != 0) {
            fail((PyObject *)self, code, i, 0);
            goto done;
        }
        rec->out_cap = (size_t)out_len;
        if (batch_add((PyObject *)self, i, in_len, out_len, &total, &total_in) < 0) goto done;
    }
    if (components > 0) {
        if ((bufs = (aead_buf *)batch_alloc(components, sizeof(aead_buf))) == NULL) goto done;
        Py_ssize_t at = 0;
        for (Py_ssize_t i = 0; i < n; i++) {
            if (recs[i].aad_count == 0) continue;
            if (siv_fill(self, PyTuple_GetItem(lists, i), &views, bufs + at, i, &total_in) < 0) goto done;
            recs[i].aad = bufs + at;
            at += (Py_ssize_t)recs[i].aad_count;
        }
    }
    BATCH_RUN(&SIV_RECORD_LAYOUT, seal_open_many_v_p, siv_result_code);
done:
    batch_release(&views, have_buf ? &bufview : NULL, recs != stack_records ? recs : NULL, bufs, outs, lists, datas,
                  aads);
    return result;
}

/* _bind(owner, address, no_empty): once, from the Python constructor. */
static PyObject *Siv_bind(PyObject *op, PyObject *args) {
    Core *self = (Core *)op;
    PyObject *owner;
    unsigned long long address;
    int no_empty;
    if (!PyArg_ParseTuple(args, "OKp", &owner, &address, &no_empty) || bind_ctx(self, owner, address) < 0) return NULL;
    self->overhead = SIV_TAG;
    self->siv_no_empty = no_empty;
    Py_RETURN_NONE;
}

ENTRY_POINTS(Siv, siv_many, _many)
#endif /* AEAD_VERSION_NUMBER >= 10300 */

/* _bind(owner, address, nonce_min, nonce_max, random_nonce, max_plaintext, overhead, ccm): once, from the
 * Python constructor. overhead: the tag length, plus the drawn nonce's for a random-nonce policy. */
static PyObject *Core_bind(PyObject *op, PyObject *args) {
    Core *self = (Core *)op;
    PyObject *owner;
    unsigned long long address;
    Py_ssize_t nmin, nmax, max_in, overhead;
    int rn, ccm;
    if (!PyArg_ParseTuple(args, "OKnnpnnp", &owner, &address, &nmin, &nmax, &rn, &max_in, &overhead, &ccm))
        return NULL;
    if (max_in < 0 || max_in > PY_SSIZE_T_MAX / 2) {
        PyErr_SetString(PyExc_ValueError, "libaead: bad plaintext limit");
        return NULL;
    }
    if (overhead < 1 || overhead > 64 || (ccm && (nmin < 7 || nmax > 13))) {
        PyErr_SetString(PyExc_ValueError, "libaead: bad overhead or CCM nonce range");
        return NULL;
    }
    if (bind_ctx(self, owner, address) < 0) return NULL;
    self->nonce_min = nmin;
    self->nonce_max = nmax;
    self->random_nonce = rn;
    self->max_in = max_in;
    self->overhead = overhead;
    self->ccm = ccm;
    Py_RETURN_NONE;
}

static void Core_dealloc(PyObject *op) {
    Core *self = (Core *)op;
    PyTypeObject *tp = Py_TYPE(op);
    self->ctx = NULL;
    Py_CLEAR(self->owner); /* frees the context through cffi's ffi.gc */
    freefunc tp_free = (freefunc)PyType_GetSlot(tp, Py_tp_free);
    tp_free(op);
    Py_DECREF(tp);
}

static PyObject *Core_new(PyTypeObject *type, PyObject *args, PyObject *kwds) {
    (void)args;
    (void)kwds;
    allocfunc alloc = (allocfunc)PyType_GetSlot(type, Py_tp_alloc);
    PyObject *self = alloc(type, 0); /* zero-filled: ctx NULL until _bind */
    return self;
}

#define FASTKW (METH_FASTCALL | METH_KEYWORDS)
#define METHOD(name, fn, sig, doc) {name, (PyCFunction)(void (*)(void))fn, FASTKW, name "($self, " sig ")\n--\n\n" doc}
#define BIND_AND_END(fn) {"_bind", fn, METH_VARARGS, NULL}, {NULL, NULL, 0, NULL} /* the last two rows of a table */
/* The single-record methods of a type (P: Core or Siv) taking `sig` (then buf): `sealed` names what encrypt returns
 * (`note` follows it in encrypt's text), `overhead` how much longer it is than the plaintext. */
#define SINGLE_METHODS(P, sig, sealed, note, overhead)                                                             \
    METHOD("encrypt", P##_encrypt, sig, "Returns " sealed note "."),                                              \
    METHOD("decrypt", P##_decrypt, sig,                                                                          \
           "Verifies " sealed " and returns the plaintext; raises InvalidTag on any failure."),                 \
    METHOD("encrypt_into", P##_encrypt_into, sig ", buf",                                                         \
           "Writes " sealed " into buf (exactly len(data) + " overhead "); returns that count."),                \
    METHOD("decrypt_into", P##_decrypt_into, sig ", buf",                                                         \
           "Writes the plaintext into buf (exactly len(data) - " overhead "); returns that count. On failure buf " \
           "is left zeroed.")
/* The batch methods of a type (P: Core or Siv) whose single-record methods take `sig`; `outs` names what a record
 * gives when sealed. */
#define MANY_METHODS(P, sig, outs)                                                                           \
    METHOD("encrypt_many", P##_encrypt_many, sig, "encrypt of every record in one C call; returns a list of bytes."), \
    METHOD("decrypt_many", P##_decrypt_many, sig, "decrypt of every record in one C call; returns a list of bytes."), \
    METHOD("encrypt_many_into", P##_encrypt_many_into, sig ", buf",                                          \
           "The records' " outs " back to back in buf (exactly the sum of their lengths); returns the total."),   \
    METHOD("decrypt_many_into", P##_decrypt_many_into, sig ", buf",                                          \
           "The records' plaintexts back to back in buf (exactly the sum of their lengths); returns the total.")
/* A type over Core with its method table Name_methods: Name_spec, named libaead._fast.Name. */
#define CORE_TYPE(Name, doc)                                                                                 \
    static PyType_Slot Name##_slots[] = {                                                                    \
        {Py_tp_new, (void *)Core_new},                                                                       \
        {Py_tp_dealloc, (void *)Core_dealloc},                                                               \
        {Py_tp_methods, Name##_methods},                                                                     \
        {Py_tp_doc, doc},                                                                                    \
        {0, NULL},                                                                                           \
    };                                                                                                       \
    static PyType_Spec Name##_spec = {                                                                       \
        "libaead._fast." #Name, (int)sizeof(Core), 0, Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE, Name##_slots, \
    };

/* The same functions under two signatures (the text signatures feed inspect.signature): with a nonce
 * argument (pyca's shape) and without (AEAD_POLICY_RANDOM_NONCE draws it). */
static PyMethodDef Core_methods[] = {
    SINGLE_METHODS(Core, "nonce, data, associated_data", "ciphertext || tag", " (16 bytes; AESCCM, Aegis*: tag_length)",
                   "the tag length"),
    MANY_METHODS(Core, "nonces, datas, associated_datas", "ciphertexts"),
    BIND_AND_END(Core_bind),
};

static PyMethodDef RandomNonceCore_methods[] = {
    SINGLE_METHODS(Core, "data, associated_data", "nonce || ciphertext || tag",
                   " (nonce: NONCE_SIZE bytes, tag: 16; Aegis*: tag_length)", "OVERHEAD bytes"),
    MANY_METHODS(Core, "datas, associated_datas", "outputs"),
    BIND_AND_END(Core_bind),
};

CORE_TYPE(Core, "libaead's compiled hot path; the public classes derive from it.")
CORE_TYPE(RandomNonceCore, "libaead's compiled hot path for AEAD_POLICY_RANDOM_NONCE (no nonce argument).")
#ifdef HAVE_SIV
static PyMethodDef SivCore_methods[] = {
    SINGLE_METHODS(Siv, "data, associated_data", "SIV || ciphertext",
                   " (SIV: 16 bytes); associated_data is a list of components (or None)", "16"),
    MANY_METHODS(Siv, "datas, associated_datas", "outputs"),
    BIND_AND_END(Siv_bind),
};

CORE_TYPE(SivCore, "libaead's compiled hot path for AES-SIV (associated data as components).")
#endif

static PyObject *set_error_hook(PyObject *mod, PyObject *hook) {
    (void)mod;
    PyObject *old = error_hook;
    Py_INCREF(hook);
    error_hook = hook;
    Py_XDECREF(old);
    Py_RETURN_NONE;
}

static PyObject *set_gil_threshold(PyObject *mod, PyObject *arg) {
    (void)mod;
    Py_ssize_t v = PyLong_AsSsize_t(arg);
    if (v == -1 && PyErr_Occurred()) return NULL;
    if (v < 0) {
        PyErr_SetString(PyExc_ValueError, "threshold must be >= 0");
        return NULL;
    }
    Py_ssize_t old = gil_threshold;
    gil_threshold = v;
    return PyLong_FromSsize_t(old);
}

static PyObject *get_gil_threshold(PyObject *mod, PyObject *unused) {
    (void)mod;
    (void)unused;
    return PyLong_FromSsize_t(gil_threshold);
}

/* QUIC (library 1.2): one packet per call for libaead.quic.PacketProtector. The two functions are
 * reached through pointers that libaead/quic.py hands over (set_quic, from cffi's lib), so this module
 * still loads on a 1.1 library, which lacks them. ctx and hp are the addresses of the objects the
 * PacketProtector keeps alive (ffi.gc) for as long as it can call here. A refusal of the library is
 * returned as its negative code (an int), for Python to raise; argument errors raise here. */
typedef int64_t (*quic_protect_fn)(aead_ctx *, aead_hp *, uint64_t, uint8_t *, size_t, size_t, size_t);
typedef int64_t (*quic_unprotect_fn)(aead_ctx *, aead_hp *, uint64_t, uint8_t *, size_t, size_t, uint64_t *);
typedef int64_t (*hp_mask_fn)(aead_hp *, const uint8_t *, size_t, uint8_t *, size_t);
static quic_protect_fn quic_protect_p;
static quic_unprotect_fn quic_unprotect_p;
static hp_mask_fn hp_mask_p;

static PyObject *set_quic(PyObject *mod, PyObject *args) {
    (void)mod;
    unsigned long long protect, unprotect, mask;
    if (!PyArg_ParseTuple(args, "KKK", &protect, &unprotect, &mask)) return NULL;
    quic_protect_p = (quic_protect_fn)(uintptr_t)protect;
    quic_unprotect_p = (quic_unprotect_fn)(uintptr_t)unprotect;
    hp_mask_p = (hp_mask_fn)(uintptr_t)mask;
    Py_RETURN_NONE;
}

/* hp_mask(hp, sample) -> the 5-byte mask (bytes), or a negative code (a sample that is not 16 bytes). */
static PyObject *hp_mask(PyObject *mod, PyObject *const *args, Py_ssize_t nargs) {
    (void)mod;
    if (nargs != 2 || hp_mask_p == NULL) {
        PyErr_SetString(PyExc_TypeError, "hp_mask(hp, sample) (after set_quic)");
        return NULL;
    }
    aead_hp *hp = (aead_hp *)PyLong_AsVoidPtr(args[0]);
    if (hp == NULL && PyErr_Occurred()) return NULL;
    Input in;
    if (get_input(args[1], &in) < 0) return NULL;
    uint8_t mask[5];
    const int64_t r = hp_mask_p(hp, in.ptr, (size_t)in.len, mask, sizeof mask);
    release_input(&in);
    if (r < 0) return PyLong_FromLongLong(r);
    return PyBytes_FromStringAndSize((const char *)mask, sizeof mask);
}

/* seal_open(ctx, op, nonce, aad, data) -> bytes, or a negative code: libaead.quic.AEAD's encrypt and
 * decrypt (packets: the GIL is kept). */
static PyObject *seal_open(PyObject *mod, PyObject *const *args, Py_ssize_t nargs) {
    (void)mod;
    if (nargs != 5) {
        PyErr_SetString(PyExc_TypeError, "seal_open(ctx, op, nonce, aad, data)");
        return NULL;
    }
    aead_ctx *ctx = (aead_ctx *)PyLong_AsVoidPtr(args[0]);
    if (ctx == NULL && PyErr_Occurred()) return NULL;
    const long op = PyLong_AsLong(args[1]);
    if (op == -1 && PyErr_Occurred()) return NULL;
    Input n, a, d;
    if (get_input(args[2], &n) < 0) return NULL;
    if (get_input(args[3], &a) < 0) {
        release_input(&n);
        return NULL;
    }
    if (get_input(args[4], &d) < 0) {
        release_input(&n);
        release_input(&a);
        return NULL;
    }
    const Py_ssize_t dl = d.len; /* read once */
    PyObject *result = NULL;
    if (op == AEAD_OPEN && dl < TAG) {
        result = PyLong_FromLong(AEAD_ERR_AUTH);
    } else if (op == AEAD_SEAL && dl > PY_SSIZE_T_MAX - TAG) {
        result = PyLong_FromLong(AEAD_ERR_TOO_LONG);
    } else {
        const Py_ssize_t out_len = op == AEAD_SEAL ? dl + TAG : dl - TAG;
        PyObject *out = PyBytes_FromStringAndSize(NULL, out_len);
        if (out != NULL) {
            const int64_t r = aead_seal_open(ctx, (int)op, n.ptr, (size_t)n.len, a.ptr, (size_t)a.len, d.ptr,
                                             (size_t)dl, (uint8_t *)PyBytes_AsString(out), (size_t)out_len);
            if (r < 0) {
                Py_DECREF(out);
                result = PyLong_FromLongLong(r);
            } else {
                result = out;
            }
        }
    }
    release_input(&n);
    release_input(&a);
    release_input(&d);
    return result;
}

typedef struct {
    aead_ctx *ctx;
    aead_hp *hp;
    uint64_t number; /* the packet number (protect) or the largest received (unprotect) */
} QuicArgs;

static int quic_keys(PyObject *const *args, Py_ssize_t nargs, const char *fname, QuicArgs *q) {
    if (nargs != 5) {
        PyErr_Format(PyExc_TypeError, "%s takes 5 arguments", fname);
        return -1;
    }
    if ((fname[5] == 'p' ? quic_protect_p == NULL : quic_unprotect_p == NULL)) {
        PyErr_SetString(PyExc_RuntimeError, "libaead._fast: set_quic was not called");
        return -1;
    }
    q->ctx = (aead_ctx *)PyLong_AsVoidPtr(args[0]);
    if (q->ctx == NULL && PyErr_Occurred()) return -1;
    q->hp = (aead_hp *)PyLong_AsVoidPtr(args[1]);
    if (q->hp == NULL && PyErr_Occurred()) return -1;
    unsigned long long n = PyLong_AsUnsignedLongLong(args[2]);
    if (n == (unsigned long long)-1 && PyErr_Occurred()) return -1;
    q->number = (uint64_t)n;
    return 0;
}

/* quic_protect(ctx, hp, pn, header, payload) -> the protected packet (bytes), or a negative code. */
static PyObject *quic_protect(PyObject *mod, PyObject *const *args, Py_ssize_t nargs) {
    (void)mod;
    QuicArgs q;
    if (quic_keys(args, nargs, "quic_protect", &q) < 0) return NULL;
    Input h, p;
    if (get_input(args[3], &h) < 0) return NULL;
    if (get_input(args[4], &p) < 0) {
        release_input(&h);
        return NULL;
    }
    const Py_ssize_t hl = h.len, pl = p.len; /* read once */
    PyObject *out = NULL;
    if (pl > PY_SSIZE_T_MAX - TAG - hl) {
        PyErr_SetString(PyExc_OverflowError, "packet too long");
    } else {
        out = PyBytes_FromStringAndSize(NULL, hl + pl + TAG);
        if (out != NULL) {
            uint8_t *buf = (uint8_t *)PyBytes_AsString(out);
            memcpy(buf, h.ptr, (size_t)hl);
            memcpy(buf + hl, p.ptr, (size_t)pl);
        }
    }
    release_input(&h);
    release_input(&p);
    if (out == NULL) return NULL;
    const int64_t r = quic_protect_p(q.ctx, q.hp, q.number, (uint8_t *)PyBytes_AsString(out), (size_t)hl, (size_t)pl,
                                     (size_t)(hl + pl + TAG));
    if (r < 0) {
        Py_DECREF(out);
        return PyLong_FromLongLong(r);
    }
    return out;
}

/* quic_unprotect(ctx, hp, largest_pn, packet, pn_offset) -> (header, payload, pn), or a negative code. */
static PyObject *quic_unprotect(PyObject *mod, PyObject *const *args, Py_ssize_t nargs) {
    (void)mod;
    QuicArgs q;
    if (quic_keys(args, nargs, "quic_unprotect", &q) < 0) return NULL;
    const Py_ssize_t pn_offset = PyLong_AsSsize_t(args[4]);
    if (pn_offset == -1 && PyErr_Occurred()) return NULL;
    if (pn_offset < 0) {
        PyErr_SetString(PyExc_OverflowError, "can't convert negative number to unsigned long");
        return NULL;
    }
    Input in;
    if (get_input(args[3], &in) < 0) return NULL;
    const Py_ssize_t n = in.len; /* read once */
    uint8_t stack[2048];
    uint8_t *buf = n <= (Py_ssize_t)sizeof stack ? stack : (uint8_t *)PyMem_Malloc((size_t)n);
    if (buf == NULL) {
        release_input(&in);
        return PyErr_NoMemory();
    }
    memcpy(buf, in.ptr, (size_t)n);
    release_input(&in);
    uint64_t pn = 0;
    const int64_t r = quic_unprotect_p(q.ctx, q.hp, q.number, buf, (size_t)pn_offset, (size_t)n, &pn);
    PyObject *result;
    if (r < 0) {
        result = PyLong_FromLongLong(r);
    } else {
        const Py_ssize_t hl = n - TAG - (Py_ssize_t)r;
        result = Py_BuildValue("(y#y#K)", (const char *)buf, hl, (const char *)buf + hl, (Py_ssize_t)r,
                               (unsigned long long)pn);
    }
    memset(buf, 0, (size_t)n);
    if (buf != stack) PyMem_Free(buf);
    return result;
}

static PyMethodDef module_methods[] = {
    {"set_error_hook", set_error_hook, METH_O, NULL},
    {"set_gil_threshold", set_gil_threshold, METH_O,
     "Sets the input size (bytes) from which calls release the GIL; returns the previous value."},
    {"gil_threshold", get_gil_threshold, METH_NOARGS, NULL},
    {"set_quic", set_quic, METH_VARARGS, NULL},
#ifdef HAVE_SIV
    {"set_siv", set_siv, METH_VARARGS, NULL},
#endif
    {"quic_protect", (PyCFunction)(void (*)(void))quic_protect, METH_FASTCALL, NULL},
    {"quic_unprotect", (PyCFunction)(void (*)(void))quic_unprotect, METH_FASTCALL, NULL},
    {"hp_mask", (PyCFunction)(void (*)(void))hp_mask, METH_FASTCALL, NULL},
    {"seal_open", (PyCFunction)(void (*)(void))seal_open, METH_FASTCALL, NULL},
    {NULL, NULL, 0, NULL},
};

static int add_type(PyObject *m, const char *name, PyType_Spec *spec) {
    PyObject *type = PyType_FromSpec(spec);
    if (type == NULL) return -1;
    if (PyModule_AddObject(m, name, type) < 0) {
        Py_DECREF(type);
        return -1;
    }
    return 0;
}

static int module_exec(PyObject *m) {
    if (add_type(m, "Core", &Core_spec) < 0 || add_type(m, "RandomNonceCore", &RandomNonceCore_spec) < 0) return -1;
#ifdef HAVE_SIV
    if (add_type(m, "SivCore", &SivCore_spec) < 0) return -1;
#endif
    if (PyModule_AddIntConstant(m, "FAIL_BUFFER_SIZE", FAIL_BUFFER_SIZE) < 0 ||
        PyModule_AddIntConstant(m, "FAIL_CONVERT", FAIL_CONVERT) < 0 ||
        PyModule_AddIntConstant(m, "FAIL_LENGTHS", FAIL_LENGTHS) < 0 ||
        PyModule_AddIntConstant(m, "FAIL_UNBOUND", FAIL_UNBOUND) < 0 ||
        PyModule_AddIntConstant(m, "FAIL_TOTAL", FAIL_TOTAL) < 0 ||
        PyModule_AddIntConstant(m, "FAIL_CCM_LENGTH", FAIL_CCM_LENGTH) < 0 ||
        PyModule_AddIntConstant(m, "FAIL_SIV_EMPTY", FAIL_SIV_EMPTY) < 0 ||
        PyModule_AddIntConstant(m, "FAIL_SIV_COMPONENTS", FAIL_SIV_COMPONENTS) < 0 ||
        PyModule_AddIntConstant(m, "FAIL_NOT_LIST", FAIL_NOT_LIST) < 0 ||
        PyModule_AddIntConstant(m, "ABI_VERSION_NUMBER", AEAD_VERSION_NUMBER) < 0)
        return -1;
    return 0;
}

static PyModuleDef_Slot module_slots[] = {
    {Py_mod_exec, (void *)module_exec},
    {0, NULL},
};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT, "libaead._fast", "libaead's compiled hot path (see Core).", 0, module_methods,
    module_slots, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__fast(void) { return PyModuleDef_Init(&module_def); }
