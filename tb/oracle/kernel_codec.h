// SPDX-License-Identifier: Apache-2.0
// Compressed kernels (NUMERICS N-6) and the order in which the kernel extract hands their
// coefficients to the MAC array (the schedule). The stream format and the schedule are
// specified in docs/kernel_extract.md; this file is the oracle's reading of that page.
//
// A kernel group is NK kernels over the K steps of one reduction (N-2 order). In broadcast mode
// NK = R kernels go to accumulator slots 0 .. R-1 (R <= 8); in the fp16 two-kernel mode NK = 2R
// and kernel 2j is kernel A of slot j (even lanes), kernel 2j + 1 kernel B (odd lanes); in the
// fp16 four-kernel mode NK = 4R and kernel 4j + k is kernel k of slot j (lanes 4p + k), dense
// only.
//
// Coefficient formats (the coefficient is the 16-bit kernel code the MAC lane receives):
//   fp16       the fp16 code itself
//   int8sym    w = RNE16(scale * q), q an int8, scale fp16 per tensor or per kernel (N-6.1)
//   palette    w = table[index], a 2^b-entry fp16 table, b in 1, 2, 4, 6, 8 (N-6.2)
//   raw8/raw4  an int8 / int4 kernel for the integer MAC modes, sign-extended to 16 bits
// Any format may be sparse: a keep bit per coefficient, only kept values stored, a dropped
// coefficient is +0 (N-6.3).
//
// The schedule: for quad g (steps 4g .. 4g+3, the N-2.4 lattice): for step s: for slot j: one
// operation. A sparse group drops block (g, j), the four operations of slot j in quad g, when
// every coefficient in it is dropped (A and B in two-kernel mode) and g is neither the first
// nor the last quad of the reduction. That is the only skip that provably changes no result:
// an all-zero quad adds +0 to the accumulator, and keeping the first and last quads keeps the
// `first`/`last` flags, the quad lattice and the "K >= 2" port ceiling of N-2.6 in place.
// Dropping single zero products would move the lattice and change add12 roundings (N-2.4).
#ifndef TB_ORACLE_KERNEL_CODEC_H_
#define TB_ORACLE_KERNEL_CODEC_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace ane::oracle {

enum class KernelFormat : uint8_t {
  kFp16 = 0,
  kInt8Sym = 1,
  kPalette = 2,
  kRaw8 = 3,
  kRaw4 = 4,
};
const char* KernelFormatName(KernelFormat f);
bool ParseKernelFormat(const std::string& name, KernelFormat* out);

struct KernelSpec {
  KernelFormat format = KernelFormat::kFp16;
  bool sparse = false;
  bool two_kernel = false;
  bool four_kernel = false;        // dense fp16-coefficient groups only; not with two_kernel
  bool per_channel_scale = false;  // int8sym: one scale per kernel instead of one per group
  int palette_bits = 4;            // palette: 1, 2, 4, 6 or 8
  bool params = false;             // per-kernel post-processing parameters in the header
};
// Bits of one stored value: 16 (fp16), 8 (int8sym, raw8), b (palette), 4 (raw4).
int ValueBits(const KernelSpec& spec);
// Kernels per accumulator slot: 1 (broadcast), 2 (two-kernel) or 4 (four-kernel).
int KernelsPerSlot(const KernelSpec& spec);

// The post-processor's per-output-channel parameters that travel with a kernel (N-3.1).
struct KernelParams {
  uint16_t scale = 0x3C00;  // fp16
  uint32_t bias = 0;        // fp32
  bool operator==(const KernelParams& o) const { return scale == o.scale && bias == o.bias; }
};

// A kernel group before compression.
struct KernelGroup {
  KernelSpec spec;
  int steps = 0;                               // K
  std::vector<std::vector<uint16_t>> weights;  // [NK][K]: fp16 codes, or raw ints in the low bits
  std::vector<uint16_t> scales;                // int8sym: 1 or NK fp16 scales; empty: chosen
  std::vector<uint16_t> palette;               // palette: 2^b fp16 entries; empty: chosen
  std::vector<KernelParams> params;            // NK entries when spec.params
};

// Compresses a group into 32-bit words (a whole number of 64-bit beats). Fills g->scales and
// g->palette when they are empty:
//   int8 scale = RNE16(max |w| / 127) over the group (or the kernel), 1.0 for an all-zero set;
//   int8 q = clamp(RNE(w / scale), -127, 127), exact (N-6.1);
//   palette: the distinct values when they fit (lossless), otherwise a 1-D k-means (Lloyd,
//   quantile start, 32 rounds) whose centres are rounded to fp16; each weight takes the nearest
//   entry, the lower index on a tie.
// Throws std::invalid_argument with a one-line reason for anything it cannot encode.
std::vector<uint32_t> EncodeKernelGroup(KernelGroup* g);

// One operation of the schedule.
struct KernelOp {
  int step = 0;  // s, 0 .. K-1 (N-2 order)
  int slot = 0;  // j, 0 .. R-1
  uint16_t coef_a = 0;
  uint16_t coef_b = 0;  // two- and four-kernel modes only
  uint16_t coef_c = 0;  // four-kernel mode only
  uint16_t coef_d = 0;  // four-kernel mode only
  bool first = false;   // s == 0
  bool last = false;    // s == K - 1
  bool operator==(const KernelOp& o) const {
    return step == o.step && slot == o.slot && coef_a == o.coef_a && coef_b == o.coef_b && coef_c == o.coef_c &&
           coef_d == o.coef_d && first == o.first && last == o.last;
  }
};

struct DecodedGroup {
  KernelSpec spec;
  int slots = 0;  // R
  int steps = 0;  // K
  int header_words = 0;
  size_t words = 0;  // words the group occupies, padding included
  std::vector<uint16_t> palette;
  std::vector<uint16_t> scales;
  std::vector<KernelParams> params;
  std::vector<std::vector<uint16_t>> coefs;  // [NK][K], the coefficients the MAC receives
  std::vector<std::vector<bool>> stored;     // [NK][K], the keep mask (all true when dense)
  std::vector<KernelOp> ops;                 // the schedule
  int skipped_blocks = 0;                    // (quad, slot) blocks dropped
  int idle_quads = 0;                        // quads with every block dropped: one cycle each without an operation
};

// Decompresses the group that starts at words[0]; `steps` is K. Throws std::invalid_argument
// with a one-line reason for a malformed or truncated stream.
DecodedGroup DecodeKernelGroup(const uint32_t* words, size_t n, int steps);

// The schedule over given coefficients [NK][K] (see the header comment), `per_slot` kernels per
// slot (1, 2 or 4: KernelsPerSlot). `stored` may be empty (dense: nothing is dropped). Sets
// *skipped_blocks / *idle_quads when not null.
std::vector<KernelOp> BuildSchedule(const std::vector<std::vector<uint16_t>>& coefs,
                                    const std::vector<std::vector<bool>>& stored, int per_slot, bool sparse, int steps,
                                    int* skipped_blocks = nullptr, int* idle_quads = nullptr);

// The encoder's choices (EncodeKernelGroup) for g's weights, where g gives none: int8sym scales
// (RNE16(max |w| / 127) over all of them, or per kernel), the palette (a sparse group's from its
// nonzero weights). Does not check g otherwise, so one call can choose for a whole layer whose
// groups then share the choice. Throws std::invalid_argument when a lossy palette meets a NaN
// or an infinity.
void ChooseStorage(KernelGroup* g);

// The coefficients the MAC receives for the kernels w [N][K] stored as `spec` says (broadcast
// groups of up to 8 kernels, each group with `palette` / `scales` when given, else its own
// choice): each group encoded and decoded again. Throws std::invalid_argument as
// EncodeKernelGroup does.
std::vector<std::vector<uint16_t>> StoredCoefficients(KernelSpec spec, const std::vector<uint16_t>& palette,
                                                      const std::vector<uint16_t>& scales,
                                                      const std::vector<std::vector<uint16_t>>& w);

// The coefficient a weight decompresses to, for tests: int8sym dequantization.
uint16_t DequantInt8(uint16_t scale, int q);
// Exact N-6.1 quantization: clamp(RNE(w / scale), -127, 127). w and scale finite, scale != 0.
int QuantizeInt8(uint16_t w, uint16_t scale);

}  // namespace ane::oracle

#endif  // TB_ORACLE_KERNEL_CODEC_H_
