# SPDX-License-Identifier: Apache-2.0
# OpenSTA run for one Liberty-mapped top (scripts/synth.sh runs `sta -no_splash -exit sta.tcl`).
# Environment: ANE_LIB (Liberty), ANE_NETLIST (mapped.v), ANE_TOP, ANE_SDC.
# Prints the critical setup path and `ANE_STA key value` lines that synth.sh turns into the summary.
read_liberty $::env(ANE_LIB)
read_verilog $::env(ANE_NETLIST)
link_design $::env(ANE_TOP)
read_sdc $::env(ANE_SDC)

# The critical setup path, reported first (scripts/synth/collect.py names it). A path into the
# latch of a clock gate (scripts/synth/clockgate.py) borrows time: the latch is transparent
# while the clock is low, so such a path reports slack 0 whenever it borrows and does not limit
# the clock; what does is the path on through the latch to its gate (a clock gating check,
# timed like any other) or a borrow beyond the latch's limit (negative slack). Latch endpoints
# with slack >= 0 are passed over.
set ane_worst ""
foreach pe [find_timing_paths -path_delay max -group_count 1000 -endpoint_count 1 -sort_by_slack] {
  if {[$pe is_latch_check] && [$pe slack] >= 0} { continue }
  set ane_worst [sta::time_sta_ui [$pe slack]]
  sta::report_path_end_header
  sta::report_path_end $pe
  sta::report_path_end_footer
  break
}
report_checks -path_delay max -fields {slew capacitance} -digits 3
report_checks -path_delay min -digits 3
report_check_types -max_transition -all_violators
check_setup -verbose -unconstrained_endpoints -loops -no_clock

set clk [lindex [all_clocks] 0]
puts "ANE_STA period_ns [get_property $clk period]"
puts "ANE_STA clocked [expr {[llength [get_ports -quiet clk_i]] > 0}]"
if {$ane_worst eq ""} { set ane_worst [sta::worst_slack -max] }
puts "ANE_STA worst_slack_ns $ane_worst"
puts "ANE_STA worst_hold_slack_ns [sta::worst_slack -min]"
