// Catch2's implementation, compiled once per build for every suite (its single header with
// CATCH_CONFIG_RUNNER: no main). Each suite's main (catch_main.cpp; test_memory's memory_main.cpp) calls
// run_catch: Catch2 v2 declares its Session only where the implementation is compiled.
#define CATCH_CONFIG_RUNNER
#include "catch_compat.h"

int run_catch(int argc, char **argv);
int run_catch(int argc, char **argv) { return Catch::Session().run(argc, argv); }
