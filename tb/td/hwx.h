// SPDX-License-Identifier: Apache-2.0
// The .hwx container (docs/td.md "The container"): a little-endian Mach-O file made by Apple's
// ANE compiler, read strictly. What the front end takes from it: the task-descriptor chain
// (section __TEXT,__text), the weights (__TEXT,__const), the buffer address table (the first
// LC_THREAD, flavor 1), and each input/output tensor: an __FVMLIB segment without file data
// (protection 1 input, 2 output) named by an LC_LOADFVMLIB, with its dimensions and byte
// strides in an LC_THREAD of flavor 3. Every offset and size is checked against the file; a
// malformed file gives a TdError with a one-line message naming what is wrong and where.
//
// WriteHwx makes a file of the same structure (the project's encoder and its random tests).
#ifndef TB_TD_HWX_H_
#define TB_TD_HWX_H_

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace ane::td {

// A malformed or unsupported input: the message is one line, without a file name.
class TdError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

inline constexpr uint32_t kHwxMagic = 0xBEEFFACEu;
inline constexpr uint32_t kHwxCpuType = 0x80;
inline constexpr uint32_t kHwxCpuSubtypeH13 = 4;
inline constexpr int kBarEntries = 32;  // a header Base field is 5 bits

struct Section {
  std::string segname, sectname;
  uint64_t addr = 0, size = 0;
  uint32_t offset = 0;  // file offset (0: no file data)
  uint32_t align = 0, reloff = 0, nreloc = 0, flags = 0;
  uint32_t header_at = 0;  // file offset of the section header
};

struct Relocation {
  int section = 0;       // index into Hwx::sections
  uint32_t address = 0;  // offset in that section of the patched 4-byte word
  uint32_t raw = 0;      // r_symbolnum:24 r_pcrel:1 r_length:2 r_extern:1 r_type:4
};

struct Segment {
  std::string name;
  uint64_t vmaddr = 0, vmsize = 0, fileoff = 0, filesize = 0;
  uint32_t maxprot = 0, initprot = 0, flags = 0;
  uint32_t command = 0;  // index in Hwx::commands
};

enum class TensorRole { kInput = 1, kOutput = 2 };

// One tensor of the program, as the host sees it.
struct HwxTensor {
  std::string name;  // LC_LOADFVMLIB name ("image", "probs@output")
  TensorRole role = TensorRole::kInput;
  uint64_t vmaddr = 0;  // the segment's address, what the buffer address table holds
  uint64_t vmsize = 0;
  int bar = -1;       // the table entry holding vmaddr (-1: none)
  uint32_t type = 0;  // element type (5 float16, 2 int8: the file's stabs type numbers)
  // [N, C, H, W, D] and their byte strides, as the flavor-3 thread gives them.
  uint32_t dims[5] = {0, 0, 0, 0, 0};
  uint64_t strides[5] = {0, 0, 0, 0, 0};
  uint32_t bytes = 0;  // the thread's size word (inputs: the buffer; outputs: the last byte written)
};

struct LoadCommand {
  uint32_t cmd = 0, size = 0, at = 0;  // at: file offset
};

struct Hwx {
  std::vector<uint8_t> bytes;  // the whole file
  uint32_t cputype = 0, cpusubtype = 0, filetype = 0, flags = 0;
  std::vector<LoadCommand> commands;
  std::vector<Segment> segments;
  std::vector<Section> sections;  // in file order (Mach-O section n is sections[n - 1])
  std::vector<Relocation> relocations;
  std::vector<HwxTensor> tensors;  // in LC_LOADFVMLIB order
  uint64_t bar[kBarEntries] = {};  // buffer address table
  uint64_t td_addr = 0;            // the first TD's address (flavor-1 thread)
  uint32_t td_words = 0;           // words of a TD (the thread says words - 1)
  uint32_t td_count = 0;           // TDs in the chain
  std::string ident;               // LC_IDENT text, lines joined by " | "
  int text = -1;                   // index of __TEXT,__text (the TD chain)
  int weights = -1;                // index of __TEXT,__const (-1: none)
  int weights_bar = -1;            // the buffer-table entry holding the weights' address (-1: none)

  // The TD chain's bytes (the __text section) and the weights' bytes (empty without weights).
  std::vector<uint8_t> TdBytes() const;
  std::vector<uint8_t> WeightBytes() const;
  // The buffer a table entry holds: "TDs", "weights", "input image", "output probs@output",
  // "unused" (address 0) or "address 0x..." (nothing in the file there).
  std::string BarName(int i) const;
};

// True when the data starts with the .hwx magic (otherwise `ane td decode` reads a raw TD blob).
bool IsHwx(const std::vector<uint8_t>& bytes);

// Parses a whole file. Throws TdError.
Hwx ParseHwx(std::vector<uint8_t> bytes);

// What WriteHwx needs: the TD chain, the weights and the tensors (dims, strides, type, role,
// name; vmaddr and bar are assigned: entry 0 the TDs, 1 the weights, 4.. the outputs then the
// inputs, as in Apple's files).
struct HwxSpec {
  std::vector<uint8_t> tds;  // the chain (TDs at multiples of 0x300)
  uint32_t td_count = 1;
  std::vector<uint8_t> weights;  // may be empty
  std::vector<HwxTensor> tensors;
  int scratch = 0;                // buffers that are neither weights nor tensors (chains)
  std::vector<int> scratch_bars;  // out: their table entries (after the tensors')
  std::string ident = "ANEC v1\nane td encode";
};
// Returns the file; spec.tensors gets each tensor's vmaddr and bar.
std::vector<uint8_t> WriteHwx(HwxSpec* spec);

}  // namespace ane::td

#endif  // TB_TD_HWX_H_
