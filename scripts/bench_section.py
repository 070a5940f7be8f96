#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Turn Google Benchmark JSON into the bench section of docs/results.md.

  bench_section.py --update docs/results.md BENCH.json...
rewrites the text between <!-- bench:begin --> and <!-- bench:end --> (nothing else changes).
"""
import argparse
import json
import os
import platform
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "synth"))
from results_section import update  # noqa: E402  (shared marker-section writer)

BEGIN = "<!-- bench:begin -->"
END = "<!-- bench:end -->"


def si(v):
    for unit, scale in (("G", 1e9), ("M", 1e6), ("k", 1e3)):
        if v >= scale:
            return f"{v / scale:.2f} {unit}"
    return f"{v:.0f}"


def describe(name):
    parts = name.split("/")
    if parts[0] == "BM_OracleDotFp16" and len(parts) == 3:
        return f"fp16 dot product, K = {parts[1]}, {'m5' if parts[2] == '1' else 'm1'}"
    if parts[0] == "BM_FastDotFp16" and len(parts) == 3:
        return f"fp16 dot product on the fast exact path, K = {parts[1]}, {'m5' if parts[2] == '1' else 'm1'}"
    if parts[0] == "BM_OracleConv3x3":
        return "3x3 convolution 32 -> 32 channels on 16 x 16 (2.36 M MACs), reference stages"
    if parts[0] == "BM_FastConv3x3":
        return "the same convolution on the fast exact path"
    if parts[0] == "BM_OracleDotInt8" and len(parts) == 2:
        return f"int8 dot product, K = {parts[1]}"
    return ""


def cycle_figures(b):
    """The simulated cycle counters of an RTL benchmark, or '' for a speed-only one."""
    if "latency" in b:
        return (f"{b['cycles']:.0f} cycles from the first operation to the result; "
                f"latency {b['latency']:.0f}, II {b['II']:.2f}")
    if "dense_cycles" in b:
        saved = 100 * (1 - b["cycles"] / b["dense_cycles"])
        return (f"{b['operations']:.0f} operations in {b['cycles']:.0f} cycles "
                f"({b['skipped_blocks']:.0f} quad blocks skipped, {b['idle_quads']:.0f} idle quads); "
                f"stored dense: {b['dense_cycles']:.0f} cycles; skipping saves {saved:.1f}%")
    if "utilization" in b and b["name"].startswith("BM_Shifter"):
        return (f"{b['operations']:.0f} vectors in {b['cycles']:.0f} cycles "
                f"(one per cycle after the first work unit's load, plus 4 of latency)")
    if "utilization" in b and b["name"].startswith("BM_Postproc"):
        return (f"{b['operations']:.0f} vectors in {b['cycles']:.0f} cycles: one vector per "
                f"cycle plus {b['cycles'] - b['operations']:.0f} cycles of pipeline latency")
    if "utilization" in b:
        return (f"{b['operations']:.0f} operations in {b['cycles']:.0f} cycles, "
                f"utilization {100 * b['utilization']:.1f}%")
    return ""


def core_table(core, oracle_conv):
    """The neural-engine core's layers: cycles, every lost cycle by cause, and both speeds."""
    out = ["### Neural-engine core: layers", ""]
    out.append("`BM_CoreConv/i/0` runs a layer on the Verilated 256-lane core (`Vane_core256_m1`, "
               "`harness::RtlConv2d`: the driver's tiling, memory 1 cycle away, always ready) and "
               "checks every output against `oracle::Conv2d`; `BM_OracleConv/i` runs the same layer "
               "on the oracle. Speeds are per CPU second (one thread). Utilization = MACs / (256 x "
               "cycles). The lost cycles, cycles - MACs / 256, split by cause (they add up): `edge` "
               "MAC cycles x the share of lanes without an output position (tile edges, a tile "
               "narrower than the lanes); `res` the MAC array did not take an operation it had because "
               "the result side was full; `slot` it did not take it because of the lane's same-slot "
               "rule (a slot's next product waits for its quad, docs/mac_lane.md, Timing); `load` waiting for a work unit's input; `kern` "
               "waiting for kernels (group headers, the pass directory, pipeline fill); `drain` the "
               "rest (after the last operation: the pipeline, the post-processor and the writes). "
               "Input port 64 bytes per cycle, output port 64 bytes, input buffer a ring of 8 banks of 512 bytes; "
               "the depthwise interleave runs 4 depthwise groups per pass, each from its own bank (docs/core.md). "
               "An int4 packed layer (`harness::RtlConv2dInt4`, N-2.8) runs four images at once, one per nibble "
               "of a 16-bit element: its MACs are the four images', so its utilization can reach 400%. "
               "`BM_CoreConv/i/1` runs the layer on the m5 core (`Vane_core256_m5`, checked against the oracle "
               "at m5): its cycles and utilization are the last column.")
    out.append("")
    out.append("| Layer | Mapping | Tiles x passes | MACs | Cycles | MAC cycles | Utilization | "
               "Lost: edge / res / slot / load / kern / drain | RTL speed | Oracle speed | m5: cycles, utilization |")
    out.append("|---|---|---|---:|---:|---:|---:|---|---:|---:|---:|")
    # names: BM_CoreConv/<layer>/<generation: 0 m1, 1 m5>/iterations:1
    m5 = {b["name"].split("/")[1]: b for b in core if b["name"].split("/")[2] == "1"}
    for b in core:
        if b["name"].split("/")[2] == "1":
            continue
        idx = b["name"].split("/")[1]
        b5 = m5.get(idx)
        m5_text = f"{b5['cycles']:.0f}, {100 * b5['utilization']:.1f}%" if b5 else ""

        o = oracle_conv.get(idx)
        mac = b["operations"]
        per_op = 4 if b.get("int4") else 1  # an int4 operation: four images' products
        lanes = b["core_macs"] / (256 * per_op * mac) if mac else 0
        edge = mac * (1 - lanes)
        slot = b["wait_slot"]
        drain = b["cycles"] - mac - b["stall_res"] - slot - b["wait_load"] - b["wait_kern"]
        mapping = ("two-kernel" if b["two_kernel"] else
                   "four-kernel" if b.get("four_kernel") else
                   "depthwise interleave" if b.get("depthwise_interleave") else
                   "broadcast, int4 packed" if b.get("int4") else "broadcast")
        cpu_s = b["cpu_time"] / {"ns": 1e9, "us": 1e6, "ms": 1e3, "s": 1.0}[b["time_unit"]]
        speed = f"{si(b['cycles'] / cpu_s)} cycles/s, {si(b['MACs/s'])} MACs/s"
        out.append(f"| {b.get('label', '')} | {mapping}, {b['tile_h']:.0f}x{b['tile_w']:.0f} tiles "
                   f"| {b['tiles']:.0f} x {b['passes']:.0f} | {si(b['core_macs'])} | {b['cycles']:.0f} "
                   f"| {mac:.0f} | {100 * b['utilization']:.1f}% "
                   f"| {edge:.0f} / {b['stall_res']:.0f} / {slot:.0f} / {b['wait_load']:.0f} / {b['wait_kern']:.0f} / {drain:.0f} "
                   f"| {speed} | {si(o['MACs/s']) + ' MACs/s' if o else ''} | {m5_text} |")
    out.append("")
    return out


def section(reports):
    out = [BEGIN, "## Simulation and oracle speed", ""]
    out.append("Produced by `make results` (`scripts/results.sh`; `scripts/results.sh --bench-only` "
               "refreshes this section alone), Google Benchmark; do not edit between the markers.")
    ctx = reports[0].get("context", {}) if reports else {}
    out.append(f"Machine: {ctx.get('num_cpus', '?')} CPUs at {ctx.get('mhz_per_cpu', '?')} MHz, "
               f"{platform.system()} {platform.machine()}, build type Release (-O2), one thread.")
    out.append("")
    out.append("| Benchmark | What | Rate | CPU time per iteration | Simulated cycles |")
    out.append("|---|---|---:|---:|---|")
    core, oracle_conv = [], {}
    for rep in reports:
        for b in rep.get("benchmarks", []):
            if b.get("run_type") == "aggregate":
                continue
            if b["name"].startswith("BM_CoreConv/"):
                core.append(b)
                continue
            if b["name"].startswith("BM_OracleConv/"):
                oracle_conv[b["name"].split("/")[1]] = b
                continue
            rate_key = next((k for k in ("MACs/s", "ops/s") if k in b), None)
            rate = f"{si(b[rate_key])} {rate_key}" if rate_key else "n/a"
            what = b.get("label") or describe(b["name"])
            out.append(f"| `{b['name']}` | {what} | {rate} | {b['cpu_time']:.0f} {b['time_unit']} "
                       f"| {cycle_figures(b)} |")
    out.append("")
    out.append("`BM_OracleDotFp16/K/G`: one K-long fp16 dot product through every N-2 stage "
               "(G = 0 for m1, 1 for m5); `BM_OracleDotInt8/K`: the int8 path; "
               "`BM_OracleElementwise/i`: one fp16 elementwise operation (label names it). "
               "`BM_FastDotFp16/K/G` and `BM_FastConv3x3`: the fast exact path of fp16 x fp16 reductions "
               "(`tb/oracle/fast_mac.h`: fixed point in units of 2^-48, equal to the reference stages by "
               "`oracle_fast_mac_test`), which `--engine oracle` runs for conv2d and matmul; "
               "`BM_OracleConv3x3`: the same layer through the reference stages.")
    out.append("")
    out.append("`BM_ArrayMatmul/K/G`: a [256, K] x [K, 8] fp16 matmul on the Verilated 256-lane MAC "
               "array (`build/rtl_bench`), rate in simulated MACs per second, checked bit for bit "
               "against the oracle; `BM_OracleMatmul/K/G`: the same matmul on the oracle, in the "
               "same run. `BM_LaneReduction/K`: one K-long fp16 reduction through one lane at full "
               "rate; the cycle counts are exact counts from the simulation (II: cycles per "
               "accepted operation; latency: from the last operation accepted to its result on "
               "the output port). One slot alone is held by its own quads (the same-slot rule of "
               "docs/mac_lane.md, Timing), so its II is about 3.25; operations rotating over 8 "
               "slots (16 columns in two-kernel mode), as the array and the core issue them, run "
               "at II 1 (`BM_ArrayMatmul`: 8K + 11 cycles per pass).")
    out.append("")
    out.append("`BM_Shifter/L`: every work unit of a 3x3 same-padded layer (4 channels, one per work "
               "unit) loaded into the L-lane input buffer and walked with 8 requests per step; the "
               "rate counts lane values delivered (simulated), the last vector is checked against "
               "the oracle. `BM_KernelExtract/Z/R/Q`: one group of R fp16 kernels over K = 576 "
               "steps (64 channels, 3x3) with Z % zeros, scattered (Q = 0) or in whole quads "
               "(Q = 1), through the kernel extract at full rate; the cycle column compares the "
               "sparse stream with the same kernels stored dense. Only interior quads whose "
               "coefficients are all zero are skipped (docs/kernel_extract.md), so scattered "
               "zeros save little until they are dense enough to empty whole quads.")
    out.append("")
    out.append("`BM_PlanarReduce/P`: 4096 patches of 64 fp16 values through the planar reduction tree "
               "(`ane_pe_reduce`) at full rate, in sums of P patches, every result checked against "
               "the oracle: one patch per cycle plus the tree's 7 cycles of latency. "
               "`BM_PlanarElementwise`: 4096 vectors of 16 products through `ane_pe_ew` (latency 2).")
    out.append("")
    out.append("`BM_PlanarPool/K/S/P`: KxK max pooling with stride S and padding P of 8 channels of "
               "64 x 64 through `ane_pe_pool` (first filter, line buffer, second filter); "
               "`BM_PlanarAcross/A`: a sum over columns (A = 0) or across channels (A = 1) through "
               "the line buffer and the tree (`ane_pe_vreduce`); both count input beats per cycle.")
    out.append("")
    out.append("`BM_PlanarEngine16/i`: the planar engine as one engine (`ane_planar`, 16 lanes, the "
               "model `ane run` uses), tasks from its registers, memory one cycle away and always "
               "ready, every byte written checked against the contract (`harness::PlanarReference`): "
               "0 the ResNet residual add of two [256, 14, 14] tensors (dense: one run of 50,176 "
               "elements), 1 the 2x2 max pooling of [64, 112, 112] (stride 2), 2 the global average "
               "pooling of [512, 7, 7] (a 7x7 mean, planes read flat), 3 softmax over 1000 values "
               "(the engine's five tasks: max, x - max, sum, recip, e x recip; the exp between them "
               "is the neural engine's table, not counted), 4 row sums of [64, 64, 64] (4096 tree "
               "patches). Operations: the elements the tasks stream; utilization = operations / (16 "
               "x cycles), elements per lane per cycle. Cycles are the engine's own count (START to "
               "the last write) summed over the tasks (tb/bench/planar_engine_cases.h).")
    out.append("")
    if core:
        out += core_table(core, oracle_conv)
    out.append(END)
    return "\n".join(out) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--update", metavar="FILE", required=True)
    ap.add_argument("reports", nargs="+")
    a = ap.parse_args()
    reports = [json.load(open(p)) for p in a.reports]
    update(a.update, section(reports), BEGIN, END)


if __name__ == "__main__":
    main()
