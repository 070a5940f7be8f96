// SPDX-License-Identifier: Apache-2.0
// ane_kernel_extract_rst_cov: reset-in-state coverage of ane_kernel_extract
// (rtl/ane_kernel_extract.sv): the kernel group parser, state_q (SHdr: a group header, SPal:
// palette, SScl: int8 scales, SPar: parameter records, SBody: the values, SPad: the group's
// padding).
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
module ane_kernel_extract_rst_cov #(
  parameter logic [2:0] SHdr = 3'd0,
  parameter logic [2:0] SPal = 3'd1,
  parameter logic [2:0] SScl = 3'd2,
  parameter logic [2:0] SPar = 3'd3,
  parameter logic [2:0] SBody = 3'd4,
  parameter logic [2:0] SPad = 3'd5
) (
  input wire logic clk_i,
  input wire logic rst_ni,
  input wire logic [2:0] state_q
);

  logic armed_q;  // out of reset for at least one clock edge
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) armed_q <= 1'b0;
    else armed_q <= 1'b1;
  end

  always @(negedge rst_ni) begin
    RST_kernel_extract_hdr: cover (armed_q && state_q == SHdr);
    RST_kernel_extract_pal: cover (armed_q && state_q == SPal);
    RST_kernel_extract_scl: cover (armed_q && state_q == SScl);
    RST_kernel_extract_par: cover (armed_q && state_q == SPar);
    RST_kernel_extract_body: cover (armed_q && state_q == SBody);
    RST_kernel_extract_pad: cover (armed_q && state_q == SPad);
  end

endmodule

bind ane_kernel_extract ane_kernel_extract_rst_cov #(
  .SHdr(SHdr), .SPal(SPal), .SScl(SScl), .SPar(SPar), .SBody(SBody), .SPad(SPad)
) u_rst (.*);

`default_nettype wire
// verilator coverage_on
