// SPDX-License-Identifier: Apache-2.0
// ane_fifo: a first-in first-out queue of Depth entries of Width bits, valid/ready on both sides
// (a write and a read may happen in the same cycle, also when full: the read frees the entry).
// Storage is one flat vector of flops with the head always in entry 0: a read moves every entry
// down by one and a write lands after the entries kept, so out_data_o is a flop output (no read
// multiplexer between the queue and the logic it feeds) and an entry written in cycle t can
// leave in cycle t + 1. count_o is the number of entries held.
`default_nettype none

module ane_fifo #(
  parameter int unsigned Width = 8,
  parameter int unsigned Depth = 4   // a power of two, at least 2
) (
  input  wire logic                       clk_i,
  input  wire logic                       rst_ni,
  input  wire logic                       in_valid_i,
  output      logic                       in_ready_o,
  input  wire logic [Width-1:0]           in_data_i,
  output      logic                       out_valid_o,
  input  wire logic                       out_ready_i,
  output      logic [Width-1:0]           out_data_o,
  output      logic [$clog2(Depth):0]     count_o
);

  localparam int unsigned AW = $clog2(Depth);

  logic [Depth*Width-1:0] mem_q;
  logic [Depth*Width-1:0] shifted;
  logic [AW:0]            cnt_q, wpos;
  logic                   push, pop;

  assign out_valid_o = cnt_q != '0;
  assign in_ready_o  = (cnt_q != (AW+1)'(Depth)) || out_ready_i;
  assign out_data_o  = mem_q[Width-1:0];
  assign count_o     = cnt_q;
  assign push        = in_valid_i && in_ready_o;
  assign pop         = out_valid_o && out_ready_i;
  assign wpos        = cnt_q - (AW+1)'(pop);   // where a write lands
  assign shifted     = mem_q >> Width;         // entry i + 1 in entry i

  always_ff @(posedge clk_i) begin
    for (int i = 0; i < Depth; i++) begin
      if (push && wpos == (AW+1)'(i)) mem_q[Width*i +: Width] <= in_data_i;
      else if (pop)                   mem_q[Width*i +: Width] <= shifted[Width*i +: Width];
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      cnt_q <= '0;
    end else begin
      cnt_q <= cnt_q + (AW+1)'(push) - (AW+1)'(pop);
    end
  end

`ifndef SYNTHESIS
  initial begin
    assert (Depth >= 2 && (Depth & (Depth - 1)) == 0);
  end
`endif

endmodule

`default_nettype wire
