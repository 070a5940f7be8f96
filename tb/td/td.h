// SPDX-License-Identifier: Apache-2.0
// Task descriptors (docs/td.md): the 0x274-byte register program of one ANE task, its fields
// (described once in rtl/regs/ane_regs.yaml, generated into tb/regs/ane_regs.h), and the chain
// the header's NextPointer links. Reading is strict: every TD must have the seven stream
// headers of the H13 layout at their places, a stream may not run past its TD, a chain may not
// loop or leave its buffer. Errors are TdError (tb/td/hwx.h) with one line naming the TD and
// the offset.
#ifndef TB_TD_TD_H_
#define TB_TD_TD_H_

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "tb/regs/ane_regs.h"
#include "tb/td/hwx.h"

namespace ane::td {

inline constexpr uint32_t kTdWords = regs::td::kTdBytes / 4;
inline constexpr int kMaxChain = 4096;

struct Td {
  uint32_t at = 0;                         // byte offset in the chain buffer
  std::array<uint32_t, kTdWords> words{};  // little-endian words as read

  uint32_t Get(int field) const;
  // Field F read as its type: its enum of td.enums (a code the YAML does not list reads as an
  // unnamed value of it) or uint32_t. A compile-time field id, checked by the compiler.
  template <int F>
  typename regs::td::FieldType<F>::type As() const {
    return static_cast<typename regs::td::FieldType<F>::type>(Get(F));
  }
  // Fails (TdError) when the value does not fit the field.
  void Set(int field, uint64_t value);
  // A TD of zeros with the seven stream headers in place.
  static Td Blank();
};

// The bits of TD word w (0..kTdWords-1) that no named field covers (stream header words
// included: they are checked, not fields).
uint32_t UnnamedBits(uint32_t w);
// The stream (index in regs::td::kStreams, or regs::td::kHeaderStream) TD word w belongs to,
// and whether it is that stream's header word.
int StreamOfWord(uint32_t w, bool* is_header);

// Walks the chain from offset 0: each TD checked, then EON (end of network) ends it, otherwise
// NextPointer (the next TD's offset in the buffer) leads on. expected_count > 0: the number of
// TDs the container announces, which must match.
std::vector<Td> WalkChain(const std::vector<uint8_t>& buf, uint32_t expected_count = 0);

// Checks one TD's layout (stream headers) at `at` in `buf`. Throws TdError.
Td ReadTd(const std::vector<uint8_t>& buf, uint32_t at, int index);

// The buffer that holds `tds` at their offsets (zeros between them), `size` bytes (at least up
// to the end of the last TD).
std::vector<uint8_t> EncodeChain(const std::vector<Td>& tds, uint32_t size);

// Field lookup by name ("Common.InDim.Win"); -1 when unknown.
int FieldByName(const std::string& name);

// The human-readable decode: per TD, every stream with every field (name, bits, value, units,
// meaning), unnamed nonzero words raw. With `hwx`, the container first (tensors, table, weights).
std::string DecodeText(const std::vector<Td>& tds, const Hwx* hwx, bool all_fields);

}  // namespace ane::td

#endif  // TB_TD_TD_H_
