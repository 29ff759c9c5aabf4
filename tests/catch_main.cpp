// The main of every suite but test_memory: what CATCH_CONFIG_MAIN writes, with Catch2's implementation in
// catch_impl.cpp.
int run_catch(int argc, char **argv);  // catch_impl.cpp

int main(int argc, char **argv) { return run_catch(argc, argv); }
