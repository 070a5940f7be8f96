# SPDX-License-Identifier: Apache-2.0
# Yosys (Tcl mode) synthesis of one top for the OSU 0.18um standard cells.
# Run by scripts/synth.sh as `yosys -c osu018.tcl`; inputs come from the environment:
#   ANE_TOP       top module name
#   ANE_SRCS      SystemVerilog sources, package first (absolute paths)
#   ANE_CHPARAMS  `-chparam NAME VALUE` words for the parameter overrides (may be empty)
#   ANE_LIB       Liberty file (osu018_stdcells.lib)
#   ANE_OUTDIR    where the netlists and reports go
#   ANE_NOSHARE   1: `synth -noshare` (the top's line in constraints/tops.txt says noshare)
# Outputs in ANE_OUTDIR:
#   gl.v / gl.blif        generic-gate netlist after `synth` (module <top>_gl) for the gate-level check
#                         (the BLIF, of Yosys's internal cells, for scripts/synth/glsim.h)
#   stat_generic.txt      generic cell counts
#   mapped.v              Liberty-mapped netlist (module <top>) for OpenSTA
#   stat_osu018.txt       mapped cell counts and area (after the fanout buffers)
#   fanout.txt            what scripts/synth/fanout.py buffered
#   glmap.v / glmap.blif  the mapped netlist with every cell replaced by its Liberty function
#                         (module <top>_glmap), a second gate-level check target
# Fails (Tcl error, non-zero exit) when a latch is inferred. Warnings are judged by synth.sh from the log.

set top     $::env(ANE_TOP)
set srcs    $::env(ANE_SRCS)
set chp     $::env(ANE_CHPARAMS)
set lib     $::env(ANE_LIB)
set out     $::env(ANE_OUTDIR)
set latches {t:$dlatch* t:$adlatch* t:$_DLATCH* t:$_SR_* t:$sr}

yosys read_verilog -sv {*}$srcs
# Parameter overrides go on the top module itself (`chparam -set`): Yosys 0.23's
# `hierarchy -chparam` fails an internal assertion on the core (ane_core NumLanes=8: "Assert
# `modules_.count(module->name) == 0'") when it re-derives the top after its submodules.
set sets {}
foreach {flag name value} $chp { lappend sets -set $name $value }
if {[llength $sets]} { yosys chparam {*}$sets $top }
yosys hierarchy -check -top $top
# (a top that hierarchy re-derives comes out as $paramod$<hash>\<top>: give it its name back)
yosys rename -top $top
yosys proc
yosys check
yosys select -assert-none {*}$latches

set share {}
if {[info exists ::env(ANE_NOSHARE)] && $::env(ANE_NOSHARE) eq "1"} { set share -noshare }
yosys synth -top $top -flatten {*}$share
yosys check
yosys select -assert-none {*}$latches
yosys tee -q -o $out/stat_generic.txt stat

# generic-gate netlist for the gate-level check
yosys rename -top ${top}_gl
yosys write_verilog -noattr $out/gl.v
yosys write_blif -icells -impltf $out/gl.blif
yosys rename -top $top

# json_pass NAME SCRIPT ARGS...: the design through Yosys's JSON, scripts/synth/SCRIPT (which
# reads IN.json, writes OUT.json for the top and prints one line, kept in NAME.txt) and back,
# with the library's cells as blackboxes.
set here [file dirname [info script]]
proc json_pass {name script args} {
  global out top lib here
  yosys write_json $out/$name.in.json
  set msg [exec python3 $here/$script $out/$name.in.json $out/$name.out.json $top {*}$args]
  puts $msg
  set fd [open $out/$name.txt w]
  puts $fd $msg
  close $fd
  yosys design -reset
  yosys read_liberty -lib $lib
  yosys read_json $out/$name.out.json
  yosys hierarchy -check -top $top
  file delete $out/$name.in.json $out/$name.out.json
}

# Clock gating: groups of enable flip-flops move to a latch-based gated clock
# (scripts/synth/clockgate.py), as a synthesis tool for a real library would do.
set cgargs [expr {[info exists ::env(ANE_CLOCKGATE_ARGS)] ? $::env(ANE_CLOCKGATE_ARGS) : ""}]
json_pass clockgate clockgate.py {*}$cgargs

# OSU 0.18um mapping
yosys dfflibmap -liberty $lib
# &st;&if,-g;&st: delay-oriented SOP balancing before the choices and the mapping, so that the
# carry chains of adders and the trees of multipliers keep their logarithmic depth.
yosys abc -D 5000 -liberty $lib -script {+strash;&get,-n;&fraig,-x;&put;scorr;dc2;dretime;strash;&get,-n;&st;&if,-g;&st;&dch,-f;&nf,-D,5000;&put;buffer,-p;upsize,-D,5000;dnsize,-D,5000}
yosys opt_clean -purge
yosys setundef -zero
# Buffer trees on the nets ABC does not buffer (ports and flip-flop outputs), as placement
# would: scripts/synth/fanout.py.
json_pass fanout fanout.py --skip clk_i --skip rst_ni
yosys tee -q -o $out/stat_osu018.txt stat -liberty $lib
yosys write_verilog -noattr -noexpr -nohex -nodec -simple-lhs $out/mapped.v

# the mapped netlist as logic (cells expanded from their Liberty functions)
yosys design -reset
yosys read_liberty -ignore_miss_func $lib
yosys read_verilog $out/mapped.v
yosys hierarchy -check -top $top
yosys flatten
yosys hierarchy -top $top
yosys opt_clean -purge
yosys rename -top ${top}_glmap
yosys write_verilog -noattr $out/glmap.v
yosys write_blif -icells -impltf $out/glmap.blif
