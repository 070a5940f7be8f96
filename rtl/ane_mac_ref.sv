// SPDX-License-Identifier: Apache-2.0
// ane_mac_ref: a plain fp16 multiply plus fp32 add, y = RNE_fp32(c + a x b), pipelined like the
// MAC lane and built in the same synthesis flow: the reference point for the lane's area and
// Fmax (docs/results.md). No slots, quads, integer modes or compare; m1 operand rules (N-1, a
// denormal operand is +0) and the accumulator's rules for c (N-2.5: a NaN is +inf, zero sums +0).
// It reuses the lane's multiplier (ane_mac_mul) and fp32 adder (ane_mac_acc_add): the product of
// two fp16 values is exact in 22 bits, so the sum is rounded once.
// Latency 7: the multiplier's two registers (the first takes the inputs), the product register,
// the adder's three, the output register.
`default_nettype none

module ane_mac_ref (
  input  wire logic        clk_i,
  input  wire logic [15:0] a_i,
  input  wire logic [15:0] b_i,
  input  wire logic [31:0] c_i,
  output      logic [31:0] y_o
);

  logic [31:0] c_q, c1_q, c2_q, y_q;
  always_ff @(posedge clk_i) begin
    c_q  <= c_i;
    c1_q <= c_q;  // c waits while the product is formed
    c2_q <= c1_q;
  end

  ane_pkg::mac_fv_t p, p_q;
  logic signed [15:0] unused_i8;
  logic [31:0]        unused_i4, unused_int, unused_raw;
  ane_mac_mul #(.Gen(ane_pkg::GenM1), .Pipe(1'b1)) u_mul (  // its first register takes a, b
    .clk_i       (clk_i),
    .ld_i        (1'b1),
    .en_i        (1'b1),
    .mode_i      (ane_pkg::ModeFp16),
    .raw_i       (1'b0),
    .data_i      (a_i),
    .kernel_i    (b_i),
    .raw_o       (unused_raw),
    .prod_o      (p),
    .int_prod_o  (unused_i8),
    .int4_prod_o (unused_i4),
    .int_o       (unused_int)
  );
  always_ff @(posedge clk_i) p_q <= p;

  logic [31:0] y;
  logic        unused_ovf;
  ane_mac_acc_add #(.Pipe(1'b1)) u_add (
    .clk_i     (clk_i),
    .en_i      (1'b1),
    .acc_i     (c2_q),
    .t_i       (p_q),
    .ceiling_i (1'b0),
    .cmp_i     (1'b0),
    .max_i     (1'b0),
    .hv_i      (1'b0),
    .int_i     (1'b0),
    .acc_o     (y),
    .ovf_o     (unused_ovf)
  );
  always_ff @(posedge clk_i) y_q <= y;
  assign y_o = y_q;

  logic unused;
  assign unused = ^{unused_i8, unused_i4, unused_int, unused_raw, unused_ovf};

endmodule

`default_nettype wire
