// Catch2 v2 (Debian 12's catch2 package) ships one header; v3 ships catch_all.hpp. Accept either.
#pragma once
#if __has_include(<catch2/catch_all.hpp>)
#include <catch2/catch_all.hpp>
#else
#include <catch2/catch.hpp>
#endif
