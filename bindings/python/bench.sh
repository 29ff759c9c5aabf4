#!/usr/bin/env bash
# The Python benchmark: libaead vs pyca/cryptography (newest on PyPI) side by side in one process, on
# each libcrypto. For each of LIBCRYPTOS (default "vendored system"): builds the wheel as a user gets it
# (LIBAEAD_LIBCRYPTO=<kind>), installs it with cryptography into a fresh venv, runs bench/bench.py there
# and writes bench/results/<kind>.json. The machine is shared: run it when nothing else is measuring.
# BENCH=quic runs only bench/bench_quic.py (QUIC packet protection vs aioquic 1.7.2, results in
# bench/results/quic-<kind>.json); BENCH=aead only bench.py; the default runs both (options go to bench.py);
# BENCH=all,families adds bench/bench_families.py (the AEAD families against pyca and PyNaCl, results in
# bench/results/families-<kind>.json; --quick gives it 3 rounds). BENCH=hpke runs only bench/bench_hpke.py (HPKE
# against pyhpke and pyca's hpke.Suite: results in bench/results/hpke-python.json; use it with one of LIBCRYPTOS).
# BENCH=stream runs only bench/bench_stream.py (streaming AEAD against Tink Python and http_ece, with the
# test suite's hash-pinned requirements-stream.txt: results in bench/results/stream-python.json).
# BENCH=aegis runs only bench/bench_aegis.py (the AEGIS family beside libaead's AES-128-GCM and
# ChaCha20-Poly1305, and libsodium's AEGIS through PyNaCl: results in bench/results/aegis-<kind>.json).
# BENCH_RESULTS names another results folder.
# Usage: bash bindings/python/bench.sh [bench.py options, e.g. --rounds 9 --gil]
#        LIBCRYPTOS=vendored bash bindings/python/bench.sh --quick
#        BENCH=quic LIBCRYPTOS=vendored bash bindings/python/bench.sh
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
PY="${PYTHON:-python3}"
PYNACL=1.6.2  # the families' XChaCha20-Poly1305 peer and AEGIS's (libsodium)
PYHPKE=0.6.5  # HPKE's peer (BENCH=hpke), as in test.sh
unset LD_LIBRARY_PATH PKG_CONFIG_PATH OPENSSL_CONF
export PIP_DISABLE_PIP_VERSION_CHECK=1
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT
RESULTS="$(mkdir -p "${BENCH_RESULTS:-$HERE/bench/results}" && cd "${BENCH_RESULTS:-$HERE/bench/results}" && pwd)"
for kind in ${LIBCRYPTOS:-vendored system}; do
    "$PY" -m venv "$TMP/$kind"
    LIBAEAD_LIBCRYPTO="$kind" LIBAEAD_REQUIRE_COMPILED=1 nice -n 10 "$TMP/$kind/bin/pip" wheel --quiet --no-deps \
        -w "$TMP/$kind-wheel" "$HERE"
    "$TMP/$kind/bin/pip" install --quiet "$TMP/$kind-wheel"/libaead-*.whl "cryptography>=50" "aioquic==1.7.2"
    what=${BENCH:-all}
    if [ "$what" = hpke ]; then  # HPKE against pyhpke and pyca's hpke.Suite: bench/results/hpke-python.json
        rounds=7
        [[ " $* " != *" --quick "* ]] || rounds=1
        "$TMP/$kind/bin/pip" install --quiet "pyhpke==$PYHPKE"
        (cd "$TMP" && "$TMP/$kind/bin/python" "$HERE/bench/bench_hpke.py" --rounds $rounds --json "$RESULTS/hpke-python.json")
        continue
    fi
    if [ "$what" = aegis ]; then  # AEGIS beside AES-128-GCM, ChaCha20-Poly1305 and libsodium's AEGIS
        rounds=7
        [[ " $* " != *" --quick "* ]] || rounds=1
        "$TMP/$kind/bin/pip" install --quiet "pynacl==$PYNACL"
        (cd "$TMP" && "$TMP/$kind/bin/python" "$HERE/bench/bench_aegis.py" --rounds $rounds --json "$RESULTS/aegis-$kind.json")
        continue
    fi
    if [ "$what" = stream ]; then  # streaming AEAD against Tink Python and http_ece
        mib=256 rounds=5
        [[ " $* " != *" --quick "* ]] || { mib=16; rounds=1; }
        "$TMP/$kind/bin/pip" install --quiet --require-hashes --no-deps -r "$HERE/tests/requirements-stream.txt"
        "$TMP/$kind/bin/pip" install --quiet pytest  # the tests module that builds Tink's keyset imports it
        (cd "$TMP" && "$TMP/$kind/bin/python" "$HERE/bench/bench_stream.py" --mib $mib --rounds $rounds \
            --json "$RESULTS/stream-python.json")
        continue
    fi
    if [ "${what%,families}" != quic ]; then
        (cd "$TMP" && "$TMP/$kind/bin/python" "$HERE/bench/bench.py" --json "$RESULTS/$kind.json" "$@")
    fi
    if [ "${what%,families}" != aead ]; then
        quick=()
        [[ " $* " != *" --quick "* ]] || quick=(--rounds 3 --iterations 2000)
        (cd "$TMP" && "$TMP/$kind/bin/python" "$HERE/bench/bench_quic.py" "${quick[@]}" --json "$RESULTS/quic-$kind.json")
    fi
    if [[ $what == *,families ]]; then
        rounds=7
        [[ " $* " != *" --quick "* ]] || rounds=3
        "$TMP/$kind/bin/pip" install --quiet "pynacl==$PYNACL"
        (cd "$TMP" && "$TMP/$kind/bin/python" "$HERE/bench/bench_families.py" --rounds $rounds --json "$RESULTS/families-$kind.json")
    fi
    echo
done
