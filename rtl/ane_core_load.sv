// SPDX-License-Identifier: Apache-2.0
// ane_core_load: the data side of the core's rasterizer (docs/core.md). It walks the work units
// of a layer in the core's order
//
//   for pass p (a group of up to 16 output channels of conv group g = p / passes_per_group):
//     for tile row ty: for tile column tx: for channel slice sl:   -> one work unit
//
// and, for each, reads the stored rows of its patch from the input memory (planar [C][H][W])
// and hands them to the shifter's load port as a bank image: channel i of the slice at
// i * PH * rs, patch row r at r * rs, where a bank row rs is `bpr` words of BeatBytes bytes.
// Patch rows at or past `ph` (the bottom edge) are filler words (no read). The descriptor
// (ph, pw, off_y, off_x, oh, ow) goes with the work unit's first beat.
//
// The input port reads PortWords words (PortWords * BeatBytes bytes) at any byte address: a
// bank row is read in segments of up to PortWords words. A funnel packs the segments' words
// into the shifter's beats of PortWords words; a work unit's image is padded with zero words
// to a whole number of beats.
//
// Two engines, so that a work unit follows the previous one without a dead cycle:
//   walker    one work unit per cycle: its clipping against the tensor and the output map,
//             its first address (incremental: no multiplier on the way), into a record queue;
//   streamer  one segment per cycle (a read, or filler words), the next work unit's record
//             taken in the cycle its last segment issues.
// The walker's per-layer constants (tile_h * sy * rs, nc * chs, cg * chs, pt * rs) come from
// a shift-and-add unit in the 12 cycles after start_i.
//
// Reads are pipelined: at most Credits outstanding, responses in order without back-pressure
// (a response always has room: every read holds a place in the segment queue until it leaves).
`default_nettype none

module ane_core_load #(
  parameter int unsigned BeatBytes = 8,    // a bank word
  parameter int unsigned PortWords = 8,    // words per read and per load beat (a power of two)
  parameter int unsigned Credits   = 16    // a power of two
) (
  input  wire logic                             clk_i,
  input  wire logic                             rst_ni,
  input  wire logic                             start_i,     // one cycle: walk the configured layer
  output      logic                             busy_o,
  // layer configuration (stable while busy)
  input  wire ane_regs_pkg::core_cfg_t     cfg_i,       // the layer (registers LAYER .. YRS)
  // input memory read port
  output      logic                             rd_valid_o,
  input  wire logic                             rd_ready_i,
  output      logic [31:0]                      rd_addr_o,
  input  wire logic                             rs_valid_i,
  input  wire logic [PortWords*BeatBytes*8-1:0] rs_data_i,
  // shifter load port
  output      logic                             ld_valid_o,
  input  wire logic                             ld_ready_i,
  output      logic [PortWords*BeatBytes*8-1:0] ld_data_o,
  output      logic                             ld_last_o,
  output      ane_pkg::wu_desc_t                ld_desc_o
);

  localparam int unsigned CW = $clog2(Credits);
  localparam int unsigned WW = 64 * BeatBytes / 8;          // bits per word
  localparam int unsigned PW = PortWords * WW;              // bits per beat
  localparam int unsigned NW = $clog2(PortWords) + 1;       // a segment's word count, 1..PortWords
  localparam int unsigned FW = (PortWords > 1) ? $clog2(PortWords) : 1;  // funnel fill, 0..PortWords-1
  ane_pkg::wu_desc_t desc;  // (below) the work unit's descriptor, before its record
  localparam int unsigned DescW = $bits(desc);
  ane_pkg::wu_rec_t  rec_in, rec_out;  // (below) a work unit's record in the walker's queue
  localparam int unsigned RecW = $bits(rec_in);

  // ---------------------------------------------------------------- layer constants
  // Shift-and-add over the 12 bits of the multipliers: cst_cnt_q counts 12 cycles after start.
  logic [3:0]  cst_cnt_q;
  logic        cst_busy_q;
  logic [11:0] m_tyst_q, m_nc_q, m_cg_q, m_pt_q;     // multipliers, shifted right each cycle
  logic [31:0] m_rs_q, m_chs_q;                      // multiplicands, shifted left each cycle
  logic [31:0] k_tyst_rs_q, k_nc_chs_q, k_cg_chs_q, k_pt_rs_q;
  logic [11:0] tyst, txst;                           // tile_h * sy, tile_w * sx
  assign tyst = 12'(cfg_i.tile.tile_h) * 12'(cfg_i.win.sy);
  assign txst = 12'(cfg_i.tile.tile_w) * 12'(cfg_i.win.sx);
  // the same, taken at START: the walker's tile steps add registers (timing: the 8-lane core's
  // worst path at 03a7d12 was the configuration through this product, the next tile row's sign
  // and the clamp into tya_q)
  logic [11:0] tyst_q, txst_q;

  // ---------------------------------------------------------------- the walker
  logic        wk_q;                                 // walking: the state below is a work unit
  logic [9:0]  p_q, pg_q, cgb_q, ty_q, tx_q, sl_q, csl_q;
  logic [11:0] oy0_q, ox0_q;
  logic signed [13:0] ty0_q, tx0_q;    // input row / column of patch position 0 (ky = kx = 0)
  logic [31:0] grp_addr_q;             // xbase + cgb * chs
  logic [31:0] ch_addr_q;              // xbase + (cgb + csl) * chs
  logic [31:0] ty_addr_q;              // ty0 * rs (mod 2^32)
  // row0_q, col0_q = ty0_q, tx0_q clamped at 0, and tya_q = (ty0_q < 0) ? 0 : ty_addr_q:
  // registers stepped with ty0_q, tx0_q and ty_addr_q, so the work unit's first address is one
  // three-operand add of flops (timing: the 8-lane core's worst path at 501cdb8 was ty0_q's sign
  // through that clamp and a four-operand add into the record queue)
  logic [11:0] row0_q, col0_q;
  logic [31:0] tya_q;
  logic signed [13:0] ty0_n, tx0_n;    // ty0_q, tx0_q one tile on
  logic [31:0] ty_addr_n;
  assign ty0_n     = ty0_q + 14'(tyst_q);
  assign tx0_n     = tx0_q + 14'(txst_q);
  assign ty_addr_n = ty_addr_q + k_tyst_rs_q;
  logic signed [13:0] npt, npl;        // -padding
  // yend_q = ty0_q + ph, xend_q = tx0_q + pw: registers stepped with ty0_q and tx0_q, so the
  // clipping below starts from flops (timing)
  logic signed [13:0] yend_q, xend_q;
  assign npt = 14'd0 - {9'd0, cfg_i.win.pt};
  assign npl = 14'd0 - {9'd0, cfg_i.win.pl};

  // clipping against the tensor and the output map
  logic [9:0]  left, wn;
  logic signed [13:0] yend, xend;
  logic [11:0] row0, col0, rowe, cole, ohl, owl;
  logic [9:0]  wph, wpw;
  logic [8:0]  toh, tow;
  logic [31:0] a0, col_b;
  always_comb begin
    left = cfg_i.layer.cg - csl_q;
    wn   = (left < cfg_i.tile.nc) ? left : cfg_i.tile.nc;
    row0 = row0_q;
    col0 = col0_q;
    yend = yend_q;
    xend = xend_q;
    // yend, xend > 0: a patch is taller than the padding above it
    rowe = (yend > $signed({2'b00, cfg_i.in.h})) ? cfg_i.in.h : 12'(yend);
    cole = (xend > $signed({2'b00, cfg_i.in.w})) ? cfg_i.in.w : 12'(xend);
    wph  = (rowe > row0) ? 10'(rowe - row0) : 10'd0;
    wpw  = (cole > col0) ? 10'(cole - col0) : 10'd0;
    ohl  = cfg_i.out.oh - oy0_q;
    owl  = cfg_i.out.ow - ox0_q;
    toh  = (ohl < 12'(cfg_i.tile.tile_h)) ? 9'(ohl) : cfg_i.tile.tile_h;
    tow  = (owl < 12'(cfg_i.tile.tile_w)) ? 9'(owl) : cfg_i.tile.tile_w;
    col_b = cfg_i.layer.elem16 ? {19'd0, col0, 1'b0} : {20'd0, col0};
    a0   = ch_addr_q + tya_q + col_b;
    desc.ow    = tow;
    desc.oh    = toh;
    desc.off_x = 12'(tx0_q - 14'(col0));
    desc.off_y = 12'(ty0_q - 14'(row0));
    desc.pw    = wpw;
    desc.ph    = wph;
  end

  logic rec_in_ready, rec_out_valid, rec_out_ready, rec_push;
  logic [1:0] rec_count;
  assign rec_in.addr = a0;
  assign rec_in.wn   = wn;
  assign rec_in.wph  = wph;
  assign rec_in.desc = desc;
  assign rec_push = wk_q && rec_in_ready;
  ane_fifo #(.Width(RecW), .Depth(2)) u_rec (
    .clk_i(clk_i), .rst_ni(rst_ni),
    .in_valid_i (wk_q), .in_ready_o (rec_in_ready), .in_data_i (rec_in),
    .out_valid_o(rec_out_valid), .out_ready_i(rec_out_ready), .out_data_o(rec_out),
    .count_o    (rec_count)
  );

  // The counters' last values, taken at START (the layer's configuration holds until done), so
  // a wrap is one equality compare.
  logic [9:0] nsl_m1_q, ntx_m1_q, nty_m1_q, ppg_m1_q, np_m1_q;
  always_ff @(posedge clk_i) begin
    if (start_i) begin
      nsl_m1_q <= cfg_i.grid.nsl - 10'd1;
      ntx_m1_q <= cfg_i.grid.ntx - 10'd1;
      nty_m1_q <= cfg_i.grid.nty - 10'd1;
      ppg_m1_q <= cfg_i.pass.ppg - 10'd1;
      np_m1_q  <= cfg_i.pass.np - 10'd1;
    end
  end
  logic sl_wrap, tx_wrap, ty_wrap, pg_wrap, p_wrap;
  assign sl_wrap = sl_q == nsl_m1_q;
  assign tx_wrap = tx_q == ntx_m1_q;
  assign ty_wrap = ty_q == nty_m1_q;
  assign pg_wrap = pg_q == ppg_m1_q;
  assign p_wrap  = p_q == np_m1_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      cst_busy_q <= 1'b0;
      cst_cnt_q  <= '0;
      wk_q       <= 1'b0;
      p_q <= '0; pg_q <= '0; cgb_q <= '0; ty_q <= '0; tx_q <= '0; sl_q <= '0; csl_q <= '0;
      oy0_q <= '0; ox0_q <= '0; ty0_q <= '0; tx0_q <= '0; yend_q <= '0; xend_q <= '0;
      grp_addr_q <= '0; ch_addr_q <= '0; ty_addr_q <= '0;
      row0_q <= '0; col0_q <= '0; tya_q <= '0;
    end else if (start_i) begin
      cst_busy_q <= 1'b1;
      cst_cnt_q  <= '0;
      p_q <= '0; pg_q <= '0; cgb_q <= '0; ty_q <= '0; tx_q <= '0; sl_q <= '0; csl_q <= '0;
      oy0_q <= '0; ox0_q <= '0;
      ty0_q <= npt;
      tx0_q <= npl;
      yend_q <= npt + 14'(cfg_i.patch.ph);
      xend_q <= npl + 14'(cfg_i.patch.pw);
      row0_q <= '0;                    // npt, npl <= 0
      col0_q <= '0;
      tya_q  <= '0;
      grp_addr_q <= cfg_i.xbase.base;
      ch_addr_q  <= cfg_i.xbase.base;
    end else if (cst_busy_q) begin
      cst_cnt_q <= cst_cnt_q + 4'd1;
      if (cst_cnt_q == 4'd11) begin
        cst_busy_q <= 1'b0;
        wk_q       <= 1'b1;
        ty_addr_q  <= 32'd0 - k_pt_rs_q;  // ty0 = -pt: tya_q stays 0
      end
    end else if (rec_push) begin
      // the work unit is queued: the next one
      if (!sl_wrap) begin
        sl_q      <= sl_q + 10'd1;
        csl_q     <= csl_q + cfg_i.tile.nc;
        ch_addr_q <= ch_addr_q + k_nc_chs_q;
      end else begin
        sl_q      <= '0;
        csl_q     <= '0;
        ch_addr_q <= grp_addr_q;
        if (!tx_wrap) begin
          tx_q  <= tx_q + 10'd1;
          ox0_q <= ox0_q + 12'(cfg_i.tile.tile_w);
          tx0_q <= tx0_n;
          col0_q <= (tx0_n < 0) ? 12'd0 : 12'(tx0_n);
          xend_q <= xend_q + 14'(txst_q);
        end else begin
          tx_q  <= '0;
          ox0_q <= '0;
          tx0_q <= npl;
          col0_q <= '0;
          xend_q <= npl + 14'(cfg_i.patch.pw);
          if (!ty_wrap) begin
            ty_q      <= ty_q + 10'd1;
            oy0_q     <= oy0_q + 12'(cfg_i.tile.tile_h);
            ty0_q     <= ty0_n;
            row0_q    <= (ty0_n < 0) ? 12'd0 : 12'(ty0_n);
            yend_q    <= yend_q + 14'(tyst_q);
            ty_addr_q <= ty_addr_n;
            tya_q     <= (ty0_n < 0) ? 32'd0 : ty_addr_n;
          end else begin
            ty_q      <= '0;
            oy0_q     <= '0;
            ty0_q     <= npt;
            row0_q    <= '0;
            yend_q    <= npt + 14'(cfg_i.patch.ph);
            ty_addr_q <= 32'd0 - k_pt_rs_q;
            tya_q     <= '0;
            if (p_wrap) begin
              wk_q <= 1'b0;
            end
            p_q <= p_q + 10'd1;
            if (!pg_wrap) begin
              pg_q <= pg_q + 10'd1;
            end else begin
              pg_q       <= '0;
              cgb_q      <= cgb_q + cfg_i.layer.cg;
              grp_addr_q <= grp_addr_q + k_cg_chs_q;
              ch_addr_q  <= grp_addr_q + k_cg_chs_q;
            end
          end
        end
      end
    end
  end

  // The constants: acc += multiplicand << i when bit i of the multiplier is set.
  always_ff @(posedge clk_i) begin
    if (start_i) begin
      tyst_q   <= tyst;
      txst_q   <= txst;
      m_tyst_q <= tyst;
      m_nc_q   <= {2'd0, cfg_i.tile.nc};
      m_cg_q   <= {2'd0, cfg_i.layer.cg};
      m_pt_q   <= {7'd0, cfg_i.win.pt};
      m_rs_q   <= cfg_i.xrs.stride;
      m_chs_q  <= cfg_i.xchs.stride;
      k_tyst_rs_q <= '0;
      k_nc_chs_q  <= '0;
      k_cg_chs_q  <= '0;
      k_pt_rs_q   <= '0;
    end else if (cst_busy_q) begin
      m_tyst_q <= m_tyst_q >> 1;
      m_nc_q   <= m_nc_q >> 1;
      m_cg_q   <= m_cg_q >> 1;
      m_pt_q   <= m_pt_q >> 1;
      m_rs_q   <= m_rs_q << 1;
      m_chs_q  <= m_chs_q << 1;
      if (m_tyst_q[0]) k_tyst_rs_q <= k_tyst_rs_q + m_rs_q;
      if (m_nc_q[0])   k_nc_chs_q  <= k_nc_chs_q + m_chs_q;
      if (m_cg_q[0])   k_cg_chs_q  <= k_cg_chs_q + m_chs_q;
      if (m_pt_q[0])   k_pt_rs_q   <= k_pt_rs_q + m_rs_q;
    end
  end

  // ---------------------------------------------------------------- the streamer
  // The work unit being streamed: channel ci of wn, row r of ph, word b of bpr.
  logic        st_q;                   // streaming a work unit
  logic        pad_q;                  // its pad segment is next
  logic [9:0]  wn_q, ci_q, r_q, wph_q;
  logic [5:0]  b_q;
  logic [31:0] a_ch_q, a_row_q, a_q;
  logic [FW-1:0] tot_q;                // words issued in the work unit, mod PortWords
  logic [NW-1:0] pad_n_q;

  logic [5:0]  rem;
  logic [NW-1:0] seg_n, pad_n;
  logic last_b, last_r, last_c, last_real, filler, issue, wu_end, take_rec;
  logic [FW-1:0] tot_next;
  logic [NW-1:0] q_n;
  logic q_last;
  always_comb begin
    rem    = cfg_i.patch.bpr - b_q;
    seg_n  = (rem > 6'(PortWords)) ? NW'(PortWords) : NW'(rem);
    last_b = rem <= 6'(PortWords);
    last_r = r_q == cfg_i.patch.ph - 10'd1;
    last_c = ci_q == wn_q - 10'd1;
    last_real = last_b && last_r && last_c;
    filler = pad_q || (r_q >= wph_q);
    q_n    = pad_q ? pad_n_q : seg_n;
    tot_next = tot_q + FW'(seg_n);
    // words to the next beat boundary after the last real segment
    pad_n  = (tot_next == '0 || PortWords == 1) ? '0
           : NW'(PortWords) - NW'(tot_next);
    q_last = pad_q || (last_real && pad_n == '0);
  end

  // The segment queue: every segment of a work unit takes a place in order.
  logic        q_in_valid, q_in_ready, q_out_valid, q_out_ready;
  logic [NW+1:0] q_in_data, q_out_data;   // {filler, last, words}
  logic [CW:0] q_count;
  logic        d_in_ready, d_out_valid, d_out_ready;
  logic [PW-1:0] d_out_data;
  logic [CW:0] d_count;
  logic        desc_in_valid, desc_in_ready, desc_out_valid, desc_out_ready;
  ane_pkg::wu_desc_t desc_out;
  logic [2:0]  desc_count;

  // A read waits for the port; a filler segment only for its place in the queue.
  assign q_in_valid = st_q && (filler || rd_ready_i);
  assign q_in_data  = {filler, q_last, q_n};
  assign issue      = q_in_valid && q_in_ready;
  assign rd_valid_o = st_q && !filler && q_in_ready;
  assign rd_addr_o  = a_q;
  assign wu_end     = issue && (pad_q || (last_real && pad_n == '0));
  // The next work unit starts when the last one ends (or nothing streams), with room for its
  // descriptor.
  assign take_rec      = rec_out_valid && desc_in_ready && (!st_q || wu_end);
  assign rec_out_ready = take_rec;
  assign desc_in_valid = take_rec;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      st_q <= 1'b0;
      pad_q <= 1'b0;
      pad_n_q <= '0;
      wn_q <= '0; ci_q <= '0; r_q <= '0; wph_q <= '0; b_q <= '0; tot_q <= '0;
      a_ch_q <= '0; a_row_q <= '0; a_q <= '0;
    end else begin
      if (issue) begin
        tot_q <= tot_next;
        if (!pad_q && !last_b) begin
          b_q <= b_q + 6'(PortWords);
          a_q <= a_q + 32'(PortWords * BeatBytes);
        end else if (!pad_q && !last_r) begin
          b_q     <= '0;
          r_q     <= r_q + 10'd1;
          a_row_q <= a_row_q + cfg_i.xrs.stride;
          a_q     <= a_row_q + cfg_i.xrs.stride;
        end else if (!pad_q && !last_c) begin
          b_q     <= '0;
          r_q     <= '0;
          ci_q    <= ci_q + 10'd1;
          a_ch_q  <= a_ch_q + cfg_i.xchs.stride;
          a_row_q <= a_ch_q + cfg_i.xchs.stride;
          a_q     <= a_ch_q + cfg_i.xchs.stride;
        end else if (!pad_q && pad_n != '0) begin
          pad_q   <= 1'b1;
          pad_n_q <= pad_n;
        end else begin
          pad_q <= 1'b0;
          st_q  <= 1'b0;
        end
      end
      if (take_rec) begin
        st_q    <= 1'b1;
        pad_q   <= 1'b0;
        tot_q   <= '0;
        a_q     <= rec_out.addr;
        wn_q    <= rec_out.wn;
        wph_q   <= rec_out.wph;
        a_ch_q  <= rec_out.addr;
        a_row_q <= rec_out.addr;
        ci_q <= '0; r_q <= '0; b_q <= '0;
      end
    end
  end

  ane_fifo #(.Width(NW + 2), .Depth(Credits)) u_order (
    .clk_i(clk_i), .rst_ni(rst_ni),
    .in_valid_i (q_in_valid), .in_ready_o (q_in_ready), .in_data_i (q_in_data),
    .out_valid_o(q_out_valid), .out_ready_i(q_out_ready), .out_data_o(q_out_data),
    .count_o    (q_count)
  );
  ane_fifo #(.Width(PW), .Depth(Credits)) u_data (
    .clk_i(clk_i), .rst_ni(rst_ni),
    .in_valid_i (rs_valid_i), .in_ready_o (d_in_ready), .in_data_i (rs_data_i),
    .out_valid_o(d_out_valid), .out_ready_i(d_out_ready),
    .out_data_o (d_out_data), .count_o (d_count)
  );
  ane_fifo #(.Width(DescW), .Depth(4)) u_desc (
    .clk_i(clk_i), .rst_ni(rst_ni),
    .in_valid_i (desc_in_valid), .in_ready_o (desc_in_ready), .in_data_i (rec_out.desc),
    .out_valid_o(desc_out_valid), .out_ready_i(desc_out_ready),
    .out_data_o (desc_out), .count_o (desc_count)
  );

  // ---------------------------------------------------------------- the funnel
  // Segment words go to the words fill .. fill + n - 1 of a two-beat window; a full first beat
  // moves to the output register, the rest becomes the new fill.
  logic [PW-1:0]   fun_q;              // the words 0 .. fill - 1 are valid, the rest zero
  logic [FW-1:0]   fill_q;
  logic            out_valid_q, out_last_q;
  logic [PW-1:0]   out_data_q;
  logic [NW-1:0]   s_n;
  logic            s_filler, s_last, s_avail, s_take, s_full;
  logic [PW-1:0]   s_data;
  logic [2*PW-1:0] win;
  logic [FW:0]     s_sum;
  always_comb begin
    s_n      = q_out_data[NW-1:0];
    s_last   = q_out_data[NW];
    s_filler = q_out_data[NW+1];
    s_avail  = q_out_valid && (s_filler || d_out_valid);
    // words past the segment's count are zero
    for (int k = 0; k < PortWords; k++) begin
      s_data[k*WW +: WW] = (!s_filler && NW'(k) < s_n) ? d_out_data[k*WW +: WW] : '0;
    end
    win   = {{PW{1'b0}}, s_data} << (WW * fill_q);
    win   = win | {{PW{1'b0}}, fun_q};
    s_sum = (FW+1)'(fill_q) + (FW+1)'(s_n);
    s_full = s_sum >= (FW+1)'(PortWords);
    // a segment that fills a beat needs the output register
    s_take = s_avail && (!s_full || !out_valid_q || ld_ready_i);
  end
  assign q_out_ready = s_take;
  assign d_out_ready = s_take && !s_filler;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      fill_q      <= '0;
      fun_q       <= '0;
      out_valid_q <= 1'b0;
      out_last_q  <= 1'b0;
    end else begin
      if (ld_ready_i) out_valid_q <= 1'b0;
      if (s_take) begin
        if (s_full) begin
          fill_q      <= FW'(s_sum - (FW+1)'(PortWords));
          fun_q       <= win[2*PW-1:PW];
          out_valid_q <= 1'b1;
          out_last_q  <= s_last;
        end else begin
          fill_q <= FW'(s_sum);
          fun_q  <= win[PW-1:0];
        end
      end
    end
  end
  always_ff @(posedge clk_i) begin
    if (s_take && s_full) out_data_q <= win[PW-1:0];
  end

  assign ld_valid_o     = out_valid_q;
  assign ld_data_o      = out_data_q;
  assign ld_last_o      = out_last_q;
  assign ld_desc_o      = desc_out;
  assign desc_out_ready = out_valid_q && ld_ready_i && out_last_q;

  assign busy_o = cst_busy_q || wk_q || rec_out_valid || st_q || q_out_valid || out_valid_q
               || (desc_count != 3'd0);

`ifndef SYNTHESIS
  // A response always finds room; a layer starts only when idle; a beat has its descriptor; a
  // work unit's image ends on a beat boundary.
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (rst_ni) begin
      if (rs_valid_i) assert (d_in_ready);
      if (start_i) assert (!busy_o);
      if (out_valid_q) assert (desc_out_valid);
      if (s_take && s_last) assert (s_sum == (FW+1)'(PortWords));
    end
  end
`endif

  // cfg_i: the output side's registers (the writer's, the kernel reader's) are another block's
  logic unused;
  assign unused = ^{q_count, d_count, rec_count, cgb_q,
                    cfg_i.cgout, cfg_i.kbase, cfg_i.ybase, cfg_i.ychs, cfg_i.yrs};

endmodule

`default_nettype wire
