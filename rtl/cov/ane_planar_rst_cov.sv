// SPDX-License-Identifier: Apache-2.0
// ane_planar_rst_cov: reset-in-state coverage of ane_planar (rtl/ane_planar.sv): the planar engine's
// task flag busy_q (START to the last write), idle and busy with each task kind (MODE.KIND 0
// elementwise, 1 tree, 2 line buffer, 3 pooling).
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
module ane_planar_rst_cov (
  input wire logic clk_i,
  input wire logic rst_ni,
  input wire logic busy_q,
  input wire logic k_ew,
  input wire logic k_tree,
  input wire logic k_line,
  input wire logic k_pool
);

  logic armed_q;  // out of reset for at least one clock edge
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) armed_q <= 1'b0;
    else armed_q <= 1'b1;
  end

  always @(negedge rst_ni) begin
    RST_planar_idle: cover (armed_q && !busy_q);
    RST_planar_busy_ew: cover (armed_q && busy_q && k_ew);
    RST_planar_busy_tree: cover (armed_q && busy_q && k_tree);
    RST_planar_busy_line: cover (armed_q && busy_q && k_line);
    RST_planar_busy_pool: cover (armed_q && busy_q && k_pool);
  end

endmodule

bind ane_planar ane_planar_rst_cov u_rst (.*);

`default_nettype wire
// verilator coverage_on
