// SPDX-License-Identifier: Apache-2.0
// The editable YAML form of a TD chain (`ane td decode --yaml`, `ane td encode`): every named
// field by name, the bits no field covers by TD offset. Split from hwx_cmd.cc so that the fuzz
// target links it without the engines.
#include <fmt/format.h>

#include <optional>

#include "tb/cli/hwx_cmd.h"
#include "tb/cli/schema.h"

namespace ane::cli {
namespace {

namespace r = regs::td;

bool IsStreamHeaderWord(uint32_t w) {
  bool is_header = false;
  td::StreamOfWord(w, &is_header);
  return is_header;
}

// A non-negative integer written in decimal or 0x hex.
uint64_t ReadNumber(const Field& f, uint64_t hi) {
  const std::string s = f.Scalar();
  uint64_t v = 0;
  const bool hex = s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
  const std::string digits = hex ? s.substr(2) : s;
  if (digits.empty() || digits.size() > 16) f.Fail(fmt::format("'{}' is not a number (decimal or 0x hex)", s));
  for (char c : digits) {
    int d;
    if (c >= '0' && c <= '9') {
      d = c - '0';
    } else if (hex && c >= 'a' && c <= 'f') {
      d = c - 'a' + 10;
    } else if (hex && c >= 'A' && c <= 'F') {
      d = c - 'A' + 10;
    } else {
      f.Fail(fmt::format("'{}' is not a number (decimal or 0x hex)", s));
    }
    const uint64_t base = hex ? 16 : 10;
    if (v > (hi - uint64_t(d)) / base) f.Fail(fmt::format("{} is more than {}", s, hi));
    v = v * base + uint64_t(d);
  }
  return v;
}

}  // namespace

std::string TdChainYaml(const std::vector<td::Td>& tds, uint32_t size, const std::string& source) {
  std::string o;
  o += fmt::format("# Task descriptors of {} (ane td decode --yaml; fields: docs/td.md).\n", source);
  o += "# Edit the values, then:  ane td encode THIS.yaml -o td.bin   or   ... --hwx PROGRAM.hwx -o new.hwx\n";
  o += "# A field left out is 0; `unnamed` holds the bits no named field covers, by TD offset.\n";
  o += fmt::format("size: 0x{:x}\n", size);
  o += "tds:\n";
  for (const td::Td& t : tds) {
    o += fmt::format("  - at: 0x{:x}\n", t.at);
    o += "    fields:\n";
    int last_stream = -2;
    for (int f = 0; f < r::kNumFields; ++f) {
      const r::Field& fd = r::kFields[f];
      if (fd.stream != last_stream) {
        o += fmt::format("      # {}\n", fd.stream == r::kHeaderStream ? "header" : r::kStreams[fd.stream].name);
        last_stream = fd.stream;
      }
      o += fmt::format("      {}: {}\n", fd.name, t.Get(f));
    }
    std::string unnamed;
    for (uint32_t w = 0; w < td::kTdWords; ++w) {
      if (IsStreamHeaderWord(w)) continue;
      const uint32_t bits = t.words[w] & td::UnnamedBits(w);
      if (bits) unnamed += fmt::format("      0x{:03x}: 0x{:08x}\n", w * 4, bits);
    }
    o += unnamed.empty() ? "    unnamed: {}\n" : "    unnamed:\n" + unnamed;
  }
  return o;
}

std::vector<uint8_t> TdChainFromYaml(const std::string& text, const std::string& file) {
  Fields top(ParseYamlFile(text, file));
  const std::optional<Field> size_field = top.Optional("size");
  const Field list = top.Required("tds");
  top.Finish();
  const std::vector<Field> items = list.Items();
  if (items.empty()) list.Fail("no TDs");
  if (items.size() > size_t(td::kMaxChain)) list.Fail(fmt::format("more than {} TDs", td::kMaxChain));
  std::vector<td::Td> tds;
  for (size_t i = 0; i < items.size(); ++i) {
    Fields tf(items[i]);
    td::Td t = td::Td::Blank();
    if (const std::optional<Field> at = tf.Optional("at")) {
      const uint64_t v = ReadNumber(*at, 1u << 30);
      if (v % 4 != 0) at->Fail("a TD's offset must be a multiple of 4");
      t.at = uint32_t(v);
    } else {
      t.at = i == 0 ? 0 : tds.back().at + r::kChainStride;
    }
    if (const std::optional<Field> fields = tf.Optional("fields")) {
      Fields ff(*fields);
      for (int f = 0; f < r::kNumFields; ++f) {
        if (const std::optional<Field> v = ff.Optional(r::kFields[f].name)) {
          const uint64_t x = ReadNumber(*v, 0xFFFFFFFFu);
          const uint32_t width = r::kFields[f].width;
          if (width < 32 && x >> width) v->Fail(fmt::format("{} does not fit the field's {} bits", x, width));
          t.Set(f, x);
        }
      }
      ff.Finish();  // an unknown field name fails here
    }
    if (const std::optional<Field> unnamed = tf.Optional("unnamed")) {
      if (!unnamed->IsMap()) unnamed->Fail("expected a map from TD offset to bits");
      for (auto it = unnamed->node().begin(); it != unnamed->node().end(); ++it) {
        const Field key(it->first, file, unnamed->path() + "." + it->first.Scalar());
        const Field val(it->second, file, key.path());
        const uint64_t off = ReadNumber(key, r::kTdBytes - 4);
        if (off % 4 != 0) key.Fail("not a multiple of 4");
        const uint32_t w = uint32_t(off / 4);
        if (IsStreamHeaderWord(w)) key.Fail("a stream header word: fixed by the layout, not editable");
        const uint32_t bits = uint32_t(ReadNumber(val, 0xFFFFFFFFu));
        if (bits & ~td::UnnamedBits(w)) {
          val.Fail(fmt::format("bits 0x{:08x} overlap named fields of this word (set them under fields)",
                               bits & ~td::UnnamedBits(w)));
        }
        t.words[w] |= bits;
      }
    }
    tf.Finish();
    tds.push_back(t);
  }
  uint64_t end = 0;
  for (const td::Td& t : tds) end = std::max<uint64_t>(end, uint64_t(t.at) + r::kTdBytes);
  uint32_t size = uint32_t(end);
  if (size_field) {
    const uint64_t s = ReadNumber(*size_field, 1u << 30);
    if (s < end) size_field->Fail(fmt::format("0x{:x} is less than the end of the last TD, 0x{:x}", s, end));
    size = uint32_t(s);
  }
  try {
    std::vector<uint8_t> buf = td::EncodeChain(tds, size);
    td::WalkChain(buf);  // the result must be a chain the decoder accepts
    return buf;
  } catch (const td::TdError& e) {
    throw CliError(fmt::format("{}: {}", file, e.what()));
  }
}

}  // namespace ane::cli
