#!/usr/bin/env bash
# ABI checks: the exported symbols are exactly the checked-in list, all versioned LIBAEAD_<major>; the
# SONAME, AEAD_ABI_VERSION and the .pc version agree with meson.build; `meson install` installs the
# header, the library with its symlink chain and aead.pc, and a consumer builds against it with pkg-config.
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
build=${AEAD_BUILD_DIR:-$repo/build}
lib="$build/libaead.so.1"
checks=0
ok() { checks=$((checks + 1)); echo "ok: $*"; }

version=$(meson introspect --projectinfo "$build" | python3 -c 'import json, sys; print(json.load(sys.stdin)["version"])')
major=${version%%.*}

nm -D --defined-only "$lib" | awk '{print $3}' | sort | diff -u "$repo/tests/abi/symbols.txt" - ||
    { echo "exported symbols changed: update tests/abi/symbols.txt only for an intended ABI change (docs/abi.md)"; exit 1; }
ok "exported symbols match tests/abi/symbols.txt"
! nm -D --defined-only "$lib" | awk '$2 == "T" {print $3}' | grep -Ev "@@LIBAEAD_${major}(\.[0-9]+)?\$" || { echo "unversioned export"; exit 1; }
ok "every exported function is versioned LIBAEAD_${major} or LIBAEAD_${major}.<minor>"
# The 1.0 ABI is frozen: its nine functions keep the LIBAEAD_1 node (a new function in it would be
# an edit of a released node, which old binaries cannot tell from the real 1.0).
[ "$(grep -c "@@LIBAEAD_${major}\$" "$repo/tests/abi/symbols.txt")" = 9 ] || { echo "LIBAEAD_${major} node changed"; exit 1; }
ok "LIBAEAD_${major} still holds exactly the nine 1.0 functions"
[ "$(grep -c "@@LIBAEAD_${major}\.1\$" "$repo/tests/abi/symbols.txt")" = 5 ] || { echo "LIBAEAD_${major}.1 node changed"; exit 1; }
ok "LIBAEAD_${major}.1 still holds exactly the five 1.1 functions"
# The released minor nodes are frozen too: 1.2's six, 1.3's two, 1.4's four, 1.6's seventeen (1.5 added none).
for node in 2:6 3:2 4:4 6:17; do
    [ "$(grep -c "@@LIBAEAD_${major}\.${node%%:*}\$" "$repo/tests/abi/symbols.txt")" = "${node#*:}" ] ||
        { echo "LIBAEAD_${major}.${node%%:*} node changed"; exit 1; }
done
ok "LIBAEAD_${major}.2, .3 and .4 still hold exactly their six, two and four functions"
soname=$(readelf -d "$lib" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
[ "$soname" = "libaead.so.${major}" ] || { echo "SONAME $soname, expected libaead.so.${major}"; exit 1; }
ok "SONAME $soname"
grep -Eq "^#define AEAD_ABI_VERSION ${major}\$" "$repo/include/aead.h" || { echo "AEAD_ABI_VERSION != $major"; exit 1; }
ok "AEAD_ABI_VERSION is $major"

stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
meson install -C "$build" --destdir "$stage" --no-rebuild >/dev/null
prefix=$(meson introspect --buildoptions "$build" | python3 -c 'import json, sys; print(next(o["value"] for o in json.load(sys.stdin) if o["name"] == "prefix"))')
libdir=$(meson introspect --buildoptions "$build" | python3 -c 'import json, sys; print(next(o["value"] for o in json.load(sys.stdin) if o["name"] == "libdir"))')
root="$stage$prefix"
[ -f "$root/include/aead.h" ] || { echo "header not installed"; exit 1; }
ok "header installed"
[ "$(readlink "$root/$libdir/libaead.so")" = "libaead.so.$major" ] &&
    [ "$(readlink "$root/$libdir/libaead.so.$major")" = "libaead.so.$version" ] &&
    [ -f "$root/$libdir/libaead.so.$version" ] || { ls -l "$root/$libdir"; echo "bad symlink chain"; exit 1; }
ok "libaead.so -> libaead.so.$major -> libaead.so.$version"
pc_dir="$root/$libdir/pkgconfig"
pcver=$(PKG_CONFIG_DISABLE_UNINSTALLED=1 PKG_CONFIG_PATH="$pc_dir" PKG_CONFIG_LIBDIR="$pc_dir" pkg-config --modversion aead)
[ "$pcver" = "$version" ] || { echo "aead.pc version $pcver, expected $version"; exit 1; }
ok "aead.pc version $pcver"
flags=$(PKG_CONFIG_DISABLE_UNINSTALLED=1 PKG_CONFIG_PATH="$pc_dir" PKG_CONFIG_SYSROOT_DIR="$stage" pkg-config --cflags --libs aead)
cc -std=c11 -Wall -Wextra -Werror -o "$stage/consumer" "$repo/tests/abi/consumer.c" $flags
LD_LIBRARY_PATH="$root/$libdir" "$stage/consumer"
ldd_line=$(LD_LIBRARY_PATH="$root/$libdir" ldd "$stage/consumer" | grep libaead)
case "$ldd_line" in *"$stage"*) ok "consumer built with pkg-config runs against the installed library";;
    *) echo "consumer loaded the wrong library: $ldd_line"; exit 1;; esac
# A program compiled against the released 1.0 header (tests/abi/aead-1.0.h, kept verbatim) links to the
# LIBAEAD_1 versions and runs unchanged on this library.
mkdir -p "$stage/h10"
cp "$repo/tests/abi/aead-1.0.h" "$stage/h10/aead.h"
cc -std=c11 -Wall -Wextra -Werror -I"$stage/h10" -o "$stage/consumer10" "$repo/tests/abi/consumer.c" -L"$root/$libdir" -laead
refs=$(nm -D --undefined-only "$stage/consumer10" | awk '/aead_/ {print $2}' | sort | tr '\n' ' ')
case "$refs" in *@LIBAEAD_${major}.*) echo "1.0 consumer references a newer node: $refs"; exit 1;; esac
[ -n "$refs" ] && ! grep -qv "@LIBAEAD_${major}\$" <<<"$(tr ' ' '\n' <<<"$refs" | grep -v '^$')" ||
    { echo "1.0 consumer's references are not all @LIBAEAD_${major}: $refs"; exit 1; }
LD_LIBRARY_PATH="$root/$libdir" "$stage/consumer10" >/dev/null
ok "a consumer built against the 1.0 header binds to LIBAEAD_${major} ($refs) and runs on $version"
echo "abi: $checks passed, 0 failed"
