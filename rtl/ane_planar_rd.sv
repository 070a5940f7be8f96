// SPDX-License-Identifier: Apache-2.0
// ane_planar_rd: one source's reader of the planar engine (docs/planar.md, "The engine"). It
// takes the sequencer's requests (a byte address, the element format, the broadcast bit), reads
// NumLanes x 2 bytes at that address from memory (any byte address), and hands out each answer
// as a beat of NumLanes fp16 lanes: fp16 elements as they are, int8 elements (the first NumLanes
// bytes) converted exactly to fp16 (N-4.1), and with `bw` the first element in every lane (a
// source broadcast along W).
//
// Memory read port as the neural-engine core's input port: valid/ready requests, answers in
// order after any latency without back-pressure. A read is issued only when its answer has a
// place (Depth credits), so an answer is never refused. One read and one beat per cycle.
`default_nettype none

module ane_planar_rd #(
  parameter int unsigned NumLanes = 8,
  parameter int unsigned Depth    = 16   // answers in flight or held (a power of two, >= 2)
) (
  input  wire logic                   clk_i,
  input  wire logic                   rst_ni,
  // requests
  input  wire logic                   req_valid_i,
  output      logic                   req_ready_o,
  input  wire logic [31:0]            req_addr_i,
  input  wire logic                   req_int8_i,
  input  wire logic                   req_bw_i,
  // memory read port
  output      logic                   rd_valid_o,
  input  wire logic                   rd_ready_i,
  output      logic [31:0]            rd_addr_o,
  input  wire logic                   rs_valid_i,
  input  wire logic [NumLanes*16-1:0] rs_data_i,
  // beats
  output      logic                   out_valid_o,
  input  wire logic                   out_ready_i,
  output      logic [NumLanes*16-1:0] out_data_o,
  output      logic                   busy_o      // a read in flight or an answer held
);

  localparam int unsigned CW = $clog2(Depth) + 1;

  // credits: reads issued and not yet handed out as beats
  logic [CW-1:0] owed_q;
  logic          issue, pop;
  logic          rd_v_q;
  assign req_ready_o = (!rd_v_q || rd_ready_i) && owed_q != CW'(Depth);
  assign issue = req_valid_i && req_ready_o;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rd_v_q <= 1'b0;
      owed_q <= '0;
    end else begin
      if (issue) rd_v_q <= 1'b1;
      else if (rd_ready_i) rd_v_q <= 1'b0;
      owed_q <= owed_q + CW'(issue) - CW'(pop);
    end
  end
  always_ff @(posedge clk_i) begin
    if (issue) rd_addr_o <= req_addr_i;
  end
  assign rd_valid_o = rd_v_q;

  // the format and broadcast of each read, in issue order; the answers, in the same order
  logic            t_valid, a_valid, a_in_ready, t_in_ready;
  logic [1:0]      t_data;
  logic [NumLanes*16-1:0] a_data;
  logic [CW-1:0]   t_count, a_count;
  ane_fifo #(.Width(2), .Depth(Depth)) u_tag (
    .clk_i, .rst_ni, .in_valid_i(issue), .in_ready_o(t_in_ready), .in_data_i({req_bw_i, req_int8_i}),
    .out_valid_o(t_valid), .out_ready_i(pop), .out_data_o(t_data), .count_o(t_count)
  );
  ane_fifo #(.Width(NumLanes * 16), .Depth(Depth)) u_ans (
    .clk_i, .rst_ni, .in_valid_i(rs_valid_i), .in_ready_o(a_in_ready), .in_data_i(rs_data_i),
    .out_valid_o(a_valid), .out_ready_i(pop), .out_data_o(a_data), .count_o(a_count)
  );

  assign out_valid_o = a_valid && t_valid;
  assign pop = out_valid_o && out_ready_i;

  // the beat: int8 bytes as exact fp16, then the broadcast
  logic [NumLanes*16-1:0] conv;
  for (genvar l = 0; l < NumLanes; l++) begin : g_lane
    assign conv[16*l +: 16] = t_data[0] ? ane_pkg::int8_to_fp16(a_data[8*l +: 8]) : a_data[16*l +: 16];
    assign out_data_o[16*l +: 16] = t_data[1] ? conv[15:0] : conv[16*l +: 16];
  end

  assign busy_o = owed_q != '0 || rd_v_q;

  logic unused;
  assign unused = ^{t_count, a_count, t_in_ready};

`ifndef SYNTHESIS
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (rst_ni) begin
      if (rs_valid_i) assert (a_in_ready);    // credits: an answer always has a place
      if (issue) assert (t_in_ready);
    end
  end
`endif

endmodule

`default_nettype wire
