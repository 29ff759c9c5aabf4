// The source tree's path, compiled into this one small file only: a path in every suite's flags would
// make each clone's compilations different to ccache, so no suite could be reused from another clone.
namespace test {
extern const char aead_test_source_root[];  // declared for the suites in support.h
const char aead_test_source_root[] = AEAD_SOURCE_ROOT;
}  // namespace test
