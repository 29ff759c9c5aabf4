# The rewrite of chacha20poly1305 0.11.0's tests/lib.rs for libaead (GNU sed; tests/peers/run.py
# checks that it removed what it names). Everything else runs unchanged on libaead's types.
#
# chacha20::clone_impl calls `.clone()`: libaead's ChaCha20Poly1305 is not `Clone` (a context keeps
# no key to make a second one from, and the C API has no context copy), so the test cannot compile.
# Its #[test] line, the fn and its two other lines go; listed in tests/peers/differences.txt.
/^    #\[test\]$/{
    N
    /\n    fn clone_impl() {$/{
        N
        N
        d
    }
}
