// ane_pe_node: one two-input node of the planar reduction tree (NUMERICS N-4.4). Combinational.
// op 0: y = RNE_fp32(a + b) (ane_fp32_add); op 1: max; op 2: min. Operands are fp32 values
// that are not NaN and whose zeros are +0 (the tree's inputs pass N-1 first), so max and min
// are exact comparisons of sign and magnitude.
`default_nettype none

module ane_pe_node (
  input  wire logic [1:0]  op_i,
  input  wire logic [31:0] a_i,
  input  wire logic [31:0] b_i,
  output      logic [31:0] y_o
);

  logic [31:0] sum;
  logic        a_ge_b;

  ane_fp32_add u_add (.a_i(a_i), .b_i(b_i), .y_o(sum));

  always_comb begin
    if (a_i[31] != b_i[31]) a_ge_b = !a_i[31];
    else if (!a_i[31])      a_ge_b = a_i[30:0] >= b_i[30:0];
    else                    a_ge_b = a_i[30:0] <= b_i[30:0];
    unique case (op_i)
      2'd0:    y_o = sum;
      2'd1:    y_o = a_ge_b ? a_i : b_i;
      default: y_o = a_ge_b ? b_i : a_i;
    endcase
  end

endmodule
