// SPDX-License-Identifier: Apache-2.0
// ane_pe_vreduce: reductions across lines (over the columns of a plane, or across channels) on
// the planar engine (NUMERICS N-4.4; docs/planar.md): the line buffer (ane_pe_linebuf) turns
// blocks of 64 lines into one tree patch per column and keeps each column's running value;
// the reduction tree (ane_pe_reduce) reduces each patch. Ports as ane_pe_linebuf's job, line
// and result ports. A job's result for column j leaves (after its last block's patch has
// passed the tree) in column order.
`default_nettype none

module ane_pe_vreduce #(
  parameter int NumLanes = 16,
  parameter int MaxW     = 64,
  parameter int CntW     = 16
) (
  input  wire logic                   clk_i,
  input  wire logic                   rst_ni,
  input  wire logic                   cfg_valid_i,
  output      logic                   cfg_ready_o,
  input  wire ane_pkg::pe_tree_op_e   cfg_op_i,
  input  wire logic [CntW-1:0]        cfg_n_i,
  input  wire logic [$clog2(MaxW+1)-1:0] cfg_len_i,
  input  wire logic                   in_valid_i,
  output      logic                   in_ready_o,
  input  wire logic [NumLanes*16-1:0] in_data_i,
  output      logic                   out_valid_o,
  input  wire logic                   out_ready_i,
  output      logic [31:0]            out_fp32_o,
  output      logic [15:0]            out_fp16_o,
  output      logic                   busy_o
);

  logic            p_valid, p_ready, r_valid, r_ready;
  logic [1:0]      p_op;
  logic [63:0]     p_mask;
  logic [64*16-1:0] p_data;
  logic [31:0]     r_fp32;
  logic [15:0]     r_fp16_unused;

  ane_pe_linebuf #(.NumLanes(NumLanes), .MaxW(MaxW), .CntW(CntW)) u_lb (
    .clk_i, .rst_ni,
    .cfg_valid_i, .cfg_ready_o, .cfg_op_i, .cfg_n_i, .cfg_len_i,
    .in_valid_i, .in_ready_o, .in_data_i,
    .p_valid_o(p_valid), .p_ready_i(p_ready), .p_op_o(p_op), .p_mask_o(p_mask), .p_data_o(p_data),
    .r_valid_i(r_valid), .r_ready_o(r_ready), .r_fp32_i(r_fp32),
    .out_valid_o, .out_ready_i, .out_fp32_o, .out_fp16_o, .busy_o
  );

  ane_pe_reduce u_tree (
    .clk_i, .rst_ni,
    .in_valid_i(p_valid), .in_ready_o(p_ready), .in_op_i(p_op), .in_first_i(1'b1), .in_last_i(1'b1),
    .in_mask_i(p_mask), .in_data_i(p_data),
    .out_valid_o(r_valid), .out_ready_i(r_ready), .out_fp32_o(r_fp32), .out_fp16_o(r_fp16_unused)
  );

endmodule
