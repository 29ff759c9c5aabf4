#!/usr/bin/env perl
# Stand-in for OpenSSL's util/mk-fipsmodule-cnf.pl (not in the openssl-src crate). The build only needs
# the file to exist; shim/openssl/build.sh replaces it with what `openssl fipsinstall` writes.
print "# placeholder: run `openssl fipsinstall -module fips.so -out fipsmodule.cnf`\n";
