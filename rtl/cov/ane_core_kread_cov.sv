// SPDX-License-Identifier: Apache-2.0
// ane_core_kread_cov: reset-in-state coverage of ane_core_kread (rtl/ane_core_kread.sv): the
// core's kernel reader, state_q (SIdle, SDirRd: the pass directory read, SDirWt: its answer,
// SStream: the group's beats).
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
module ane_core_kread_cov #(
  parameter logic [1:0] SIdle = 2'd0,
  parameter logic [1:0] SDirRd = 2'd1,
  parameter logic [1:0] SDirWt = 2'd2,
  parameter logic [1:0] SStream = 2'd3
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
    RST_core_kread_idle: cover (armed_q && state_q == SIdle);
    RST_core_kread_dirrd: cover (armed_q && state_q == SDirRd);
    RST_core_kread_dirwt: cover (armed_q && state_q == SDirWt);
    RST_core_kread_stream: cover (armed_q && state_q == SStream);
  end

endmodule

bind ane_core_kread ane_core_kread_cov #(
  .SIdle(SIdle), .SDirRd(SDirRd), .SDirWt(SDirWt), .SStream(SStream)
) u_cov (.*);

`default_nettype wire
// verilator coverage_on
