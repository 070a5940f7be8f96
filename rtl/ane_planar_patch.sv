// SPDX-License-Identifier: Apache-2.0
// ane_planar_patch: the planar engine's patch assembler for reductions through the tree
// (NUMERICS N-4.4; docs/planar.md, "The engine"). The beats of a list (a row, or a whole
// plane in raster order) arrive in order, each with its count of elements (the first n lanes);
// the assembler packs the list's elements into patches of 64 consecutive values, element k of
// the list at slot k mod 64 of patch k / 64, as the oracle's ReduceList cuts it, and offers
// each patch to the reduction tree (ane_pe_reduce) with the list's first / last marks and the
// mask of its slots (a list's last patch may be partial).
//
// A beat of n elements goes to slots s .. s + n - 1 (s: the running slot) of a 64 + NumLanes
// slot window (a shift by s). Slots 0 .. 63 complete the current patch; what lies past slot 63
// begins the next one. A patch leaves when it is full or the list ends; when the last beat of
// a list also overflows the patch (a plane whose rows do not fill whole patches), the overflow
// leaves as a second patch in the next cycle and the input waits for that cycle. A list's
// last beat is taken only with room_i (its result's descriptor has a place) and pulses end_o.
// NumLanes is a power of two of at most 64.
`default_nettype none

module ane_planar_patch #(
  parameter int unsigned NumLanes = 16,
  localparam int unsigned NW      = $clog2(NumLanes + 1),
  localparam int unsigned LB      = NumLanes * 16,
  localparam int unsigned SW      = 64 + NumLanes,
  localparam int unsigned SB      = SW * 16,
  localparam int unsigned PB      = 64 * 16
) (
  input  wire logic             clk_i,
  input  wire logic             rst_ni,
  input  wire logic             in_valid_i,
  output      logic             in_ready_o,
  input  wire logic [LB-1:0]    in_data_i,
  input  wire logic [NW-1:0]    in_n_i,       // 1 .. NumLanes
  input  wire logic             in_first_i,   // the list's first beat
  input  wire logic             in_last_i,    // the list's last beat
  input  wire logic             room_i,
  output      logic             end_o,        // a list's last beat was taken
  output      logic             out_valid_o,
  input  wire logic             out_ready_i,
  output      logic             out_first_o,
  output      logic             out_last_o,
  output      logic [63:0]      out_mask_o,
  output      logic [64*16-1:0] out_data_o
);

  logic [64*16-1:0] cd_q;   // the current patch's slots
  logic [63:0]      cm_q;   // and which of them hold elements
  logic [5:0]       s_q;    // the running slot
  logic             pf_q;   // the next patch is its list's first
  logic             sp_q;   // the current patch is a list's overflow, leaving now

  // the beat at slots s .. s + n - 1
  logic [NumLanes-1:0] bm;
  logic [SB-1:0]       pd;
  logic [SW-1:0]       pm;
  logic [6:0]          e;
  logic                full, spill, emit, take;
  always_comb begin
    for (int l = 0; l < NumLanes; l++) bm[l] = NW'(l) < in_n_i;
  end
  assign pd    = SB'(in_data_i) << {s_q, 4'b0};
  assign pm    = SW'(bm) << s_q;
  assign e     = 7'(s_q) + 7'(in_n_i);
  assign full  = e >= 7'd64;
  assign spill = e > 7'd64;
  assign emit  = full || in_last_i;

  // the patch with the beat merged
  logic [64*16-1:0] md;
  logic [63:0]      mm;
  always_comb begin
    for (int i = 0; i < 64; i++) md[16*i +: 16] = pm[i] ? pd[16*i +: 16] : cd_q[16*i +: 16];
  end
  assign mm = cm_q | pm[63:0];

  // what lies past slot 63: the next patch's first slots
  logic [64*16-1:0] hd;
  logic [63:0]      hm;
  assign hd = PB'(pd[SB-1:PB]);
  assign hm = 64'(pm[SW-1:64]);

  always_comb begin
    if (sp_q) begin
      in_ready_o  = 1'b0;
      out_valid_o = 1'b1;
      out_first_o = 1'b0;
      out_last_o  = 1'b1;
      out_mask_o  = cm_q;
      out_data_o  = cd_q;
    end else begin
      in_ready_o  = (!in_last_i || room_i) && (!emit || out_ready_i);
      out_valid_o = in_valid_i && emit && (!in_last_i || room_i);
      out_first_o = pf_q;
      out_last_o  = in_last_i && !spill;
      out_mask_o  = mm;
      out_data_o  = md;
    end
  end
  assign take  = in_valid_i && in_ready_o;
  assign end_o = take && in_last_i;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      cm_q <= '0;
      s_q  <= '0;
      pf_q <= 1'b1;
      sp_q <= 1'b0;
    end else if (sp_q) begin
      if (out_ready_i) begin
        sp_q <= 1'b0;
        cm_q <= '0;
        s_q  <= '0;
        pf_q <= 1'b1;
      end
    end else if (take) begin
      if (emit && in_last_i && spill) begin
        sp_q <= 1'b1;
        cm_q <= hm;
        pf_q <= 1'b0;
      end else if (emit && in_last_i) begin
        cm_q <= '0;
        s_q  <= '0;
        pf_q <= 1'b1;
      end else if (emit) begin
        cm_q <= hm;
        s_q  <= 6'(e - 7'd64);
        pf_q <= 1'b0;
      end else begin
        cm_q <= mm;
        s_q  <= e[5:0];
      end
    end
  end
  always_ff @(posedge clk_i) begin
    if (!sp_q && take) cd_q <= emit ? hd : md;
  end

`ifndef SYNTHESIS
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (rst_ni && take) begin
      assert (in_n_i != '0);
      if (in_first_i) assert (cm_q == '0 && s_q == '0 && pf_q);
    end
  end
`endif

endmodule

`default_nettype wire
