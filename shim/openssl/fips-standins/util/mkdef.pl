#!/usr/bin/env perl
# Stand-in for OpenSSL's util/mkdef.pl, which the openssl-src crate does not ship: writes the GNU ld
# version script of a provider module (Linux only), exporting every symbol listed in the --ordinals file.
use strict;
use warnings;
use Getopt::Long;

my ($ordinals, $type, $name, $os, $version) = ('', 'dso', '', 'linux', '');
GetOptions('ordinals=s' => \$ordinals, 'type=s' => \$type, 'name=s' => \$name,
           'OS=s' => \$os, 'version=s' => \$version, 'ctest' => sub {})
    or die "mkdef.pl stand-in: bad arguments\n";
die "mkdef.pl stand-in: only provider modules (--type dso) are supported, not '$type'\n" if $type ne 'dso';
open my $fh, '<', $ordinals or die "mkdef.pl stand-in: $ordinals: $!\n";
my @symbols = map { (split)[0] } grep { /\bEXIST::/ && !/^\s*#/ } <$fh>;
close $fh;
die "mkdef.pl stand-in: no symbols in $ordinals\n" unless @symbols;
print "{\n    global:\n", (map { "        $_;\n" } @symbols), "    local: *;\n};\n";
