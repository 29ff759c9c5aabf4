# Sourced (bash): points OpenSSL at the FIPS test provider built from the pinned 3.5 source.
#   source tests/fips/env.sh
# Makes sure the cached 3.5 build has providers/fips.so and its fipsmodule.cnf (what `openssl fipsinstall`
# writes), writes next to them a configuration in which the fips and base providers are the only ones and
# default_properties = fips=yes, and exports OPENSSL_CONF and OPENSSL_MODULES. Both the system libcrypto
# and a vendored libaead's hidden copy read these variables. Nothing is written into the repository.
# This is a test provider, NOT a validated FIPS 140-3 module (tests/fips/README.md).
_fips_repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
AEAD_FIPS_OPENSSL=$(env -u OPENSSL_CONF -u OPENSSL_MODULES "$_fips_repo/shim/openssl/build.sh" 3.5 | tail -1) || return 1
_fips_so="$AEAD_FIPS_OPENSSL/lib/ossl-modules/fips.so"
_fips_cnf="$AEAD_FIPS_OPENSSL/ssl/fipsmodule.cnf"
[ -f "$_fips_so" ] || { echo "fips env: $_fips_so missing (rebuild: LIBAEAD_OPENSSL_REBUILD=1 shim/openssl/build.sh 3.5)" >&2; return 1; }
if [ ! -s "$_fips_cnf" ]; then
    env -u OPENSSL_CONF "$AEAD_FIPS_OPENSSL/bin/openssl" fipsinstall -module "$_fips_so" -out "$_fips_cnf.tmp.$$" >/dev/null &&
        mv "$_fips_cnf.tmp.$$" "$_fips_cnf" || { echo "fips env: openssl fipsinstall failed" >&2; return 1; }
fi
_fips_only="$AEAD_FIPS_OPENSSL/ssl/libaead-fips-only.cnf"
cat >"$_fips_only.tmp.$$" <<CNF
# Written by tests/fips/env.sh: the FIPS test provider and the base provider are the only providers.
config_diagnostics = 1
openssl_conf = openssl_init

.include $_fips_cnf

[openssl_init]
providers = provider_sect
alg_section = algorithm_sect

[provider_sect]
fips = fips_sect
base = base_sect

[base_sect]
activate = 1

[algorithm_sect]
default_properties = fips=yes
CNF
mv "$_fips_only.tmp.$$" "$_fips_only"
export OPENSSL_CONF="$_fips_only" OPENSSL_MODULES="$AEAD_FIPS_OPENSSL/lib/ossl-modules" AEAD_FIPS_OPENSSL
unset _fips_repo _fips_so _fips_cnf _fips_only
