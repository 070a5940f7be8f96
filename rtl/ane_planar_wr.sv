// SPDX-License-Identifier: Apache-2.0
// ane_planar_wr: the planar engine's writer (docs/planar.md, "The engine"). A result beat
// (NumLanes 16-bit lanes: fp16 codes, or int8 values sign-extended) and its descriptor (the byte
// address of its first element, how many of its lanes are elements, the element format) become
// one memory write: fp16 lanes as 2 bytes each, int8 lanes as their low byte, the byte strobes
// set for the first n elements only. One write per cycle. A descriptor with n = 0 drops its beat
// (no write).
//
// Memory write port as the neural-engine core's output port: valid/ready, an address at any
// byte, NumLanes x 2 data bytes with a strobe each.
`default_nettype none

module ane_planar_wr #(
  parameter int unsigned NumLanes = 8,
  localparam int unsigned NW      = $clog2(NumLanes + 1)
) (
  input  wire logic                   clk_i,
  input  wire logic                   rst_ni,
  // result beats
  input  wire logic                   in_valid_i,
  output      logic                   in_ready_o,
  input  wire logic [NumLanes*16-1:0] in_data_i,
  // their descriptors, in the same order
  input  wire logic                   d_valid_i,
  output      logic                   d_ready_o,
  input  wire logic [31:0]            d_addr_i,
  input  wire logic [NW-1:0]          d_n_i,      // 0 .. NumLanes (0: the beat is dropped)
  input  wire logic                   d_int8_i,
  // memory write port
  output      logic                   wr_valid_o,
  input  wire logic                   wr_ready_i,
  output      logic [31:0]            wr_addr_o,
  output      logic [NumLanes*16-1:0] wr_data_o,
  output      logic [NumLanes*2-1:0]  wr_strb_o,
  output      logic                   written_o   // a beat's write was taken this cycle
);

  logic wv_q, fire, drop;
  assign drop       = d_n_i == '0;
  assign fire       = in_valid_i && d_valid_i && !drop && (!wv_q || wr_ready_i);
  assign in_ready_o = d_valid_i && (drop || !wv_q || wr_ready_i);
  assign d_ready_o  = in_valid_i && (drop || !wv_q || wr_ready_i);

  // the packed bytes and their strobes
  logic [NumLanes*16-1:0] data;
  logic [NumLanes*2-1:0]  strb;
  always_comb begin
    data = in_data_i;
    strb = '0;
    for (int l = 0; l < NumLanes; l++) begin
      if (d_int8_i) begin
        data[8*l +: 8] = in_data_i[16*l +: 8];
        if (NW'(l) < d_n_i) strb[l] = 1'b1;
      end else if (NW'(l) < d_n_i) begin
        strb[2*l +: 2] = 2'b11;
      end
    end
    if (d_int8_i) data[NumLanes*16-1:NumLanes*8] = '0;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      wv_q <= 1'b0;
    end else begin
      if (fire) wv_q <= 1'b1;
      else if (wr_ready_i) wv_q <= 1'b0;
    end
  end
  always_ff @(posedge clk_i) begin
    if (fire) begin
      wr_addr_o <= d_addr_i;
      wr_data_o <= data;
      wr_strb_o <= strb;
    end
  end
  assign wr_valid_o = wv_q;
  assign written_o  = wv_q && wr_ready_i;

endmodule

`default_nettype wire
