// SPDX-License-Identifier: Apache-2.0
// The object the RTL tests' precompiled header is built with (tb/tests/CMakeLists.txt).
