// SPDX-License-Identifier: Apache-2.0
// ane_planar_pool_rst_cov: reset-in-state coverage of ane_planar_pool (rtl/ane_planar_pool.sv): the
// planar pooling path: configuring its planes (glft_q), the input transpose's rows (r_q) and zero
// rows (pad_q), the output transpose's rows (q_q) and zero rows (opad_q), the output walker
// (orun_o); idle is none of them.
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
module ane_planar_pool_rst_cov #(
  parameter int unsigned NW = 5
) (
  input wire logic clk_i,
  input wire logic rst_ni,
  input wire logic [13:0] glft_q,
  input wire logic [NW-1:0] r_q,
  input wire logic pad_q,
  input wire logic [NW-1:0] q_q,
  input wire logic opad_q,
  input wire logic orun_o
);

  logic armed_q;  // out of reset for at least one clock edge
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) armed_q <= 1'b0;
    else armed_q <= 1'b1;
  end

  always @(negedge rst_ni) begin
    RST_planar_pool_idle: cover (armed_q && glft_q == '0 && r_q == '0 && !pad_q && q_q == '0 && !opad_q &&
                                 !orun_o);
    RST_planar_pool_cfg: cover (armed_q && glft_q != '0);
    RST_planar_pool_in_rows: cover (armed_q && !pad_q && r_q != '0);
    RST_planar_pool_in_pad: cover (armed_q && pad_q);
    RST_planar_pool_out_rows: cover (armed_q && !opad_q && q_q != '0);
    RST_planar_pool_out_pad: cover (armed_q && opad_q);
    RST_planar_pool_out_walk: cover (armed_q && orun_o);
  end

endmodule

bind ane_planar_pool ane_planar_pool_rst_cov #(.NW(NW)) u_rst (.*);

`default_nettype wire
// verilator coverage_on
