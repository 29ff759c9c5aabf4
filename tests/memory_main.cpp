// test_memory's main, with Catch2's implementation (test_memory.cpp is an ordinary test file): the
// tracking allocator must be installed before libcrypto allocates anything, so Catch's default main
// (catch_main.cpp) will not do.
#define CATCH_CONFIG_RUNNER
#include "catch_compat.h"

bool install_tracking_allocator();  // test_memory.cpp

int main(int argc, char **argv) {
    if (!install_tracking_allocator()) return 1;
    return Catch::Session().run(argc, argv);
}
