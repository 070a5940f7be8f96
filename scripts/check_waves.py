#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Every GTKWave save file in sim/ names only signals its top's waveform has.

    scripts/check_waves.py BUILD_DIR [--keep DIR]   (DIR: keep the waveforms there; emptied first)

For each sim/<top>.gtkw, one short RTL test (or `ane run`) that drives <top> is rerun with
ANE_WAVE_DIR set; the FST it writes for <top> is read through fst2vcd (GTKWave's converter) and
every signal the save file lists must be in it, with the same bit range. A save file with no
case below fails too, so a new block's save file is checked from the day it is added. The
256-lane models trace less than the small ones (rtl/ane_trace256.vlt), so the save files of the
array and the core are checked against both.
Exit 0 when every save file holds, 1 otherwise (each missing signal on its own line).
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# A small convolution for the 256-lane core (its waveform has every lane's signals, ~250 k).
TINY_CONV = """op: conv2d
generation: m1
stride: [1, 1]
padding: [0, 0]
inputs:
  x: {generate: {distribution: normal, seed: 1, shape: [2, 4, 4], dtype: fp16, mean: 0, std: 1}}
  w: {generate: {distribution: normal, seed: 2, shape: [2, 2, 1, 1], dtype: fp16, mean: 0, std: 1}}
outputs:
  y: y.npy
"""

# top -> runs that write its waveform: ("test", binary, gtest filter) or ("ane", op file or text[,
# scope]): the 256-lane models trace no lane datapath (rtl/ane_trace256.vlt), so a case's
# optional scope names the signals it does not look for (those below it).
CASES = {
    "ane_fp16_unpack": [("test", "rtl_operand_test", "RtlFp16Unpack.N1_N2_3_M1DecodeMatchesOracleOnAllCodes")],
    "ane_sig_mul": [("test", "rtl_operand_test", "RtlSigMul.N2_8_Int4PairsStayApartInEachHalf")],
    "ane_fp16_mul": [("test", "rtl_fp16_ops_test", "RtlFp16Mul.N4_1_N4_2_DirectedCorners")],
    "ane_fp16_add": [("test", "rtl_fp16_ops_test", "RtlFp16Add.N4_1_N4_2_DirectedCorners")],
    "ane_mac_mul": [("test", "rtl_mac_stages_test", "RtlMacMul.N2_9_CompareModeGivesTheDataValue")],
    "ane_mac_add12": [("test", "rtl_mac_stages_test", "RtlMacAdd12.N2_4_ExponentExtremesInfinitiesAndZeros")],
    "ane_mac_acc_add": [("test", "rtl_mac_stages_test", "RtlMacAccAdd.N2_5_N2_6_AccumulateStepMatchesOracle")],
    "ane_mac_out": [("test", "rtl_mac_stages_test", "RtlMacOut.*")],
    "ane_mac_lane": [("test", "rtl_mac_lane_test", "MacLaneTiming.N7_OneSlotWaitsForItsOwnQuad")],
    "ane_mac_array": [("test", "rtl_mac_array_test", "Traffic/MacArray16.N2_M1BroadcastTwoAndFourKernelMatchOracle/FullRate"),
                      ("ane", "sim/examples/matmul_min.yaml", ".u_dp.")],  # the 256-lane array
    "ane_postproc": [("test", "rtl_postproc_test", "RtlPostproc.CyclesInitiationIntervalOneLatencyThirtyOne")],
    "ane_shifter": [("test", "rtl_shifter_test", "RtlShifter.NoDataRequestReleasesAWorkUnit")],
    "ane_kernel_extract": [("test", "rtl_kernel_extract_test", "RtlKernelExtract.N6_HandWrittenDenseStream")],
    "ane_pe_ew": [("test", "rtl_planar_test", "RtlPeEw.N4_1_XSeedsAndFullRate")],
    "ane_td_fetch": [("test", "rtl_td_fetch_test", "RtlTdFetch.TD_A14_ChainInOrderAt0x300Steps")],
    "ane_td_ctrl": [("test", "rtl_td_system_test", "RtlTdSystem.TD_SetupCyclesPerTd")],
    "ane_pe_fc": [("test", "rtl_planar_fc_test", "RtlPeFc.N4_1_XSeedsAndFullRate")],
    "ane_pe_transpose": [("test", "rtl_planar_fc_test", "RtlPeTranspose.N4_1_XSeedsAndFullRate")],
    "ane_pe_reduce": [("test", "rtl_planar_test", "RtlPeReduce.N4_4_DirectedSumsAtTheTopOfTheRange")],
    "ane_pe_pool": [("test", "rtl_planar_pool_test", "RtlPePool.N4_5_CyclesOnePositionPerCycle")],
    "ane_pe_vreduce": [("test", "rtl_planar_vreduce_test", "RtlPeVreduce.N4_4_WorkedCases")],
    "ane_planar": [("test", "rtl_planar_engine_test", "RtlPlanarEngine.N4_4_N4_5_CyclesOneBeatPerCycleInEveryKind")],
    "ane_core": [("test", "rtl_core_test", "RtlCore.N2_N3_Fp16Conv3x3Padding1"),
                 ("ane", TINY_CONV)],  # the 256-lane core
}


def fst_signals(fst):
    """{full name: range or ""} of every variable in the FST (GTKWave's dotted names)."""
    # Only the header is needed: read up to $enddefinitions and stop the converter there (the
    # value changes of a 256-lane run are gigabytes of text).
    proc = subprocess.Popen(["fst2vcd", "-f", fst], stdout=subprocess.PIPE, text=True)
    names, scope = {}, []
    for line in proc.stdout:
        t = line.split()
        if not t:
            continue
        if t[0] == "$enddefinitions":
            break
        if t[0] == "$scope":
            scope.append(t[2])
        elif t[0] == "$upscope":
            scope.pop()
        elif t[0] == "$var":
            # $var <type> <width> <id> <name> [range] $end
            name = t[4]
            rng = t[5] if len(t) > 6 and t[5].startswith("[") else ""
            names[".".join(scope + [name])] = rng
    proc.kill()
    proc.wait()
    return names


def save_signals(gtkw):
    """The signals a save file lists, as (name, range or "")."""
    sigs = []
    for line in open(gtkw):
        line = line.strip()
        if not line or line[0] in "[@-*#":
            continue
        m = re.fullmatch(r"(.*?)(\[\d+:\d+\])?", line)
        sigs.append((m.group(1), m.group(2) or ""))
    return sigs


# Only a waveform's header (the signals it holds) is read: the first cycles of a run are enough,
# and a long random test is traced for these only (tb/harness/sim.h).
WAVE_CYCLES = "64"


def run_case(build, case, wave_dir):
    env = dict(os.environ, ANE_WAVE_DIR=wave_dir, ANE_WAVE_CYCLES=WAVE_CYCLES)
    if case[0] == "test":
        cmd = [os.path.join(build, case[1]), "--gtest_filter=" + case[2]]
    else:
        # `ane run` on the RTL: an example file, or an operation given as text
        op = case[1]
        if "\n" in op:
            op = os.path.join(wave_dir, "op.yaml")
            with open(op, "w") as f:
                f.write(case[1])
        out_dir = os.path.join(wave_dir, "out")
        os.makedirs(out_dir, exist_ok=True)
        cmd = [os.path.join(build, "ane"), "run", op, "--engine", "rtl", "--out-dir", out_dir,
               "--wave", os.path.join(wave_dir, "ane.fst")]
    r = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=ROOT)
    if r.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed (exit {r.returncode}): {r.stdout[-300:]}{r.stderr[-300:]}")


def main():
    args = sys.argv[1:]
    if not args or args[0].startswith("-"):
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    build = os.path.abspath(args[0])
    keep = args[args.index("--keep") + 1] if "--keep" in args else None
    saves = sorted(f[:-5] for f in os.listdir(os.path.join(ROOT, "sim")) if f.endswith(".gtkw"))
    bad = 0
    for top in saves:
        if top not in CASES:
            print(f"check_waves: sim/{top}.gtkw has no case in scripts/check_waves.py")
            bad += 1
            continue
        for case in CASES[top]:
            with tempfile.TemporaryDirectory() as tmp:
                wave_dir = keep or tmp
                os.makedirs(wave_dir, exist_ok=True)
                shutil.rmtree(wave_dir)
                os.makedirs(wave_dir)
                run_case(build, case, wave_dir)
                fsts = sorted(f for f in os.listdir(wave_dir) if f.endswith(".fst")
                              and open(os.path.join(wave_dir, f[:-4] + ".top")).read().strip() == top)
                if not fsts:
                    print(f"check_waves: {case[:3] if case[0] == 'test' else 'ane run'} wrote no waveform of {top}")
                    bad += 1
                    continue
                have = fst_signals(os.path.join(wave_dir, fsts[0]))
                label = case[2] if case[0] == "test" else "ane run"
                missing = 0
                wanted = save_signals(os.path.join(ROOT, "sim", top + ".gtkw"))
                if case[0] == "ane" and len(case) > 2:
                    wanted = [(n, r) for n, r in wanted if case[2] not in n]
                for name, rng in wanted:
                    if name not in have:
                        print(f"check_waves: sim/{top}.gtkw: {name}{rng} is not in {fsts[0]} ({label})")
                        missing += 1
                    elif rng and have[name] != rng:
                        print(f"check_waves: sim/{top}.gtkw: {name}{rng} is {name}{have[name]} in {fsts[0]}")
                        missing += 1
                bad += missing
                n = len(wanted)
                print(f"check_waves: {top}: {n - missing} of {n} signals found ({fsts[0]}, {len(have)} traced)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
