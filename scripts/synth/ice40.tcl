# SPDX-License-Identifier: Apache-2.0
# Yosys (Tcl mode) synthesis of one top for iCE40 (scripts/synth.sh runs `yosys -c ice40.tcl`).
# Environment: ANE_TOP, ANE_SRCS, ANE_CHPARAMS, ANE_OUTDIR (as for osu018.tcl).
# Writes ice40.json for nextpnr-ice40 and stat_ice40.txt. Latches fail the run here too.
set top  $::env(ANE_TOP)
set out  $::env(ANE_OUTDIR)
yosys read_verilog -sv {*}$::env(ANE_SRCS)
set sets {}
foreach {flag name value} $::env(ANE_CHPARAMS) { lappend sets -set $name $value }
if {[llength $sets]} { yosys chparam {*}$sets $top }
yosys hierarchy -check -top $top
# (a top that hierarchy re-derives comes out as $paramod$<hash>\<top>: give it its name back)
yosys rename -top $top
yosys synth_ice40 -top $top -json $out/ice40.json
yosys select -assert-none {t:$_DLATCH*} {t:$dlatch*} {t:$adlatch*}
yosys tee -q -o $out/stat_ice40.txt stat
