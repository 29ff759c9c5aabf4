// The libaead Node.js addon: each seal or open is one call into aead_seal_open (aead_seal_open_v for
// AES-SIV's components, aead_seal_open_many for batches) on the caller's views, with no copy of any
// input. The JavaScript side (index.js) allocates the output Buffer and maps return codes to errors.
//
// Argument conversion refuses, with a TypeError and before the library is called (so nothing is
// written): anything but a TypedArray, DataView or ArrayBuffer (SharedArrayBuffer views included), a
// detached ArrayBuffer, and a view on one. Offsets are checked here as well as in JavaScript.
//
// Contexts: a native handle (napi External) owns one aead_ctx. close() frees it at once (the library
// cleanses the key material); the External's finalizer frees a forgotten one when it is collected or
// when the environment (a worker thread) ends. A context belongs to the thread that made it: each
// worker_threads Worker loads its own instance of this addon and makes its own contexts.
#define NAPI_VERSION 8
#include <napi.h>

#include <cstdint>
#include <cstring>
#include <mutex>
#include <new>
#include <vector>

#include "aead.h"

namespace {

// ctx stays valid while asynchronous calls on it are in the thread pool (pending > 0): close() then only
// marks the handle closed, and the last of them to complete frees the context.
// magic tells an AEAD handle from an HPKE or stream one (all are napi Externals): each handle type's first
// member, with its kMagic.
struct Handle {
    static constexpr uint32_t kMagic = 0x61656164u;
    uint32_t magic;
    aead_ctx *ctx;
    unsigned pending;
    bool closed;
    bool open() const { return !closed && ctx != nullptr; }
    aead_ctx *context() const { return ctx; }
};

void finalize_handle(napi_env, void *data, void *) {
    auto *h = static_cast<Handle *>(data);
    aead_ctx_free(h->ctx);
    delete h;
}

void release(Handle *h) {
    if (h->closed && h->pending == 0) {
        aead_ctx_free(h->ctx);
        h->ctx = nullptr;
    }
}

bool throw_type(napi_env env, const char *msg) {
    napi_throw_type_error(env, "ERR_INVALID_ARG_TYPE", msg);
    return false;
}

bool throw_range(napi_env env, const char *msg) {
    napi_throw_range_error(env, "ERR_OUT_OF_RANGE", msg);
    return false;
}

size_t element_size(napi_typedarray_type t) {
    switch (t) {
    case napi_int16_array:
    case napi_uint16_array:
        return 2;
    case napi_int32_array:
    case napi_uint32_array:
    case napi_float32_array:
        return 4;
    case napi_float64_array:
    case napi_bigint64_array:
    case napi_biguint64_array:
        return 8;
    default:
        return 1;
    }
}

bool detached_error(napi_env env) {
    napi_throw_type_error(env, "ERR_INVALID_STATE", "a detached ArrayBuffer (transferred or detached) cannot be used");
    return false;
}

// A byte view of v: TypedArray, DataView or ArrayBuffer; null/undefined is (NULL, 0) when allowed.
// The common case (a non-empty TypedArray) costs two N-API calls; only an empty view is checked for a
// detached buffer (a detached buffer's views are empty).
bool view(napi_env env, napi_value v, const char *name, bool nullable, uint8_t **data, size_t *len) {
    *data = nullptr;
    *len = 0;
    bool is = false;
    void *p = nullptr;
    napi_value ab = nullptr;
    if (napi_is_typedarray(env, v, &is) == napi_ok && is) {
        napi_typedarray_type t;
        size_t n = 0;
        if (napi_get_typedarray_info(env, v, &t, &n, &p, nullptr, nullptr) != napi_ok)
            return throw_type(env, name);
        *len = n * element_size(t);
        if (*len == 0 || p == nullptr) {
            *len = 0;
            if (napi_get_typedarray_info(env, v, &t, &n, &p, &ab, nullptr) != napi_ok)
                return throw_type(env, name);
        }
    } else if (napi_is_dataview(env, v, &is) == napi_ok && is) {
        if (napi_get_dataview_info(env, v, len, &p, &ab, nullptr) != napi_ok)
            return throw_type(env, name);
    } else if (napi_is_arraybuffer(env, v, &is) == napi_ok && is) {
        ab = v;
        if (napi_get_arraybuffer_info(env, v, &p, len) != napi_ok)
            return throw_type(env, name);
    } else {
        napi_valuetype vt;
        if (nullable && napi_typeof(env, v, &vt) == napi_ok && (vt == napi_undefined || vt == napi_null))
            return true;
        return throw_type(env, name);
    }
    bool detached = false;
    if (ab != nullptr && napi_is_detached_arraybuffer(env, ab, &detached) == napi_ok && detached)
        return detached_error(env);
    *data = static_cast<uint8_t *>(p);
    if (*data == nullptr)
        *len = 0;
    return true;
}

// The T (Handle, HpkeHandle or StreamHandle) that External v holds, or nullptr for any other value.
template <typename T>
T *external(napi_env env, napi_value v) {
    void *p = nullptr;
    if (napi_get_value_external(env, v, &p) != napi_ok || p == nullptr || static_cast<T *>(p)->magic != T::kMagic)
        return nullptr;
    return static_cast<T *>(p);
}

// The T of a free call's one argument (free, hpkeFree, streamFree), or nullptr: freeing anything else does nothing.
template <typename T>
T *free_arg(napi_env env, napi_callback_info info) {
    size_t argc = 1;
    napi_value a[1];
    napi_get_cb_info(env, info, &argc, a, nullptr, nullptr);
    return argc == 1 ? external<T>(env, a[0]) : nullptr;
}

bool throw_closed(napi_env env, const char *msg) {
    napi_throw_error(env, "ERR_AEAD_CLOSED", msg);
    return false;
}

// The context of the open T (Handle, HpkeHandle or StreamHandle: open() and context()) that External v
// holds, and the T itself when hp is given; or false after throwing: a TypeError not_one for any other
// value, ERR_AEAD_CLOSED closed_msg once it was closed.
template <typename T, typename C>
bool open_handle(napi_env env, napi_value v, C **ctx, T **hp, const char *not_one, const char *closed_msg) {
    T *h = external<T>(env, v);
    if (h == nullptr)
        return throw_type(env, not_one);
    if (!h->open())
        return throw_closed(env, closed_msg);
    *ctx = h->context();
    if (hp != nullptr)
        *hp = h;
    return true;
}

bool handle(napi_env env, napi_value v, aead_ctx **ctx, Handle **hp = nullptr) {
    return open_handle(env, v, ctx, hp, "not a libaead context", "this libaead object was closed");
}

bool int_arg(napi_env env, napi_value v, int32_t *out) {
    if (napi_get_value_int32(env, v, out) != napi_ok)
        return throw_type(env, "expected an integer");
    return true;
}

// out view at a byte offset: (pointer, capacity).
bool out_view(napi_env env, napi_value v, napi_value off_v, uint8_t **out, size_t *cap) {
    uint8_t *p;
    size_t n;
    if (!view(env, v, "output must be a TypedArray, DataView or ArrayBuffer", false, &p, &n))
        return false;
    double off = 0;
    if (napi_get_value_double(env, off_v, &off) != napi_ok)
        return throw_type(env, "offset must be a number");
    if (!(off >= 0) || off > static_cast<double>(n) || off != static_cast<double>(static_cast<size_t>(off)))
        return throw_range(env, "offset must be an integer from 0 to the output's byteLength");
    const auto o = static_cast<size_t>(off);
    *out = p == nullptr ? nullptr : p + o;
    *cap = n - o;
    if (*cap == 0)
        *out = nullptr;
    return true;
}

napi_value number(napi_env env, double d) {
    napi_value r;
    napi_create_double(env, d, &r);
    return r;
}

// An External that owns h: fin runs when it is collected, or now if the External cannot be made.
napi_value own(napi_env env, void *h, napi_finalize fin) {
    napi_value ext;
    if (napi_create_external(env, h, fin, nullptr, &ext) != napi_ok) {
        fin(env, h, nullptr);
        return nullptr;
    }
    return ext;
}

// create(alg, policy, key, tagLen, iv | null, properties | null) -> External, or a negative code.
napi_value Create(napi_env env, napi_callback_info info) {
    size_t argc = 6;
    napi_value a[6];
    napi_get_cb_info(env, info, &argc, a, nullptr, nullptr);
    int32_t alg, policy, tag;
    uint8_t *key, *iv;
    size_t key_len, iv_len;
    if (argc < 6 || !int_arg(env, a[0], &alg) || !int_arg(env, a[1], &policy) ||
        !view(env, a[2], "key must be a TypedArray, DataView or ArrayBuffer", false, &key, &key_len) ||
        !int_arg(env, a[3], &tag) ||
        !view(env, a[4], "iv must be a TypedArray, DataView or ArrayBuffer", true, &iv, &iv_len))
        return nullptr;
    if (tag < 0)
        return number(env, AEAD_ERR_TAG_SIZE);
    char props[512];
    const char *properties = nullptr;
    napi_valuetype vt;
    napi_typeof(env, a[5], &vt);
    if (vt == napi_string) {
        size_t n = 0;
        napi_get_value_string_utf8(env, a[5], props, sizeof props, &n);
        if (n >= sizeof props - 1)
            return number(env, AEAD_ERR_ARG);
        properties = props;
    }
    aead_ctx *ctx = nullptr;
    const int rc = aead_ctx_new_ex(&ctx, alg, policy, key, key_len, static_cast<size_t>(tag), properties, iv, iv_len);
    if (rc != 0)
        return number(env, rc);
    return own(env, new Handle{Handle::kMagic, ctx, 0, false}, finalize_handle);
}

// free(handle): frees and cleanses now; later calls on the handle throw; the finalizer does nothing.
napi_value Free(napi_env env, napi_callback_info info) {
    if (Handle *h = free_arg<Handle>(env, info)) {
        h->closed = true;
        release(h);
    }
    return nullptr;
}

// The arguments sealOpen and sealOpenV share: (handle, op, nonce | null, <aad>, input, out, outOffset).
struct Call {
    aead_ctx *ctx;
    int32_t op;
    uint8_t *nonce, *in, *out;
    size_t nonce_len, in_len, out_cap;
};

bool call_args(napi_env env, napi_callback_info info, napi_value (&a)[7], Call *c) {
    size_t argc = 7;
    napi_get_cb_info(env, info, &argc, a, nullptr, nullptr);
    if (argc < 7)
        return throw_type(env, "expected 7 arguments");
    return handle(env, a[0], &c->ctx) && int_arg(env, a[1], &c->op) &&
           view(env, a[2], "nonce must be a TypedArray, DataView or ArrayBuffer", true, &c->nonce, &c->nonce_len) &&
           view(env, a[4], "data must be a TypedArray, DataView or ArrayBuffer", false, &c->in, &c->in_len) &&
           out_view(env, a[5], a[6], &c->out, &c->out_cap);
}

// sealOpen(handle, op, nonce | null, aad | null, input, out, outOffset) -> result (>= 0) or code (< 0).
napi_value SealOpen(napi_env env, napi_callback_info info) {
    napi_value a[7];
    Call c;
    uint8_t *aad;
    size_t aad_len;
    if (!call_args(env, info, a, &c) ||
        !view(env, a[3], "associated data must be a TypedArray, DataView, ArrayBuffer or null", true, &aad, &aad_len))
        return nullptr;
    return number(env, static_cast<double>(aead_seal_open(c.ctx, c.op, c.nonce, c.nonce_len, aad, aad_len, c.in,
                                                          c.in_len, c.out, c.out_cap)));
}

// sealOpenAsync(handle, op, nonce, aad | null, input, out) -> Promise<result or code>: the same call in
// libuv's thread pool. The inputs are copied first (the caller may change, transfer or detach them while
// the work runs; the copies are wiped afterwards); out is a Buffer the JavaScript side allocated and
// does not hand out before the promise settles, kept alive by a reference, and written in place.
struct AsyncCall {
    napi_async_work work;
    napi_deferred deferred;
    napi_ref handle_ref, out_ref;
    Handle *h;
    int32_t op;
    uint8_t *mem;  // nonce || aad || input
    size_t nonce_len, aad_len, in_len, mem_len;
    uint8_t *out;
    size_t out_cap;
    int64_t result;
};

void async_execute(napi_env, void *data) {
    auto *c = static_cast<AsyncCall *>(data);
    const uint8_t *nonce = c->nonce_len ? c->mem : nullptr;
    const uint8_t *aad = c->aad_len ? c->mem + c->nonce_len : nullptr;
    const uint8_t *in = c->in_len ? c->mem + c->nonce_len + c->aad_len : nullptr;
    c->result = aead_seal_open(c->h->ctx, c->op, nonce, c->nonce_len, aad, c->aad_len, in, c->in_len, c->out, c->out_cap);
}

void async_complete(napi_env env, napi_status, void *data) {
    auto *c = static_cast<AsyncCall *>(data);
    if (c->mem != nullptr) {
        explicit_bzero(c->mem, c->mem_len);
        delete[] c->mem;
    }
    c->h->pending--;
    release(c->h);
    napi_resolve_deferred(env, c->deferred, number(env, static_cast<double>(c->result)));
    napi_delete_reference(env, c->handle_ref);
    napi_delete_reference(env, c->out_ref);
    napi_delete_async_work(env, c->work);
    delete c;
}

napi_value SealOpenAsync(napi_env env, napi_callback_info info) {
    size_t argc = 6;
    napi_value a[6];
    napi_get_cb_info(env, info, &argc, a, nullptr, nullptr);
    aead_ctx *ctx;
    Handle *h;
    int32_t op;
    uint8_t *nonce, *aad, *in, *out;
    size_t nonce_len, aad_len, in_len, out_cap;
    if (argc < 6 || !handle(env, a[0], &ctx, &h) || !int_arg(env, a[1], &op) ||
        !view(env, a[2], "nonce must be a TypedArray, DataView or ArrayBuffer", true, &nonce, &nonce_len) ||
        !view(env, a[3], "associated data must be a TypedArray, DataView, ArrayBuffer or null", true, &aad, &aad_len) ||
        !view(env, a[4], "data must be a TypedArray, DataView or ArrayBuffer", false, &in, &in_len) ||
        !view(env, a[5], "output must be a TypedArray, DataView or ArrayBuffer", false, &out, &out_cap))
        return nullptr;
    auto *c = new AsyncCall{};
    c->h = h;
    c->op = op;
    c->nonce_len = nonce_len;
    c->aad_len = aad_len;
    c->in_len = in_len;
    c->mem_len = nonce_len + aad_len + in_len;
    c->mem = c->mem_len ? new (std::nothrow) uint8_t[c->mem_len] : nullptr;
    if (c->mem_len && c->mem == nullptr) {
        delete c;
        return number(env, AEAD_ERR_NOMEM);
    }
    if (nonce_len)
        std::memcpy(c->mem, nonce, nonce_len);
    if (aad_len)
        std::memcpy(c->mem + nonce_len, aad, aad_len);
    if (in_len)
        std::memcpy(c->mem + nonce_len + aad_len, in, in_len);
    c->out = out;
    c->out_cap = out_cap;
    napi_value promise, name;
    napi_create_promise(env, &c->deferred, &promise);
    napi_create_reference(env, a[0], 1, &c->handle_ref);
    napi_create_reference(env, a[5], 1, &c->out_ref);
    napi_create_string_utf8(env, "libaead.sealOpenAsync", NAPI_AUTO_LENGTH, &name);
    napi_create_async_work(env, nullptr, name, async_execute, async_complete, c, &c->work);
    h->pending++;
    napi_queue_async_work(env, c->work);
    return promise;
}

// Components of an array of views (AES-SIV); false with an exception pending.
bool components(napi_env env, napi_value arr, std::vector<aead_buf> *bufs) {
    napi_valuetype vt;
    napi_typeof(env, arr, &vt);
    if (vt == napi_undefined || vt == napi_null)
        return true;
    bool is = false;
    napi_is_array(env, arr, &is);
    if (!is)
        return throw_type(env, "associated data must be an array of TypedArray, DataView or ArrayBuffer, or null");
    uint32_t n = 0;
    napi_get_array_length(env, arr, &n);
    if (n > AEAD_SIV_MAX_COMPONENTS + 1)  // the library refuses more with AEAD_ERR_TOO_LONG; bound the work
        n = AEAD_SIV_MAX_COMPONENTS + 1;
    bufs->resize(n);
    for (uint32_t i = 0; i < n; i++) {
        napi_value e;
        uint8_t *p;
        size_t len;
        if (napi_get_element(env, arr, i, &e) != napi_ok ||
            !view(env, e, "each associated data component must be a TypedArray, DataView or ArrayBuffer", false, &p, &len))
            return false;
        (*bufs)[i] = aead_buf{p, len};
    }
    return true;
}

// sealOpenV(handle, op, nonce | null, components | null, input, out, outOffset) -> result or code.
napi_value SealOpenV(napi_env env, napi_callback_info info) {
    napi_value a[7];
    Call c;
    std::vector<aead_buf> bufs;
    if (!call_args(env, info, a, &c) || !components(env, a[3], &bufs))
        return nullptr;
    return number(env, static_cast<double>(aead_seal_open_v(c.ctx, c.op, c.nonce, c.nonce_len, bufs.data(), bufs.size(),
                                                            c.in, c.in_len, c.out, c.out_cap)));
}

// sealOpenMany(handle, op, nonces[] | null, aads[] | null, inputs[], outs[], results: Float64Array)
// -> count of records with a result >= 0, or a code; results[i] gets each record's result.
napi_value SealOpenMany(napi_env env, napi_callback_info info) {
    size_t argc = 7;
    napi_value a[7];
    napi_get_cb_info(env, info, &argc, a, nullptr, nullptr);
    aead_ctx *ctx;
    int32_t op;
    if (argc < 7 || !handle(env, a[0], &ctx) || !int_arg(env, a[1], &op))
        return nullptr;
    bool is = false;
    napi_is_array(env, a[4], &is);
    if (!is) {
        throw_type(env, "datas must be an array");
        return nullptr;
    }
    uint32_t n = 0;
    napi_get_array_length(env, a[4], &n);
    uint8_t *res_p;
    size_t res_len;
    if (!view(env, a[6], "results", false, &res_p, &res_len))
        return nullptr;
    if (res_len < static_cast<size_t>(n) * sizeof(double)) {
        throw_range(env, "results too short");
        return nullptr;
    }
    std::vector<aead_record> recs(n);
    for (uint32_t i = 0; i < n; i++) {
        aead_record &r = recs[i];
        napi_value e;
        uint8_t *p;
        size_t len;
        if (napi_get_element(env, a[4], i, &e) != napi_ok ||
            !view(env, e, "each data must be a TypedArray, DataView or ArrayBuffer", false, &p, &len))
            return nullptr;
        r.in = p;
        r.in_len = len;
        for (int k = 0; k < 3; k++) {
            napi_value arr = a[k == 0 ? 2 : k == 1 ? 3 : 5];
            napi_valuetype vt;
            napi_typeof(env, arr, &vt);
            if (k < 2 && (vt == napi_undefined || vt == napi_null))
                continue;
            if (napi_get_element(env, arr, i, &e) != napi_ok)
                return nullptr;
            if (!view(env, e, k == 0 ? "each nonce must be a TypedArray, DataView or ArrayBuffer"
                              : k == 1 ? "each associated data must be a TypedArray, DataView, ArrayBuffer or null"
                                       : "each output must be a TypedArray, DataView or ArrayBuffer",
                      k == 1, &p, &len))
                return nullptr;
            if (k == 0) {
                r.nonce = p;
                r.nonce_len = len;
            } else if (k == 1) {
                r.aad = p;
                r.aad_len = len;
            } else {
                r.out = p;
                r.out_cap = len;
            }
        }
    }
    const int64_t rc = aead_seal_open_many(ctx, op, recs.data(), recs.size());
    auto *results = reinterpret_cast<double *>(res_p);
    for (uint32_t i = 0; i < n && rc >= 0; i++)
        results[i] = static_cast<double>(recs[i].result);
    return number(env, static_cast<double>(rc));
}

// ---------------------------------------------------------------------------------------------- HPKE
//
// An HPKE context (aead_hpke) may be shared by several threads of the process: the library's seals
// commit their sequence numbers atomically. A context lives in an HpkeShared, referenced by each
// HpkeHandle (one napi External per thread that uses it); the last handle released frees it. share()
// files it in a process-wide registry under a random token, which a worker_threads Worker (its own
// instance of this addon, in the same process) turns into a handle of its own with adopt(). Only
// reference counts and the registry are locked; seals, opens and exports take no lock here.
struct HpkeShared {
    aead_hpke *ctx;
    unsigned refs;   // handles that hold it (under hpke_mutex)
    bool shared;     // in hpke_registry
    uint8_t token[16];
};

struct HpkeHandle {
    static constexpr uint32_t kMagic = 0x68706b65u;
    uint32_t magic;
    HpkeShared *s;
    bool closed;
    bool open() const { return !closed; }
    aead_hpke *context() const { return s->ctx; }
};

std::mutex hpke_mutex;
std::vector<HpkeShared *> hpke_registry;

void hpke_release(HpkeHandle *h) {
    HpkeShared *dead = nullptr;
    {
        std::lock_guard<std::mutex> lock(hpke_mutex);
        if (h->closed)
            return;
        h->closed = true;
        if (--h->s->refs == 0) {
            dead = h->s;
            if (dead->shared)
                std::erase(hpke_registry, dead);
        }
    }
    if (dead != nullptr) {
        aead_hpke_free(dead->ctx);
        delete dead;
    }
}

void hpke_finalize(napi_env, void *data, void *) {
    auto *h = static_cast<HpkeHandle *>(data);
    hpke_release(h);
    delete h;
}

// A new External holding one reference to s (the caller has counted it).
napi_value hpke_external(napi_env env, HpkeShared *s) {
    return own(env, new HpkeHandle{HpkeHandle::kMagic, s, false}, hpke_finalize);
}

napi_value hpke_new(napi_env env, aead_hpke *ctx) {
    return hpke_external(env, new HpkeShared{ctx, 1, false, {}});
}

bool hpke_handle(napi_env env, napi_value v, aead_hpke **ctx, HpkeHandle **hp = nullptr) {
    return open_handle(env, v, ctx, hp, "not a libaead HPKE context", "this libaead object was closed");
}

// The key schedule's inputs at a[0..7]: kem, kdf, aead, mode, info | null, psk | null, pskId | null,
// then ikmE | null (sender) or window (recipient). The views stay valid during the call.
bool hpke_params(napi_env env, const napi_value *a, bool sender, aead_hpke_params *p) {
    *p = aead_hpke_params{};
    p->size = sizeof *p;
    uint8_t *info, *psk, *psk_id;
    size_t info_len, psk_len, psk_id_len;
    if (!int_arg(env, a[0], &p->kem) || !int_arg(env, a[1], &p->kdf) || !int_arg(env, a[2], &p->aead) ||
        !int_arg(env, a[3], &p->mode) ||
        !view(env, a[4], "info must be a TypedArray, DataView or ArrayBuffer", true, &info, &info_len) ||
        !view(env, a[5], "psk must be a TypedArray, DataView or ArrayBuffer", true, &psk, &psk_len) ||
        !view(env, a[6], "psk id must be a TypedArray, DataView or ArrayBuffer", true, &psk_id, &psk_id_len))
        return false;
    p->info = info;
    p->info_len = info_len;
    p->psk = psk;
    p->psk_len = psk_len;
    p->psk_id = psk_id;
    p->psk_id_len = psk_id_len;
    if (sender) {
        uint8_t *ikm;
        size_t ikm_len;
        if (!view(env, a[7], "ikmE must be a TypedArray, DataView or ArrayBuffer", true, &ikm, &ikm_len))
            return false;
        p->ikm_e = ikm;
        p->ikm_e_len = ikm_len;
    } else {
        int32_t window;
        if (!int_arg(env, a[7], &window))
            return false;
        p->window = static_cast<uint32_t>(window);
    }
    return true;
}

// Byte views at a[first..first+n-1]: names[i] says what each is; nullable as the mask's bit i says.
struct Views {
    uint8_t *p[6];
    size_t n[6];
};

bool hpke_views(napi_env env, const napi_value *a, size_t count, unsigned nullable, const char *const *names, Views *v) {
    for (size_t i = 0; i < count; i++)
        if (!view(env, a[i], names[i], (nullable >> i) & 1, &v->p[i], &v->n[i]))
            return false;
    return true;
}

template <size_t N>
bool args(napi_env env, napi_callback_info info, napi_value (&a)[N]) {
    size_t argc = N;
    napi_get_cb_info(env, info, &argc, a, nullptr, nullptr);
    if (argc < N)
        return throw_type(env, "too few arguments");
    return true;
}

// The names of the three key views of a setup, and of the six views of a single-shot call; which are
// nullable (bit i: view i): the sender's key (sender), the sender's public key (recipient), the AAD.
constexpr const char *kAadPtOut[] = {"associated data must be a TypedArray, DataView, ArrayBuffer or null",
                                 "data must be a TypedArray, DataView or ArrayBuffer",
                                 "output must be a TypedArray, DataView or ArrayBuffer"};
constexpr const char *kSenderViews[] = {"recipient public key must be a TypedArray, DataView or ArrayBuffer",
                                    "sender key must be a TypedArray, DataView or ArrayBuffer",
                                    "enc must be a TypedArray, DataView or ArrayBuffer",
                                    kAadPtOut[0], kAadPtOut[1], kAadPtOut[2]};
constexpr const char *kRecipientViews[] = {"enc must be a TypedArray, DataView or ArrayBuffer",
                                       "recipient key must be a TypedArray, DataView or ArrayBuffer",
                                       "sender public key must be a TypedArray, DataView or ArrayBuffer",
                                       kAadPtOut[0], kAadPtOut[1], kAadPtOut[2]};

// The arguments of a setup (N = 11: the key views) or a single-shot call (N = 14: the AAD, input and
// output views too): the key schedule's inputs, then the views.
template <bool Sender, size_t N>
bool hpke_call(napi_env env, napi_callback_info info, napi_value (&a)[N], aead_hpke_params *p, Views *v) {
    constexpr size_t count = N - 8;
    static_assert(count == 3 || count == 6);
    return args(env, info, a) && hpke_params(env, a, Sender, p) &&
           hpke_views(env, a + 8, count, (Sender ? 2 : 4) | (count == 6 ? 8 : 0), Sender ? kSenderViews : kRecipientViews, v);
}

// hpkeSetupSender(<params, ikmE>, pkR, skS | null, enc) and hpkeSetupRecipient(<params, window>, enc,
// skR, pkS | null) -> External, or a negative code.
template <bool Sender>
napi_value HpkeSetup(napi_env env, napi_callback_info info) {
    napi_value a[11];
    aead_hpke_params p;
    Views v;
    if (!hpke_call<Sender>(env, info, a, &p, &v))
        return nullptr;
    aead_hpke *ctx = nullptr;
    int rc;
    if constexpr (Sender)
        rc = aead_hpke_setup_sender(&ctx, &p, v.p[0], v.n[0], v.p[1], v.n[1], v.p[2], v.n[2]);
    else
        rc = aead_hpke_setup_recipient(&ctx, &p, v.p[0], v.n[0], v.p[1], v.n[1], v.p[2], v.n[2]);
    return rc != 0 ? number(env, rc) : hpke_new(env, ctx);
}

// hpkeSealSingle(<params, ikmE>, pkR, skS | null, enc, aad | null, pt, out) and
// hpkeOpenSingle(<params, window>, enc, skR, pkS | null, aad | null, ct, out) -> length or code.
template <bool Sender>
napi_value HpkeSingle(napi_env env, napi_callback_info info) {
    napi_value a[14];
    aead_hpke_params p;
    Views v;
    if (!hpke_call<Sender>(env, info, a, &p, &v))
        return nullptr;
    int64_t r;
    if constexpr (Sender)
        r = aead_hpke_seal_single(&p, v.p[0], v.n[0], v.p[1], v.n[1], v.p[2], v.n[2], v.p[3], v.n[3], v.p[4], v.n[4],
                                  v.p[5], v.n[5]);
    else
        r = aead_hpke_open_single(&p, v.p[0], v.n[0], v.p[1], v.n[1], v.p[2], v.n[2], v.p[3], v.n[3], v.p[4], v.n[4],
                                  v.p[5], v.n[5]);
    return number(env, static_cast<double>(r));
}

// hpkeFree(handle): this thread's reference goes now; the context is freed (secrets cleansed) when no
// other thread holds it. Later calls on the handle throw.
napi_value HpkeFree(napi_env env, napi_callback_info info) {
    if (HpkeHandle *h = free_arg<HpkeHandle>(env, info))
        hpke_release(h);
    return nullptr;
}

// hpkeSeal(handle, aad | null, pt, out, seqOut: BigUint64Array | null) -> length or code.
napi_value HpkeSeal(napi_env env, napi_callback_info info) {
    napi_value a[5];
    aead_hpke *ctx;
    Views v;
    uint8_t *seq_p;
    size_t seq_n;
    if (!args(env, info, a) || !hpke_handle(env, a[0], &ctx) || !hpke_views(env, a + 1, 3, 1, kAadPtOut, &v) ||
        !view(env, a[4], "seqOut", true, &seq_p, &seq_n))
        return nullptr;
    uint64_t seq = 0;
    const int64_t r = aead_hpke_seal(ctx, v.p[0], v.n[0], v.p[1], v.n[1], v.p[2], v.n[2], &seq);
    if (r >= 0 && seq_n >= sizeof seq)
        std::memcpy(seq_p, &seq, sizeof seq);
    return number(env, static_cast<double>(r));
}

// hpkeOpen(handle, aad | null, ct, out) -> length or code.
napi_value HpkeOpen(napi_env env, napi_callback_info info) {
    napi_value a[4];
    aead_hpke *ctx;
    Views v;
    if (!args(env, info, a) || !hpke_handle(env, a[0], &ctx) || !hpke_views(env, a + 1, 3, 1, kAadPtOut, &v))
        return nullptr;
    return number(env, static_cast<double>(aead_hpke_open(ctx, v.p[0], v.n[0], v.p[1], v.n[1], v.p[2], v.n[2])));
}

// hpkeOpenAt(handle, seq: bigint, aad | null, ct, out) -> length or code.
napi_value HpkeOpenAt(napi_env env, napi_callback_info info) {
    napi_value a[5];
    aead_hpke *ctx;
    Views v;
    uint64_t seq = 0;
    bool lossless = false;
    if (!args(env, info, a) || !hpke_handle(env, a[0], &ctx))
        return nullptr;
    if (napi_get_value_bigint_uint64(env, a[1], &seq, &lossless) != napi_ok || !lossless) {
        throw_range(env, "sequence must be a bigint from 0 to 2^64-1");
        return nullptr;
    }
    if (!hpke_views(env, a + 2, 3, 1, kAadPtOut, &v))
        return nullptr;
    return number(env, static_cast<double>(aead_hpke_open_at(ctx, seq, v.p[0], v.n[0], v.p[1], v.n[1], v.p[2], v.n[2])));
}

// hpkeExport(handle, exporterContext, out) -> 0 or code.
napi_value HpkeExport(napi_env env, napi_callback_info info) {
    napi_value a[3];
    aead_hpke *ctx;
    Views v;
    static const char *const names[] = {"exporter context must be a TypedArray, DataView or ArrayBuffer",
                                        "output must be a TypedArray, DataView or ArrayBuffer"};
    if (!args(env, info, a) || !hpke_handle(env, a[0], &ctx) || !hpke_views(env, a + 1, 2, 0, names, &v))
        return nullptr;
    return number(env, aead_hpke_export(ctx, v.p[0], v.n[0], v.p[1], v.n[1]));
}

// hpkeKeys(what, kem, input | null, sk | null, pk) -> 0 or code. what: 0 generates a key pair (no input),
// 1 derives one from input (DeriveKeyPair's ikm), 2 makes the public key of the private key input (no sk).
napi_value HpkeKeys(napi_env env, napi_callback_info info) {
    napi_value a[5];
    int32_t what, kem;
    Views v;
    static const char *const names[] = {"ikm or private key must be a TypedArray, DataView or ArrayBuffer",
                                        "private key output must be a TypedArray, DataView or ArrayBuffer",
                                        "public key output must be a TypedArray, DataView or ArrayBuffer"};
    if (!args(env, info, a) || !int_arg(env, a[0], &what) || !int_arg(env, a[1], &kem) ||
        !hpke_views(env, a + 2, 3, 1 | 2, names, &v))
        return nullptr;
    switch (what) {
    case 0:
        return number(env, aead_hpke_generate_keypair(kem, v.p[1], v.n[1], v.p[2], v.n[2], nullptr));
    case 1:
        return number(env, aead_hpke_derive_keypair(kem, v.p[0], v.n[0], v.p[1], v.n[1], v.p[2], v.n[2], nullptr));
    default:
        return number(env, aead_hpke_public_key(kem, v.p[0], v.n[0], v.p[2], v.n[2], nullptr));
    }
}

// hpkeSizes(kem) -> [Nenc, Npk, Nsk]; [0, 0, 0] for an unknown KEM.
napi_value HpkeSizes(napi_env env, napi_callback_info info) {
    napi_value a[1];
    int32_t kem;
    if (!args(env, info, a) || !int_arg(env, a[0], &kem))
        return nullptr;
    napi_value r;
    napi_create_array_with_length(env, 3, &r);
    napi_set_element(env, r, 0, number(env, static_cast<double>(aead_hpke_enc_size(kem))));
    napi_set_element(env, r, 1, number(env, static_cast<double>(aead_hpke_public_key_size(kem))));
    napi_set_element(env, r, 2, number(env, static_cast<double>(aead_hpke_private_key_size(kem))));
    return r;
}

// hpkeShare(handle, token: 16 random bytes): files the context under token (once: a context already
// shared keeps its first token, which is returned; else token is).
napi_value HpkeShare(napi_env env, napi_callback_info info) {
    napi_value a[2];
    aead_hpke *ctx;
    HpkeHandle *h;
    uint8_t *tok;
    size_t tok_len;
    if (!args(env, info, a) || !hpke_handle(env, a[0], &ctx, &h) || !view(env, a[1], "token", false, &tok, &tok_len))
        return nullptr;
    if (tok_len != sizeof h->s->token) {
        throw_range(env, "token must be 16 bytes");
        return nullptr;
    }
    std::lock_guard<std::mutex> lock(hpke_mutex);
    if (!h->s->shared) {
        std::memcpy(h->s->token, tok, sizeof h->s->token);
        hpke_registry.push_back(h->s);
        h->s->shared = true;
    }
    napi_value out;
    void *data;
    napi_create_buffer_copy(env, sizeof h->s->token, h->s->token, &data, &out);
    return out;
}

// hpkeAdopt(token) -> a new handle on the context filed under token, or null (none: every handle on it
// was closed or collected, or no such token).
napi_value HpkeAdopt(napi_env env, napi_callback_info info) {
    napi_value a[1];
    uint8_t *tok;
    size_t tok_len;
    if (!args(env, info, a) || !view(env, a[0], "token must be a TypedArray, DataView or ArrayBuffer", false, &tok, &tok_len))
        return nullptr;
    HpkeShared *found = nullptr;
    {
        std::lock_guard<std::mutex> lock(hpke_mutex);
        for (HpkeShared *s : hpke_registry) {
            if (tok_len == sizeof s->token && std::memcmp(s->token, tok, tok_len) == 0) {
                found = s;
                found->refs++;
                break;
            }
        }
    }
    if (found == nullptr) {
        napi_value null;
        napi_get_null(env, &null);
        return null;
    }
    return hpke_external(env, found);
}

// ------------------------------------------------------------------------------------ Streaming AEAD
//
// A writer or reader (aead_stream) in a napi External of its own kind (magic), owned by the thread that
// made it: index.js's Transform streams call it in order, one segment per call. streamFree frees it at
// once (the library cleanses the key); the finalizer frees a forgotten one.
struct StreamHandle {
    static constexpr uint32_t kMagic = 0x7374726du;
    uint32_t magic;
    aead_stream *s;
    bool open() const { return s != nullptr; }
    aead_stream *context() const { return s; }
};

void stream_finalize(napi_env, void *data, void *) {
    auto *h = static_cast<StreamHandle *>(data);
    aead_stream_free(h->s);
    delete h;
}

bool stream_handle(napi_env env, napi_value v, aead_stream **s) {
    return open_handle<StreamHandle>(env, v, s, nullptr, "not a libaead stream", "this libaead stream was closed");
}

bool uint32_arg(napi_env env, napi_value v, uint32_t *out) {
    if (napi_get_value_uint32(env, v, out) != napi_ok)
        return throw_type(env, "expected an unsigned integer");
    return true;
}

// The parameters at a[0..7]: format, key, keySize, hkdfHash, segmentSize, firstSegmentOffset,
// associatedData | null, keyid | null. The views stay valid during the call.
bool stream_params(napi_env env, const napi_value *a, aead_stream_params *p) {
    *p = aead_stream_params{};
    p->size = sizeof *p;
    int32_t key_size, hash;
    uint8_t *key, *ad, *keyid;
    size_t key_len, ad_len, keyid_len;
    if (!int_arg(env, a[0], &p->format) ||
        !view(env, a[1], "key must be a TypedArray, DataView or ArrayBuffer", false, &key, &key_len) ||
        !int_arg(env, a[2], &key_size) || !int_arg(env, a[3], &hash) || !uint32_arg(env, a[4], &p->segment_size) ||
        !uint32_arg(env, a[5], &p->first_segment_offset) ||
        !view(env, a[6], "associated data must be a TypedArray, DataView, ArrayBuffer or null", true, &ad, &ad_len) ||
        !view(env, a[7], "keyid must be a TypedArray, DataView, ArrayBuffer or null", true, &keyid, &keyid_len))
        return false;
    if (key_size < 0)
        return throw_range(env, "keySize must not be negative");
    p->key = key;
    p->key_len = key_len;
    p->key_size = static_cast<size_t>(key_size);
    p->hkdf_hash = hash;
    p->associated_data = ad;
    p->associated_data_len = ad_len;
    p->keyid = keyid;
    p->keyid_len = keyid_len;
    return true;
}

napi_value stream_result(napi_env env, int rc, size_t header_len, aead_stream *s) {
    napi_value r;
    napi_create_array_with_length(env, 3, &r);
    napi_set_element(env, r, 0, number(env, rc));
    napi_set_element(env, r, 1, number(env, static_cast<double>(header_len)));
    if (s != nullptr) {
        napi_value ext = own(env, new StreamHandle{StreamHandle::kMagic, s}, stream_finalize);
        if (ext == nullptr)
            return nullptr;
        napi_set_element(env, r, 2, ext);
    }
    return r;
}

// streamWriterNew(<params>, header) and streamReaderNew(<params>, input) -> [code, headerLength,
// External (when code is 0)]. The writer writes its header into header (AEAD_STREAM_MAX_HEADER bytes).
template <bool Writer>
napi_value StreamNew(napi_env env, napi_callback_info info) {
    napi_value a[9];
    aead_stream_params p;
    uint8_t *buf;
    size_t buf_len;
    if (!args(env, info, a) || !stream_params(env, a, &p) ||
        !view(env, a[8], Writer ? "header must be a TypedArray, DataView or ArrayBuffer"
                                : "data must be a TypedArray, DataView or ArrayBuffer", false, &buf, &buf_len))
        return nullptr;
    aead_stream *s = nullptr;
    size_t header_len = 0;
    int rc;
    if constexpr (Writer)
        rc = aead_stream_writer_new(&s, &p, buf, buf_len, &header_len);
    else
        rc = aead_stream_reader_new(&s, &p, buf, buf_len, &header_len);
    return stream_result(env, rc, header_len, rc == 0 ? s : nullptr);
}

// streamFree(handle): frees now (the key cleansed); later calls on the handle throw.
napi_value StreamFree(napi_env env, napi_callback_info info) {
    if (StreamHandle *h = free_arg<StreamHandle>(env, info)) {
        aead_stream_free(h->s);
        h->s = nullptr;
    }
    return nullptr;
}

// streamSeal(handle, input, pad, final, out) -> ciphertext length or code.
napi_value StreamSeal(napi_env env, napi_callback_info info) {
    napi_value a[5];
    aead_stream *s;
    uint8_t *in, *out;
    size_t in_len, out_cap;
    uint32_t pad;
    bool final = false;
    if (!args(env, info, a) || !stream_handle(env, a[0], &s) ||
        !view(env, a[1], "data must be a TypedArray, DataView or ArrayBuffer", false, &in, &in_len) ||
        !uint32_arg(env, a[2], &pad) || napi_get_value_bool(env, a[3], &final) != napi_ok ||
        !view(env, a[4], "output must be a TypedArray, DataView or ArrayBuffer", false, &out, &out_cap))
        return nullptr;
    return number(env, static_cast<double>(aead_stream_seal(s, in, in_len, pad, final ? 1 : 0, out, out_cap)));
}

// streamOpen(handle, input, final, out) and streamOpenSegment(handle, index, input, final, out) ->
// plaintext length or code.
template <bool At>
napi_value StreamOpen(napi_env env, napi_callback_info info) {
    constexpr size_t N = At ? 5 : 4, k = At ? 1 : 0;
    napi_value a[N];
    aead_stream *s;
    uint8_t *in, *out;
    size_t in_len, out_cap;
    bool final = false;
    int64_t index = 0;
    if (!args(env, info, a) || !stream_handle(env, a[0], &s))
        return nullptr;
    if constexpr (At) {
        double d = -1;
        if (napi_get_value_double(env, a[1], &d) != napi_ok || !(d >= 0) || d > 9007199254740991.0 ||
            d != static_cast<double>(static_cast<int64_t>(d))) {
            throw_range(env, "index must be an integer from 0 to 2^53-1");
            return nullptr;
        }
        index = static_cast<int64_t>(d);
    }
    if (!view(env, a[1 + k], "data must be a TypedArray, DataView or ArrayBuffer", false, &in, &in_len) ||
        napi_get_value_bool(env, a[2 + k], &final) != napi_ok ||
        !view(env, a[3 + k], "output must be a TypedArray, DataView or ArrayBuffer", false, &out, &out_cap))
        return nullptr;
    int64_t r;
    if constexpr (At)
        r = aead_stream_open_segment(s, static_cast<uint64_t>(index), in, in_len, final ? 1 : 0, out, out_cap);
    else
        r = aead_stream_open(s, in, in_len, final ? 1 : 0, out, out_cap);
    return number(env, static_cast<double>(r));
}

// streamInfo(handle, index) -> [segmentSize(index), overhead, position].
napi_value StreamInfo(napi_env env, napi_callback_info info) {
    napi_value a[2];
    aead_stream *s;
    double d = -1;
    if (!args(env, info, a) || !stream_handle(env, a[0], &s))
        return nullptr;
    if (napi_get_value_double(env, a[1], &d) != napi_ok || !(d >= 0) || d > 9007199254740991.0) {
        throw_range(env, "index must be an integer from 0 to 2^53-1");
        return nullptr;
    }
    napi_value r;
    napi_create_array_with_length(env, 3, &r);
    napi_set_element(env, r, 0, number(env, static_cast<double>(aead_stream_segment_size(s, static_cast<uint64_t>(d)))));
    napi_set_element(env, r, 1, number(env, static_cast<double>(aead_stream_overhead(s))));
    napi_set_element(env, r, 2, number(env, static_cast<double>(aead_stream_position(s))));
    return r;
}

napi_value Strerror(napi_env env, napi_callback_info info) {
    size_t argc = 1;
    napi_value a[1];
    napi_get_cb_info(env, info, &argc, a, nullptr, nullptr);
    int64_t code = 0;
    if (argc == 1)
        napi_get_value_int64(env, a[0], &code);
    napi_value s;
    napi_create_string_utf8(env, aead_strerror(code), NAPI_AUTO_LENGTH, &s);
    return s;
}

napi_value Version(napi_env env, napi_callback_info) {
    napi_value s;
    napi_create_string_utf8(env, aead_version(), NAPI_AUTO_LENGTH, &s);
    return s;
}

napi_value VersionNumber(napi_env env, napi_callback_info) {
    return number(env, aead_version_number());
}

Napi::Object Init(Napi::Env env, Napi::Object exports) {
    struct {
        const char *name;
        napi_callback cb;
    } const fns[] = {{"create", Create},         {"free", Free},         {"sealOpen", SealOpen},
                     {"sealOpenV", SealOpenV},   {"sealOpenMany", SealOpenMany},
                     {"sealOpenAsync", SealOpenAsync},
                     {"hpkeSetupSender", HpkeSetup<true>}, {"hpkeSetupRecipient", HpkeSetup<false>},
                     {"hpkeFree", HpkeFree},     {"hpkeSeal", HpkeSeal}, {"hpkeOpen", HpkeOpen},
                     {"hpkeOpenAt", HpkeOpenAt}, {"hpkeExport", HpkeExport},
                     {"hpkeSealSingle", HpkeSingle<true>}, {"hpkeOpenSingle", HpkeSingle<false>},
                     {"hpkeKeys", HpkeKeys},     {"hpkeSizes", HpkeSizes},
                     {"hpkeShare", HpkeShare},   {"hpkeAdopt", HpkeAdopt},
                     {"streamWriterNew", StreamNew<true>}, {"streamReaderNew", StreamNew<false>},
                     {"streamFree", StreamFree}, {"streamSeal", StreamSeal}, {"streamOpen", StreamOpen<false>},
                     {"streamOpenSegment", StreamOpen<true>}, {"streamInfo", StreamInfo},
                     {"strerror", Strerror},     {"version", Version},   {"versionNumber", VersionNumber}};
    for (const auto &f : fns) {
        napi_value fn;
        napi_create_function(env, f.name, NAPI_AUTO_LENGTH, f.cb, nullptr, &fn);
        exports.Set(f.name, Napi::Value(env, fn));
    }
    return exports;
}

} // namespace

NODE_API_MODULE(libaead, Init)
