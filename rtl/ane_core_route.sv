// SPDX-License-Identifier: Apache-2.0
// ane_core_route: the kernel extract's operations become the shifter's requests (docs/core.md).
// A tile's work units hold channel slices [sl nc, (sl + 1) nc) of the conv group in order; an
// operation of channel c reads its slice's work unit at channel c - sl nc. The last operation
// of a slice releases the work unit (rq_release), which is known only when the next operation
// arrives (its channel is past the slice) or the operation ends the group: the router holds one
// operation back. A slice with no operation at all (every step skipped by a sparse kernel,
// N-6.3) is released by a no-data request, as is every slice after the group's last operation.
// The operation (ane_pkg::core_op_t: coefficients, slot and flags) rides through the shifter as
// the request's tag.
// Depthwise interleave (diag_i): kernel k of a pass reduces over its own channel k of the work
// unit, so an operation reads channel `slot` (the extract walks one channel, c = 0).
`default_nettype none

module ane_core_route (
  input  wire logic        clk_i,
  input  wire logic        rst_ni,
  input  wire logic        start_i,     // a layer starts: slice 0
  input  wire logic [9:0]  nc_i,        // channels per work unit
  input  wire logic [9:0]  nsl_i,       // slices per tile
  input  wire logic        diag_i,      // depthwise interleave: an operation reads channel slot
  // operations from the kernel extract
  input  wire logic        op_valid_i,
  output      logic        op_ready_o,
  input  wire logic [15:0] op_coef_a_i,
  input  wire logic [15:0] op_coef_b_i,
  input  wire logic [15:0] op_coef_c_i,
  input  wire logic [15:0] op_coef_d_i,
  input  wire logic [9:0]  op_c_i,
  input  wire logic [2:0]  op_ky_i,
  input  wire logic [2:0]  op_kx_i,
  input  wire logic [2:0]  op_slot_i,
  input  wire logic        op_first_i,
  input  wire logic        op_last_i,
  input  wire logic        op_end_i,
  // shifter requests, the operation as their tag
  output      logic        rq_valid_o,
  input  wire logic        rq_ready_i,
  output      logic [9:0]  rq_c_o,
  output      logic [2:0]  rq_ky_o,
  output      logic [2:0]  rq_kx_o,
  output      logic        rq_release_o,
  output      logic        rq_nodata_o,
  output      ane_pkg::core_op_t rq_tag_o,
  output      logic        idle_o          // nothing held, no release owed
);

  typedef enum logic [1:0] {
    SOps  = 2'd0,   // pass held operations on
    SSkip = 2'd1,   // release slices the held operation's channel is past
    SEnd  = 2'd2    // release the slices after the group's last operation
  } state_e;
  state_e state_q;

  // the held operation
  logic        h_valid_q;
  logic [15:0] h_a_q, h_b_q, h_cc_q, h_cd_q;
  logic [9:0]  h_c_q;
  logic [2:0]  h_ky_q, h_kx_q, h_slot_q;
  logic        h_first_q, h_last_q, h_end_q;
  // the current slice: index, first channel, first channel past it
  logic [9:0]  sl_q;
  logic [10:0] lo_q, hi_q;   // 11 bits: the last slice may end past channel 1023

  logic decide, rel, fire, take, sl_last;
  assign sl_last = sl_q == nsl_i - 10'd1;
  // A held operation leaves once its successor (or the group end) tells whether it releases.
  assign decide  = h_valid_q && (h_end_q || op_valid_i);
  assign rel = h_end_q || ({1'b0, op_c_i} >= hi_q);

  always_comb begin
    rq_valid_o   = 1'b0;
    rq_release_o = 1'b1;
    rq_nodata_o  = 1'b1;
    op_ready_o   = 1'b0;
    unique case (state_q)
      SOps: begin
        rq_valid_o   = decide;
        rq_release_o = rel;
        rq_nodata_o  = 1'b0;
        op_ready_o   = !h_valid_q || (rq_valid_o && rq_ready_i);
      end
      SSkip: rq_valid_o = 1'b1;
      SEnd: begin
        rq_valid_o = 1'b1;
        op_ready_o = !h_valid_q;
      end
      default: ;
    endcase
  end
  assign rq_c_o   = diag_i ? {7'd0, h_slot_q} : h_c_q - lo_q[9:0];   // lo_q <= c: bit 10 is 0 here
  assign rq_ky_o  = h_ky_q;
  assign rq_kx_o  = h_kx_q;
  assign rq_tag_o.coef_a = h_a_q;
  assign rq_tag_o.coef_b = h_b_q;
  assign rq_tag_o.coef_c = h_cc_q;
  assign rq_tag_o.coef_d = h_cd_q;
  assign rq_tag_o.slot   = h_slot_q;
  assign rq_tag_o.first  = h_first_q;
  assign rq_tag_o.last   = h_last_q;
  assign fire     = rq_valid_o && rq_ready_i;
  assign take     = op_valid_i && op_ready_o;
  assign idle_o   = !h_valid_q && (state_q == SOps);

  logic unused;
  assign unused = lo_q[10];

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q <= SOps;
      h_valid_q <= 1'b0;
      {h_a_q, h_b_q, h_cc_q, h_cd_q, h_c_q, h_ky_q, h_kx_q, h_slot_q, h_first_q, h_last_q,
       h_end_q} <= '0;
      sl_q <= '0;
      lo_q <= '0;
      hi_q <= '0;
    end else begin
      if (take) begin
        h_valid_q <= 1'b1;
        {h_a_q, h_b_q, h_cc_q, h_cd_q, h_c_q, h_ky_q, h_kx_q, h_slot_q, h_first_q, h_last_q,
         h_end_q} <=
            {op_coef_a_i, op_coef_b_i, op_coef_c_i, op_coef_d_i, op_c_i, op_ky_i, op_kx_i, op_slot_i, op_first_i, op_last_i,
             op_end_i};
      end else if (fire && state_q == SOps) begin
        h_valid_q <= 1'b0;
      end
      if (start_i) begin
        sl_q <= '0;
        lo_q <= '0;
        hi_q <= {1'b0, nc_i};
      end else if (fire && rq_release_o) begin
        if (sl_last && (state_q == SEnd || (state_q == SOps && h_end_q))) begin
          // the group's last slice: the next group starts at slice 0
          sl_q <= '0;
          lo_q <= '0;
          hi_q <= {1'b0, nc_i};
          state_q <= SOps;
        end else begin
          sl_q <= sl_q + 10'd1;
          lo_q <= hi_q;
          hi_q <= hi_q + {1'b0, nc_i};
          unique case (state_q)
            SOps: begin
              if (h_end_q) begin
                state_q <= SEnd;
              end else if ({1'b0, op_c_i} >= hi_q + {1'b0, nc_i}) begin
                state_q <= SSkip;
              end
            end
            SSkip: if ({1'b0, h_c_q} < hi_q + {1'b0, nc_i}) state_q <= SOps;
            SEnd: ;
            default: state_q <= SOps;
          endcase
        end
      end
    end
  end

`ifndef SYNTHESIS
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (rst_ni) begin
      // every slice is released exactly once per group
      if (fire && rq_release_o) assert (sl_q < nsl_i);
      if (state_q == SSkip) assert (h_valid_q);
    end
  end
`endif

endmodule

`default_nettype wire
