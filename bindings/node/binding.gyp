{
  # The addon compiles libaead's core (csrc/: bindings/csrc.sh's copy of the sources that sources.txt lists,
  # shipped in the npm tarball) into the .node file, with meson.build's flags that matter: C++20, no
  # exceptions, no RTTI, hidden visibility; the version script leaves aead_* and the N-API entry points
  # as the only exports.
  # libcrypto: the system's (pkg-config libcrypto), or, when LIBAEAD_OPENSSL_PREFIX names an OpenSSL
  # install prefix (the prebuild: the vendored OpenSSL of shim/openssl/build.sh), its static libcrypto.a,
  # linked in and hidden.
  'variables': {
    'libaead_openssl%': '<!(node -p "process.env.LIBAEAD_OPENSSL_PREFIX || \'\'")',
  },
  'target_defaults': {
    'cflags_cc!': ['-std=gnu++17', '-std=gnu++1y', '-fno-exceptions', '-fno-rtti'],
    'cflags_cc': ['-std=c++20', '-fno-exceptions', '-fno-rtti', '-fvisibility=hidden',
                  '-fvisibility-inlines-hidden', '-O2', '-include', '<(module_root_dir)/csrc/build_config.h'],
    'cflags': ['-fPIC'],
  },
  'targets': [
    {
      # libaead itself: no Node headers here, so that <openssl/...> is the libcrypto linked below and
      # never the copy of OpenSSL's headers inside Node's include directory.
      'target_name': 'aead_core',
      'type': 'static_library',
      # sources.txt: the one list of the core's sources that every build compiles.
      'sources': ['<!@(node scripts/sources.js)'],
      'include_dirs!': ['<(node_root_dir)/include/node', '<(node_root_dir)/src',
                        '<(node_root_dir)/deps/openssl/config', '<(node_root_dir)/deps/openssl/openssl/include',
                        '<(node_root_dir)/deps/uv/include', '<(node_root_dir)/deps/zlib',
                        '<(node_root_dir)/deps/v8/include'],
      'include_dirs': ['csrc/include', 'csrc/aegis/src/include'],
      'dependencies': ['aegis'],
      'conditions': [
        ['libaead_openssl==""', {
          'cflags_cc': ['<!@(pkg-config --cflags libcrypto)'],
        }, {
          'include_dirs': ['<(libaead_openssl)/include'],
        }],
      ],
    },
    {
      # libaegis (the AEGIS family): the C files shim/aegis/sources.txt lists, from csrc/aegis/ (the pinned
      # aegis crate's sources, copied by bindings/csrc.sh), as meson.build compiles them: -O3, hidden, under
      # libaead's own names (shim/aegis/prefix.h), its own warnings not ours.
      'target_name': 'aegis',
      'type': 'static_library',
      'sources': ['<!@(node scripts/sources.js aegis)'],
      'include_dirs!': ['<(node_root_dir)/include/node', '<(node_root_dir)/src',
                        '<(node_root_dir)/deps/openssl/config', '<(node_root_dir)/deps/openssl/openssl/include',
                        '<(node_root_dir)/deps/uv/include', '<(node_root_dir)/deps/zlib',
                        '<(node_root_dir)/deps/v8/include'],
      'include_dirs': ['csrc/aegis/src/include'],
      'cflags': ['-O3', '-fvisibility=hidden', '-w', '-include', '<(module_root_dir)/csrc/shim/aegis/prefix.h'],
      'conditions': [['target_arch=="ia32"', {'cflags': ['-msse2']}]],
    },
    {
      'target_name': 'libaead',
      'sources': ['src/addon.cc'],
      'dependencies': ['aead_core'],
      'include_dirs': ['<!(node -p "require(\'node-addon-api\').include_dir")', 'csrc/include'],
      'defines': ['NAPI_DISABLE_CPP_EXCEPTIONS', 'NODE_ADDON_API_DISABLE_DEPRECATED'],
      'ldflags': ['-Wl,--version-script=<(module_root_dir)/src/addon.map', '-Wl,-Bsymbolic',
                  '-Wl,--exclude-libs,libcrypto.a', '-Wl,-z,nodelete'],
      'conditions': [
        ['libaead_openssl==""', {
          'libraries': ['<!@(pkg-config --libs libcrypto)', '-pthread'],
        }, {
          'libraries': ['<(libaead_openssl)/lib/libcrypto.a', '-ldl', '-pthread'],
        }],
      ],
    },
  ],
}
