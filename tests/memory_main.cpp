// test_memory's main (test_memory.cpp is an ordinary test file): the tracking allocator must be installed
// before libcrypto allocates anything, so Catch's default main (catch_main.cpp) will not do. Catch2's
// implementation is catch_impl.cpp's.
bool install_tracking_allocator();     // test_memory.cpp
int run_catch(int argc, char **argv);  // catch_impl.cpp

int main(int argc, char **argv) {
    if (!install_tracking_allocator()) return 1;
    return run_catch(argc, argv);
}
