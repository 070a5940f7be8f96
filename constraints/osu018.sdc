# SPDX-License-Identifier: Apache-2.0
# OpenSTA constraints for every top on OSU 0.18um (scripts/synth/sta.tcl reads this file;
# constraints/<top>.osu018.sdc, when it exists, is read instead for that top).
# One clock period for the target. A clocked top is clocked by its clk_i port; a combinational
# top gets a virtual clock so its input-to-output paths are timed against the same period.
# Fmax (synth.sh) = 1000 / (period - worst setup slack), so the period only sets the slack sign.
set ane_period_ns 5.0

if {[llength [get_ports -quiet clk_i]] > 0} {
  create_clock -name clk -period $ane_period_ns [get_ports clk_i]
  set ane_data_inputs {}
  foreach p [all_inputs] {
    if {[get_full_name $p] ne "clk_i"} { lappend ane_data_inputs $p }
  }
} else {
  create_clock -name clk -period $ane_period_ns
  set ane_data_inputs [all_inputs]
}

# Inputs arrive at the clock edge and outputs are due at the next edge (0 ns external delay):
# the whole period belongs to this block. Inputs are driven by a BUFX2, outputs load four INVX1.
if {[llength $ane_data_inputs] > 0} {
  set_input_delay 0.0 -clock clk $ane_data_inputs
  set ane_driven {}
  foreach p $ane_data_inputs {
    if {[get_full_name $p] ne "rst_ni"} { lappend ane_driven $p }
  }
  if {[llength $ane_driven] > 0} { set_driving_cell -lib_cell BUFX2 -pin Y $ane_driven }
}
set_output_delay 0.0 -clock clk [all_outputs]
set_load 0.0373 [all_outputs]

# rst_ni is asynchronous and, in a chip, comes from a reset synchronizer through a buffer tree
# that this block does not contain: its fanout paths are not what limits the clock. Like the
# clock, it is an ideal net here (no driving cell above, so no transition): one BUFX2 driving
# every reset pin of the 8-lane core (about 46 000) had an 18 ns slew, and OpenSTA carries the
# worst input slew of a gate to its output, so it slowed every gate the reset feeds whatever
# path was timed through it (false path or not).
if {[llength [get_ports -quiet rst_ni]] > 0} {
  set_false_path -from [get_ports rst_ni]
}
