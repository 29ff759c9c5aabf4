# Sourced by the stages that run libaead's Python binding in a venv of their own (tests/quic-interop,
# tests/ssh; bindings/python/test.sh for setuptools_config). install_binding VPY LOG: installs bindings/python
# into the venv of the interpreter VPY, linked to $AEAD_BUILD_DIR's libaead.so.1 through pkg-config with its
# compiled modules (bindings/python/test.sh's LIBAEAD_SYSTEM=1 mode); again only when its sources, the public
# header or the build directory changed (a stamp in the venv). The venv needs setuptools and cffi
# (--no-build-isolation). pip's output goes to LOG, printed on failure. Returns non-zero on failure.
# setuptools_config NAME: prints a distutils config file (for DIST_EXTRA_CONFIG) that gives a build of
# bindings/python setuptools folders of its own (build_lib, build_temp, bdist, egg-info) under
# bindings/python/build/setuptools-NAME: builds that run side by side from the one source folder would
# otherwise share bindings/python/build/ and src/*.egg-info, and one's clean-up removes the other's modules.
setuptools_config() {
    local base
    base="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/bindings/python/build/setuptools-$1"
    mkdir -p "$base" &&
        printf '[build]\nbuild_base = %s\n[egg_info]\negg_base = %s\n' "$base" "$base" >"$base.cfg" &&
        echo "$base.cfg"
}
install_binding() {
    local vpy=$1 log=$2 repo venv stamp cfg
    repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
    venv="$(dirname "$(dirname "$vpy")")"
    stamp=$(cd "$repo" && { echo "$AEAD_BUILD_DIR"; find bindings/python/src bindings/python/*.py \
        bindings/python/pyproject.toml include/aead.h -type f -not -name '*.pyc' \
        -not -path '*/__pycache__/*' -not -path '*.egg-info/*' -print0 | sort -z | xargs -0 sha256sum; } | sha256sum | cut -c1-16)
    [ "$(cat "$venv/libaead.stamp" 2>/dev/null)" != "$stamp" ] || return 0
    echo "== libaead's Python binding into the venv (linked to $AEAD_BUILD_DIR)"
    # (the stages that call this run side by side: each its own setuptools folders)
    cfg=$(setuptools_config "$(basename "$(dirname "$venv")")") || return 1
    DIST_EXTRA_CONFIG="$cfg" PKG_CONFIG_PATH="$AEAD_BUILD_DIR/meson-uninstalled" LIBAEAD_SYSTEM=1 LIBAEAD_REQUIRE_COMPILED=1 \
        timeout 600 "$vpy" -m pip install --quiet --force-reinstall --no-deps --no-build-isolation "$repo/bindings/python" \
        >"$log" 2>&1 || { cat "$log" >&2; return 1; }
    echo "$stamp" >"$venv/libaead.stamp"
}
