# OpenSTA run for one Liberty-mapped top (scripts/synth.sh runs `sta -no_splash -exit sta.tcl`).
# Environment: ANE_LIB (Liberty), ANE_NETLIST (mapped.v), ANE_TOP, ANE_SDC.
# Prints the critical setup path and `ANE_STA key value` lines that synth.sh turns into the summary.
read_liberty $::env(ANE_LIB)
read_verilog $::env(ANE_NETLIST)
link_design $::env(ANE_TOP)
read_sdc $::env(ANE_SDC)

report_checks -path_delay max -fields {slew capacitance} -digits 3
report_checks -path_delay min -digits 3
report_check_types -max_transition -all_violators
check_setup -verbose -unconstrained_endpoints -loops -no_clock

set clk [lindex [all_clocks] 0]
puts "ANE_STA period_ns [get_property $clk period]"
puts "ANE_STA clocked [expr {[llength [get_ports -quiet clk_i]] > 0}]"
puts "ANE_STA worst_slack_ns [sta::worst_slack -max]"
puts "ANE_STA worst_hold_slack_ns [sta::worst_slack -min]"
