// SPDX-License-Identifier: Apache-2.0
// Seeds and sizes for randomized tests. Every random test takes its seed from TestSeed(),
// prints it on failure (SCOPED_TRACE) and can be rerun with ANE_TEST_SEED=<seed>.
// ANE_SOAK=1 (make soak) multiplies the iteration counts by SoakFactor().
#ifndef TB_TESTS_TEST_SEED_H_
#define TB_TESTS_TEST_SEED_H_

#include <cstdint>
#include <cstdlib>
#include <string>

namespace ane::test {

inline uint64_t TestSeed(uint64_t default_seed) {
  const char* env = std::getenv("ANE_TEST_SEED");
  return env ? std::strtoull(env, nullptr, 0) : default_seed;
}

inline uint64_t SoakFactor() {
  const char* env = std::getenv("ANE_SOAK");
  return (env && std::string(env) != "0") ? 20 : 1;
}

// The share of a long random test's iterations the coverage build runs (make coverage,
// -DANE_COVERAGE=ON): a third. Its counters make every simulation several times slower, and the
// whole run must fit an hour on 2 cores (docs/verification.md, "Time"); the directed sweeps run
// whole. Elsewhere n itself.
inline uint64_t CoverageShare(uint64_t n) {
#ifdef ANE_COVERAGE
  return n / 3 > 0 ? n / 3 : 1;
#else
  return n;
#endif
}

inline std::string SeedNote(uint64_t seed) {
  return "seed " + std::to_string(seed) + " (rerun with ANE_TEST_SEED=" + std::to_string(seed) + ")";
}

// splitmix64: small, fast, identical on every machine.
class Rng {
 public:
  explicit Rng(uint64_t seed) : state_(seed) {}
  uint64_t Next() {
    uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  uint32_t Below(uint32_t n) { return uint32_t(Next() % n); }
  uint16_t Code() { return uint16_t(Next()); }

 private:
  uint64_t state_;
};

}  // namespace ane::test

#endif  // TB_TESTS_TEST_SEED_H_
