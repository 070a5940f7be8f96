// SPDX-License-Identifier: Apache-2.0
// ane_shifter_rst_cov: reset-in-state coverage of ane_shifter (rtl/ane_shifter.sv): the input buffer
// and shifter: the lane table build (build_q), the banks (used_q: loading or holding a work unit,
// full_q: a work unit loaded, rel_q: its release in the pipeline) and the request pipeline (va_q
// .. vd_q); idle is none of them.
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
module ane_shifter_rst_cov #(
  parameter int unsigned NumBanks = 2
) (
  input wire logic clk_i,
  input wire logic rst_ni,
  input wire logic build_q,
  input wire logic [NumBanks-1:0] used_q,
  input wire logic [NumBanks-1:0] full_q,
  input wire logic [NumBanks-1:0] rel_q,
  input wire logic va_q,
  input wire logic vb_q,
  input wire logic vc_q,
  input wire logic vd_q
);

  logic armed_q;  // out of reset for at least one clock edge
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) armed_q <= 1'b0;
    else armed_q <= 1'b1;
  end
  logic pipe;  // a request in the pipeline
  assign pipe = va_q || vb_q || vc_q || vd_q;

  always @(negedge rst_ni) begin
    RST_shifter_idle: cover (armed_q && !build_q && used_q == '0 && !pipe);
    RST_shifter_build: cover (armed_q && build_q);
    RST_shifter_loading: cover (armed_q && used_q != '0 && full_q == '0);
    RST_shifter_loaded: cover (armed_q && full_q != '0);
    RST_shifter_releasing: cover (armed_q && rel_q != '0);
    RST_shifter_pipeline: cover (armed_q && pipe);
  end

endmodule

bind ane_shifter ane_shifter_rst_cov #(.NumBanks(NumBanks)) u_rst (.*);

`default_nettype wire
// verilator coverage_on
