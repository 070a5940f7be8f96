// ane_core_load: the data side of the core's rasterizer (docs/core.md). It walks the work units
// of a layer in the core's order
//
//   for pass p (a group of up to 16 output channels of conv group g = p / passes_per_group):
//     for tile row ty: for tile column tx: for channel slice sl:   -> one work unit
//
// and, for each, reads the stored rows of its patch from the input memory (planar [C][H][W],
// BeatBytes per read at any byte address) and hands them to the shifter's load port as a bank
// image: channel i of the slice at i * PH * rs, patch row r at r * rs, where a bank row rs is
// `bpr` beats. Patch rows at or past `ph` (the bottom edge) are filler beats (no read). The
// descriptor (ph, pw, off_y, off_x, oh, ow) goes with the work unit's first beat.
//
// Reads are pipelined: at most Credits outstanding, responses in order without back-pressure
// (a response always has room: every read holds a place in the beat queue until it leaves).
`default_nettype none

module ane_core_load #(
  parameter int unsigned BeatBytes = 8,
  parameter int unsigned Credits   = 16   // a power of two
) (
  input  wire logic                   clk_i,
  input  wire logic                   rst_ni,
  input  wire logic                   start_i,     // one cycle: walk the configured layer
  output      logic                   busy_o,
  // layer configuration (stable while busy)
  input  wire logic [9:0]             cg_i,        // input channels of a conv group
  input  wire logic [9:0]             nc_i,        // channels per work unit
  input  wire logic [9:0]             nsl_i,       // channel slices per pass = ceil(cg / nc)
  input  wire logic [9:0]             np_i,        // passes
  input  wire logic [9:0]             ppg_i,       // passes per conv group
  input  wire logic [9:0]             nty_i,       // tile rows
  input  wire logic [9:0]             ntx_i,       // tile columns
  input  wire logic [8:0]             tile_h_i,
  input  wire logic [8:0]             tile_w_i,
  input  wire logic [2:0]             sy_i,
  input  wire logic [2:0]             sx_i,
  input  wire logic [4:0]             pt_i,        // padding top / left
  input  wire logic [4:0]             pl_i,
  input  wire logic [11:0]            h_i,         // input height / width
  input  wire logic [11:0]            w_i,
  input  wire logic [11:0]            oh_i,        // output height / width
  input  wire logic [11:0]            ow_i,
  input  wire logic [9:0]             ph_i,        // patch rows / columns of a whole tile
  input  wire logic [9:0]             pw_i,
  input  wire logic [5:0]             bpr_i,       // beats per bank row
  input  wire logic                   elem16_i,
  input  wire logic [31:0]            x_base_i,    // bytes
  input  wire logic [31:0]            x_chs_i,     // bytes per input channel plane
  input  wire logic [31:0]            x_rs_i,      // bytes per input row
  // input memory read port
  output      logic                   rd_valid_o,
  input  wire logic                   rd_ready_i,
  output      logic [31:0]            rd_addr_o,
  input  wire logic                   rs_valid_i,
  input  wire logic [BeatBytes*8-1:0] rs_data_i,
  // shifter load port
  output      logic                   ld_valid_o,
  input  wire logic                   ld_ready_i,
  output      logic [BeatBytes*8-1:0] ld_data_o,
  output      logic                   ld_last_o,
  output      logic [61:0]            ld_desc_o
);

  localparam int unsigned CW = $clog2(Credits);

  typedef enum logic [1:0] {
    SIdle   = 2'd0,
    SSetup1 = 2'd1,
    SSetup2 = 2'd2,
    SStream = 2'd3
  } state_e;
  state_e state_q;

  // ---------------------------------------------------------------- the walk
  logic [9:0]  p_q, pg_q, cgb_q, ty_q, tx_q, sl_q, csl_q;
  logic [11:0] oy0_q, ox0_q;
  logic signed [13:0] ty0_q, tx0_q;    // input row / column of patch position 0 (ky = kx = 0)
  logic [11:0] tyst, txst;             // tile_h * sy, tile_w * sx
  assign tyst = 12'(tile_h_i) * 12'(sy_i);
  assign txst = 12'(tile_w_i) * 12'(sx_i);
  logic signed [13:0] npt, npl;        // -padding
  assign npt = 14'd0 - {9'd0, pt_i};
  assign npl = 14'd0 - {9'd0, pl_i};

  // the work unit being streamed
  logic [9:0]  wn_q, ci_q, r_q, wph_q;
  logic [5:0]  b_q;
  logic [11:0] row0_q, col0_q;
  logic [31:0] a_ch_q, a_row_q, a_q;
  logic [61:0] desc_q;

  // setup, stage 1: clipping against the tensor and the output map
  logic [9:0]  left, wn;
  logic signed [13:0] yend, xend;
  logic [11:0] row0, col0, rowe, cole, ohl, owl;
  logic [9:0]  wph, wpw;
  logic [8:0]  toh, tow;
  always_comb begin
    left = cg_i - csl_q;
    wn   = (left < nc_i) ? left : nc_i;
    row0 = (ty0_q < 0) ? 12'd0 : 12'(ty0_q);
    col0 = (tx0_q < 0) ? 12'd0 : 12'(tx0_q);
    yend = ty0_q + 14'(ph_i);
    xend = tx0_q + 14'(pw_i);
    // yend, xend > 0: a patch is taller than the padding above it
    rowe = (yend > $signed({2'b00, h_i})) ? h_i : 12'(yend);
    cole = (xend > $signed({2'b00, w_i})) ? w_i : 12'(xend);
    wph  = (rowe > row0) ? 10'(rowe - row0) : 10'd0;
    wpw  = (cole > col0) ? 10'(cole - col0) : 10'd0;
    ohl  = oh_i - oy0_q;
    owl  = ow_i - ox0_q;
    toh  = (ohl < 12'(tile_h_i)) ? 9'(ohl) : tile_h_i;
    tow  = (owl < 12'(tile_w_i)) ? 9'(owl) : tile_w_i;
  end

  // setup, stage 2: the first row's byte address
  logic [31:0] mul_c, mul_r, col_b;
  assign mul_c = (32'(cgb_q) + 32'(csl_q)) * x_chs_i;
  assign mul_r = 32'(row0_q) * x_rs_i;
  assign col_b = elem16_i ? {19'd0, col0_q, 1'b0} : {20'd0, col0_q};

  // ---------------------------------------------------------------- beat queue
  // Every beat of a work unit takes a place in order: a read, or a filler (zero) beat.
  logic        q_in_valid, q_in_ready, q_out_valid, q_out_ready;
  logic [1:0]  q_in_data, q_out_data;   // {filler, last}
  logic [CW:0] q_count;
  logic        d_in_ready, d_out_valid;
  logic [BeatBytes*8-1:0] d_out_data;
  logic [CW:0] d_count;
  logic        desc_in_valid, desc_in_ready, desc_out_valid;
  logic [61:0] desc_out;
  logic [2:0]  desc_count;

  logic last_b, last_r, last_c, filler, issue, beat_fire;
  assign last_b = b_q == bpr_i - 6'd1;
  assign last_r = r_q == ph_i - 10'd1;
  assign last_c = ci_q == wn_q - 10'd1;
  assign filler = r_q >= wph_q;
  // A read waits for the port; a filler beat only for its place in the queue.
  assign q_in_valid = (state_q == SStream) && (filler || rd_ready_i);
  assign q_in_data  = {filler, last_b && last_r && last_c};
  assign issue      = q_in_valid && q_in_ready;
  assign rd_valid_o = (state_q == SStream) && !filler && q_in_ready;
  assign rd_addr_o  = a_q;

  ane_fifo #(.Width(2), .Depth(Credits)) u_order (
    .clk_i(clk_i), .rst_ni(rst_ni),
    .in_valid_i (q_in_valid), .in_ready_o (q_in_ready), .in_data_i (q_in_data),
    .out_valid_o(q_out_valid), .out_ready_i(q_out_ready), .out_data_o(q_out_data),
    .count_o    (q_count)
  );
  ane_fifo #(.Width(BeatBytes*8), .Depth(Credits)) u_data (
    .clk_i(clk_i), .rst_ni(rst_ni),
    .in_valid_i (rs_valid_i), .in_ready_o (d_in_ready), .in_data_i (rs_data_i),
    .out_valid_o(d_out_valid), .out_ready_i(q_out_valid && !q_out_data[1] && ld_ready_i && desc_out_valid),
    .out_data_o (d_out_data), .count_o (d_count)
  );
  ane_fifo #(.Width(62), .Depth(4)) u_desc (
    .clk_i(clk_i), .rst_ni(rst_ni),
    .in_valid_i (desc_in_valid), .in_ready_o (desc_in_ready), .in_data_i (desc_q),
    .out_valid_o(desc_out_valid), .out_ready_i(beat_fire && q_out_data[0]),
    .out_data_o (desc_out), .count_o (desc_count)
  );

  assign ld_valid_o  = q_out_valid && desc_out_valid && (q_out_data[1] || d_out_valid);
  assign ld_data_o   = q_out_data[1] ? '0 : d_out_data;
  assign ld_last_o   = q_out_data[0];
  assign ld_desc_o   = desc_out;
  assign q_out_ready = ld_ready_i && desc_out_valid && (q_out_data[1] || d_out_valid);
  assign beat_fire   = ld_valid_o && ld_ready_i;

  // The descriptor enters its queue as the work unit's streaming starts.
  assign desc_in_valid = state_q == SSetup2;

  // ---------------------------------------------------------------- control
  logic wu_done, sl_wrap, tx_wrap, ty_wrap, pg_wrap, p_wrap;
  assign wu_done = issue && last_b && last_r && last_c;
  assign sl_wrap = sl_q == nsl_i - 10'd1;
  assign tx_wrap = tx_q == ntx_i - 10'd1;
  assign ty_wrap = ty_q == nty_i - 10'd1;
  assign pg_wrap = pg_q == ppg_i - 10'd1;
  assign p_wrap  = p_q == np_i - 10'd1;

  assign busy_o = (state_q != SIdle) || q_out_valid || (desc_count != 3'd0);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q <= SIdle;
      p_q <= '0; pg_q <= '0; cgb_q <= '0; ty_q <= '0; tx_q <= '0; sl_q <= '0; csl_q <= '0;
      oy0_q <= '0; ox0_q <= '0; ty0_q <= '0; tx0_q <= '0;
      wn_q <= '0; ci_q <= '0; r_q <= '0; wph_q <= '0; b_q <= '0;
      row0_q <= '0; col0_q <= '0; a_ch_q <= '0; a_row_q <= '0; a_q <= '0; desc_q <= '0;
    end else begin
      unique case (state_q)
        SIdle: begin
          if (start_i) begin
            state_q <= SSetup1;
            p_q <= '0; pg_q <= '0; cgb_q <= '0; ty_q <= '0; tx_q <= '0; sl_q <= '0; csl_q <= '0;
            oy0_q <= '0; ox0_q <= '0;
            ty0_q <= npt;
            tx0_q <= npl;
          end
        end
        SSetup1: begin
          wn_q   <= wn;
          wph_q  <= wph;
          row0_q <= row0;
          col0_q <= col0;
          desc_q <= {tow, toh, 12'(tx0_q - 14'(col0)), 12'(ty0_q - 14'(row0)), wpw, wph};
          state_q <= SSetup2;
        end
        SSetup2: begin
          // the descriptor queue has room (it holds at most 4 work units)
          if (desc_in_ready) begin
            a_ch_q  <= x_base_i + mul_c + mul_r + col_b;
            a_row_q <= x_base_i + mul_c + mul_r + col_b;
            a_q     <= x_base_i + mul_c + mul_r + col_b;
            ci_q <= '0; r_q <= '0; b_q <= '0;
            state_q <= SStream;
          end
        end
        SStream: begin
          if (issue) begin
            if (!last_b) begin
              b_q <= b_q + 6'd1;
              a_q <= a_q + 32'(BeatBytes);
            end else if (!last_r) begin
              b_q     <= '0;
              r_q     <= r_q + 10'd1;
              a_row_q <= a_row_q + x_rs_i;
              a_q     <= a_row_q + x_rs_i;
            end else if (!last_c) begin
              b_q     <= '0;
              r_q     <= '0;
              ci_q    <= ci_q + 10'd1;
              a_ch_q  <= a_ch_q + x_chs_i;
              a_row_q <= a_ch_q + x_chs_i;
              a_q     <= a_ch_q + x_chs_i;
            end else begin
              // the work unit is queued: the next one
              state_q <= SSetup1;
              if (!sl_wrap) begin
                sl_q  <= sl_q + 10'd1;
                csl_q <= csl_q + nc_i;
              end else begin
                sl_q  <= '0;
                csl_q <= '0;
                if (!tx_wrap) begin
                  tx_q  <= tx_q + 10'd1;
                  ox0_q <= ox0_q + 12'(tile_w_i);
                  tx0_q <= tx0_q + 14'(txst);
                end else begin
                  tx_q  <= '0;
                  ox0_q <= '0;
                  tx0_q <= npl;
                  if (!ty_wrap) begin
                    ty_q  <= ty_q + 10'd1;
                    oy0_q <= oy0_q + 12'(tile_h_i);
                    ty0_q <= ty0_q + 14'(tyst);
                  end else begin
                    ty_q  <= '0;
                    oy0_q <= '0;
                    ty0_q <= npt;
                    if (p_wrap) begin
                      state_q <= SIdle;
                    end
                    p_q <= p_q + 10'd1;
                    if (!pg_wrap) begin
                      pg_q <= pg_q + 10'd1;
                    end else begin
                      pg_q  <= '0;
                      cgb_q <= cgb_q + cg_i;
                    end
                  end
                end
              end
            end
          end
        end
        default: state_q <= SIdle;
      endcase
    end
  end

`ifndef SYNTHESIS
  // A response always finds room; a layer starts only when idle.
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (rst_ni) begin
      if (rs_valid_i) assert (d_in_ready);
      if (start_i) assert (state_q == SIdle);
    end
  end
`endif

  logic unused;
  assign unused = ^{q_count, d_count, wu_done};

endmodule

`default_nettype wire
