// SPDX-License-Identifier: Apache-2.0
// ane_core_route_cov: reset-in-state coverage of ane_core_route (rtl/ane_core_route.sv): the
// core's step router, state_q (SOps: operations pass on, SSkip: slices the held operation is past,
// SEnd: the slices after the group's last operation).
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
module ane_core_route_cov #(
  parameter logic [1:0] SOps = 2'd0,
  parameter logic [1:0] SSkip = 2'd1,
  parameter logic [1:0] SEnd = 2'd2
) (
  input wire logic clk_i,
  input wire logic rst_ni,
  input wire logic [1:0] state_q
);

  logic armed_q;  // out of reset for at least one clock edge
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) armed_q <= 1'b0;
    else armed_q <= 1'b1;
  end

  always @(negedge rst_ni) begin
    RST_core_route_ops: cover (armed_q && state_q == SOps);
    RST_core_route_skip: cover (armed_q && state_q == SSkip);
    RST_core_route_end: cover (armed_q && state_q == SEnd);
  end

endmodule

bind ane_core_route ane_core_route_cov #(.SOps(SOps), .SSkip(SSkip), .SEnd(SEnd)) u_cov (.*);

`default_nettype wire
// verilator coverage_on
