// Catch2 v2 (Debian: <catch2/catch.hpp>) and v3 (Homebrew, Ubuntu 24.04:
// <catch2/catch_all.hpp>) behind one include. Tests include only this.
#pragma once
#if __has_include(<catch2/catch_all.hpp>)
#include <catch2/catch_all.hpp>
#define DISTKIT_CATCH_V3 1
#else
#include <catch2/catch.hpp>
#endif
