// SPDX-License-Identifier: Apache-2.0
// ane_core_cov: reset-in-state coverage of ane_core (rtl/ane_core.sv): the neural-engine core's
// run flag run_q (START to done_o), and its units still busy after it.
// One bin per state: rst_ni fell while the block was in it.
// Bound only in the coverage build (the bind below; Verilator --coverage-user counts each
// labelled cover): never synthesized, it drives nothing in the design.
//
// Sampled at the falling edge of rst_ni from the state registers themselves. The block writes
// them with nonblocking assignments, so in the time step of that edge every process still reads
// the state from before the reset (the reset's update comes later, in the NBA region): no race.
// A copy taken at posedge clk_i would hold the state of the cycle before. armed_q (reset with
// rst_ni, set by the first clock edge after its release) keeps a fall of rst_ni with no clock
// edge since the last one out.
`default_nettype none

// Line and toggle counters off in this file (its helper logic is not the design); the cover
// statements (v_user points) count regardless.
// verilator coverage_off
module ane_core_cov (
  input wire logic clk_i,
  input wire logic rst_ni,
  input wire logic run_q,
  input wire logic busy_o
);

  logic armed_q;  // out of reset for at least one clock edge
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) armed_q <= 1'b0;
    else armed_q <= 1'b1;
  end

  always @(negedge rst_ni) begin
    RST_core_idle: cover (armed_q && !run_q && !busy_o);
    RST_core_run: cover (armed_q && run_q);
    RST_core_drain: cover (armed_q && !run_q && busy_o);
  end

endmodule

bind ane_core ane_core_cov u_cov (.*);

`default_nettype wire
// verilator coverage_on
