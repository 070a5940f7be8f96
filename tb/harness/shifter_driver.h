// SPDX-License-Identifier: Apache-2.0
// Drives an ane_shifter model (any NumLanes, BankBytes, BeatBytes): configures a layer, loads
// its work units through the load port while requests run on the other bank (double
// buffering), and collects the lane vectors, with random gaps on both input ports and random
// back-pressure on the output. ResetMidJob resets the shifter in the middle of a layer.
#ifndef TB_HARNESS_SHIFTER_DRIVER_H_
#define TB_HARNESS_SHIFTER_DRIVER_H_

#include <cstdint>
#include <deque>
#include <functional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "tb/harness/sim.h"
#include "tb/plan/work_unit.h"

namespace ane::harness {

// 32-bit word w of a Verilated port value (an integer type or a VlWide).
template <class T>
uint32_t PortWord(const T& v, int w) {
  if constexpr (std::is_integral_v<T>) {
    return int(sizeof(T)) * 8 > 32 * w ? uint32_t(uint64_t(v) >> (32 * w)) : 0u;
  } else {
    return v[size_t(w)];
  }
}
template <class T>
void SetPortWord(T& v, int w, uint32_t x) {
  if constexpr (std::is_integral_v<T>) {
    if (int(sizeof(T)) * 8 > 32 * w) {
      const uint64_t mask = uint64_t(0xFFFFFFFFu) << (32 * w);
      v = T((uint64_t(v) & ~mask) | (uint64_t(x) << (32 * w)));
    }
  } else {
    v[size_t(w)] = x;
  }
}

// One step request: a kernel step of the current work unit.
struct ShifterRequest {
  int c = 0;  // channel within the work unit
  int ky = 0;
  int kx = 0;
  bool release = false;
  bool nodata = false;
  uint32_t tag = 0;
};

struct ShifterOutput {
  std::vector<uint16_t> data;  // one per lane
  std::vector<bool> mask;
  uint32_t tag = 0;
};

struct ShifterStats {
  uint64_t cycles = 0;      // from the first offered beat or request to the last vector
  uint64_t out_cycles = 0;  // cycles with a vector taken
  uint64_t req_stalls = 0;  // cycles a request was offered and not taken
};

template <class Model>
class ShifterDriver {
 public:
  ShifterDriver(Sim<Model>& sim, int lanes, int beat_bytes) : sim_(sim), lanes_(lanes), beat_bytes_(beat_bytes) {}

  void Reset() {
    Idle();
    sim_.Reset();
  }

  // Reset in the middle of a layer (Sim::InterruptAt): rst_ni low for `hold` cycles while the
  // load and request ports keep offering (`below` set: valid, ready and the 1-bit flags at
  // random; the data fields keep their last values), the configuration port quiet; then idle.
  void ResetMidJob(int hold, const typename Sim<Model>::Below& below = {}) {
    Model& d = sim_.dut();
    sim_.ResetWithTraffic(
        hold, below, [&] { Idle(); },
        [&](const auto& r) {
          d.ld_valid_i = r(2);
          d.ld_last_i = r(2);
          d.rq_valid_i = r(2);
          d.rq_release_i = r(2);
          d.rq_nodata_i = r(2);
          d.out_ready_i = r(2);
        });
  }

  void Configure(const ShifterLayer& l) {
    Model& d = sim_.dut();
    for (const auto& [a, v] : ShifterConfigWrites(l)) WriteConfig(sim_, a, v);
    d.eval();
    while (d.busy_o) {
      sim_.Tick();
      d.eval();
    }
  }

  // Loads `wus` in order and serves `reqs` (release marks each work unit's last request).
  std::vector<ShifterOutput> Run(const std::vector<WorkUnit>& wus, const std::vector<ShifterRequest>& reqs,
                                 const std::function<bool()>& ld_gap, const std::function<bool()>& rq_gap,
                                 const std::function<bool()>& stall, ShifterStats* stats = nullptr) {
    Model& d = sim_.dut();
    size_t expect = 0;
    for (const auto& r : reqs) expect += r.nodata ? 0 : 1;
    std::vector<ShifterOutput> out;
    size_t wu = 0, beat = 0, next = 0;
    bool ld_pending = false, rq_pending = false;
    size_t in_flight = 0;  // data requests taken whose vector has not come out
    const uint64_t start = sim_.cycles();
    ShifterStats st;
    while (out.size() < expect) {
      // Load port.
      const bool ld_offer = wu < wus.size() && (ld_pending || !ld_gap());
      d.ld_valid_i = ld_offer;
      if (ld_offer) {
        const auto& bytes = wus[wu].bytes;
        const size_t beats = bytes.size() / size_t(beat_bytes_);
        for (int w = 0; w < beat_bytes_ / 4; ++w) {
          uint32_t x = 0;
          for (int b = 0; b < 4; ++b) x |= uint32_t(bytes[beat * size_t(beat_bytes_) + size_t(4 * w + b)]) << (8 * b);
          SetPortWord(d.ld_data_i, w, x);
        }
        d.ld_last_i = beat + 1 == beats;
        d.ld_desc_i = wus[wu].Desc();
      }
      // Request port.
      const bool rq_offer = next < reqs.size() && (rq_pending || !rq_gap());
      d.rq_valid_i = rq_offer;
      if (rq_offer) {
        const ShifterRequest& r = reqs[next];
        d.rq_c_i = uint32_t(r.c);
        d.rq_ky_i = uint32_t(r.ky);
        d.rq_kx_i = uint32_t(r.kx);
        d.rq_release_i = r.release;
        d.rq_nodata_i = r.nodata;
        d.rq_tag_i = r.tag;
      }
      d.out_ready_i = !stall();
      d.eval();
      const bool ld_take = ld_offer && d.ld_ready_o;
      const bool rq_take = rq_offer && d.rq_ready_o;
      ld_pending = ld_offer && !ld_take;
      rq_pending = rq_offer && !rq_take;
      if (rq_offer && !rq_take) ++st.req_stalls;
      if (d.out_valid_o && d.out_ready_i) {
        // A vector is the answer to a request of this run taken in an earlier cycle: one
        // with none in flight is left over (from a layer interrupted by a reset, say).
        if (in_flight == 0) {
          throw std::runtime_error("ane_shifter: a vector with no request in flight (cycle " +
                                   std::to_string(sim_.cycles()) + ")");
        }
        --in_flight;
        ShifterOutput o;
        o.data.resize(size_t(lanes_));
        o.mask.resize(size_t(lanes_));
        for (int l = 0; l < lanes_; ++l) {
          o.data[size_t(l)] = uint16_t(PortWord(d.out_data_o, l / 2) >> (16 * (l % 2)));
          o.mask[size_t(l)] = (PortWord(d.out_mask_o, l / 32) >> (l % 32)) & 1;
        }
        o.tag = d.out_tag_o;
        out.push_back(std::move(o));
        ++st.out_cycles;
      }
      if (ld_take) {
        if (++beat == wus[wu].bytes.size() / size_t(beat_bytes_)) {
          beat = 0;
          ++wu;
        }
      }
      if (rq_take) in_flight += reqs[next++].nodata ? 0 : 1;
      sim_.Tick();
    }
    Idle();
    st.cycles = sim_.cycles() - start;
    if (stats) *stats = st;
    return out;
  }

 private:
  void Idle() {
    Model& d = sim_.dut();
    d.cfg_we_i = 0;
    d.ld_valid_i = 0;
    d.rq_valid_i = 0;
    d.out_ready_i = 1;
  }

  Sim<Model>& sim_;
  int lanes_;
  int beat_bytes_;
};

// The requests of a layer's work units: every step (c, ky, kx) of each work unit in N-2 order
// (ky counted from the work unit's first kernel row),
// each repeated `reps` times (the kernels that share the data vector), release on the last.
inline std::vector<ShifterRequest> DenseRequests(const ShifterLayer& l, const std::vector<WorkUnit>& wus, int reps) {
  std::vector<ShifterRequest> r;
  uint32_t tag = 0;
  for (const WorkUnit& wu : wus) {
    for (int c = 0; c < wu.nc; ++c) {
      for (int ky = 0; ky < wu.nky; ++ky) {
        for (int kx = 0; kx < l.geom.kernel_w; ++kx) {
          for (int k = 0; k < reps; ++k) r.push_back({c, ky, kx, false, false, tag++});
        }
      }
    }
    r.back().release = true;
  }
  return r;
}

}  // namespace ane::harness

#endif  // TB_HARNESS_SHIFTER_DRIVER_H_
