# Sourced by run.sh and campaign.sh: builds the libFuzzer harness (clang, ASan + UBSan) in a build
# directory of its own and sets fuzz_bin (the harness) and asan_rt (the runtime to preload).
# fuzz_build DIR [meson options...], from the repository's top folder.

fuzz_build() {
    local build=$1 target=tests/fuzz/fuzz_seal_open
    shift
    command -v clang++ >/dev/null || { echo "fuzz: clang++ not found (run tests/setup.sh)" >&2; return 1; }
    # The library and the harness share one ASan runtime, the shared one (found through an rpath, and
    # preloaded at run time because libFuzzer's libstdc++ would otherwise be loaded before it).
    asan_rt=$(clang++ -print-file-name="libclang_rt.asan-$(uname -m).so")
    [ -f "$asan_rt" ] || { echo "fuzz: $asan_rt missing (install libclang-rt-*-dev)" >&2; return 1; }
    local rt_dir
    rt_dir=$(dirname "$asan_rt")
    # -fsanitize=fuzzer-no-link instruments the library too, so the fuzzer is guided by its branches.
    local opts=(-Db_sanitize=address,undefined -Db_lundef=false -Dbuildtype=debugoptimized
        -Dcpp_args=-fsanitize=fuzzer-no-link "-Dcpp_link_args=['-shared-libasan','-Wl,-rpath,$rt_dir']" "$@")
    if [ ! -f "$build/build.ninja" ]; then
        local ccache_
        ccache_=$(command -v ccache >/dev/null && echo "ccache ")  # meson adds it only to compilers it finds
        CC="${ccache_}clang" CXX="${ccache_}clang++" meson setup "$build" "${opts[@]}" || return 1
    elif ! grep -q fuzzer-no-link "$build/meson-info/intro-buildoptions.json"; then
        meson configure "$build" "${opts[@]}" || return 1  # a build made by hand: add what the harness needs
    fi
    grep -q "^build $target:" "$build/build.ninja" ||
        { echo "fuzz: $build has no $target (is it configured with clang?)" >&2; return 1; }
    ninja -C "$build" -j 2 "$target" || return 1
    fuzz_bin=$build/$target
}

# The DTLS modes read an input format of their own, with their own seeds (tests/fuzz/corpus-<mode>).
fuzz_dtls_modes=(dtls12 dtls13 quic-window)
# The streaming modes (fuzz_stream.inc) likewise, one per format.
fuzz_stream_modes=(stream-tink stream-age stream-rfc8188)
# One target per family and per sequencing policy (AEAD_FUZZ_FOCUS, fuzz_seal_open.cpp), the unfocused
# harness, and the DTLS modes.
fuzz_targets=(all gcm chacha20-poly1305 ccm gcm-siv ocb xchacha20-poly1305 siv aegis tls12 tls13 random-nonce counter xor-counter ssh
    "${fuzz_dtls_modes[@]}" "${fuzz_stream_modes[@]}")
# The checked-in seed folder of a target (written by make_corpus.py).
fuzz_seeds_of() { case "$1" in dtls12 | dtls13 | quic-window | stream-*) echo "tests/fuzz/corpus-$1" ;; *) echo tests/fuzz/corpus ;; esac; }

# Both scripts run the harness with these: any sanitizer report stops the run and fails it.
export ASAN_OPTIONS=halt_on_error=1:detect_leaks=1
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
# Whether a run's log shows a failure its exit code may not: a sanitizer or libFuzzer error, or a property.
fuzz_log_failed() { grep -qE "ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer)|runtime error:|property failed" "$1"; }
# The coverage libFuzzer printed when a log's input replay was done ("cov: N ft: M").
fuzz_inited() { grep -E "^#[0-9]+[[:space:]]+INITED" "$1" | grep -oE "cov: [0-9]+ ft: [0-9]+" | head -1; }
