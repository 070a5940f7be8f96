// SPDX-License-Identifier: Apache-2.0
// ane_pe_node: one two-input node of the planar reduction tree (NUMERICS N-4.4).
// op (ane_pkg::pe_tree_op_e) sum: y = RNE_fp32(a + b) (ane_fp32_add); max; min. Operands are fp32 values
// that are not NaN and whose zeros are +0 (the tree's inputs pass N-1 first), so max and min
// are exact comparisons of sign and magnitude.
// Pipe = 0: combinational. Pipe = 1: latency 2, the adder's three stages with a register
// (enable en_i) after each of the first two; max / min is decided in the first stage and its
// result follows the adder through two registers of its own.
`default_nettype none

module ane_pe_node #(
  parameter bit Pipe = 1'b0
) (
  input  wire logic        clk_i,
  input  wire logic        en_i,
  input  wire ane_pkg::pe_tree_op_e op_i,
  input  wire logic [31:0] a_i,
  input  wire logic [31:0] b_i,
  output      logic [31:0] y_o
);

  logic [31:0] sum, sel, sel_c;
  logic        a_ge_b, sum_c;

  ane_fp32_add #(.Pipe(Pipe)) u_add (.clk_i(clk_i), .en_i(en_i), .a_i(a_i), .b_i(b_i), .y_o(sum));

  always_comb begin
    if (a_i[31] != b_i[31]) a_ge_b = !a_i[31];
    else if (!a_i[31])      a_ge_b = a_i[30:0] >= b_i[30:0];
    else                    a_ge_b = a_i[30:0] <= b_i[30:0];
    sel = (a_ge_b == (op_i == ane_pkg::PeTreeMax)) ? a_i : b_i;
  end

  logic [31:0] sel_b;
  logic sum_b;
  // The pipeline registers (ane_pipe_reg: Pipe = 1, registers with enable en_i and no reset;
  // Pipe = 0, wires).
  ane_pipe_reg #(.W($bits({sel_b, sum_b})), .Pipe(Pipe)) u_s1 (
    .clk_i, .en_i, .d_i({sel, op_i == ane_pkg::PeTreeSum}),
    .q_o({sel_b, sum_b})
  );
  ane_pipe_reg #(.W($bits({sel_c, sum_c})), .Pipe(Pipe)) u_s2 (
    .clk_i, .en_i, .d_i({sel_b, sum_b}),
    .q_o({sel_c, sum_c})
  );

  assign y_o = sum_c ? sum : sel_c;

endmodule
