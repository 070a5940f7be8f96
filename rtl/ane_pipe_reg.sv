// SPDX-License-Identifier: Apache-2.0
// ane_pipe_reg: the optional pipeline register of the arithmetic units' Pipe parameter, for a
// flat vector (a stage's signals concatenated). Pipe = 1: q_o takes d_i at a clock edge when
// en_i is high; no reset (datapath only: the control that qualifies the data has its own).
// Pipe = 0: q_o is d_i (a wire), clk_i and en_i unused.
`default_nettype none

module ane_pipe_reg #(
  parameter int unsigned W    = 1,
  parameter bit          Pipe = 1'b1
) (
  input  wire logic         clk_i,
  input  wire logic         en_i,
  input  wire logic [W-1:0] d_i,
  output      logic [W-1:0] q_o
);

  if (Pipe) begin : g_reg
    always_ff @(posedge clk_i) begin
      if (en_i) q_o <= d_i;
    end
  end else begin : g_wire
    assign q_o = d_i;
    logic unused;
    assign unused = ^{clk_i, en_i};
  end

endmodule

`default_nettype wire
