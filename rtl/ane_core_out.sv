// SPDX-License-Identifier: Apache-2.0
// ane_core_out: the result side of the core (docs/core.md). The MAC array's result vectors (one
// per slot and tile, in the order the passes and tiles run) go through the post-processor, one
// output channel per vector, with that channel's scale and bias from the kernel extract's
// parameter records (N-3.1), and are written to the output memory, planar [Cout][OH][OW]:
//
//   broadcast mode   slot j holds kernel j of the pass over the tile's positions;
//   two-kernel mode  slot j holds kernel 2j on the even lanes and 2j + 1 on the odd lanes: two
//                    post-processor vectors, even lanes first (positions compacted to 0..N/2-1);
//   four-kernel mode slot j holds kernel 4j + k on lanes 4p + k: four post-processor vectors,
//                    k = 0 first (positions compacted to 0..N/4-1);
//   int4 packed mode (LAYER.MODE 4, N-2.8) kernel j of the pass gives four result vectors, one
//                    per image n = 0..3 of the data words (slots 4j + n): each is a
//                    post-processor vector of its own, with kernel j's parameter record (one record
//                    for the four), written as output channel 4 co + n (co the kernel's channel):
//                    the channel steps are four times as many Y channel strides.
//
// A pass may end with padding kernels (two- and four-kernel modes, a kernel count that is not a
// multiple of 2 or 4): their vectors are post-processed and not written. The writer sends each tile row of a channel in beats of
// OutBytes at any byte address, with byte strobes (fp16: 2 bytes per element, int8: 1).
//
// The address of a vector's first element, y_base + channel * y_chs + oy0 * y_rs + ox0 * bytes,
// is kept as running sums (the channel part, the row part) that step by additions as the
// writer moves on (the same sums modulo 2^32 as long as the channel, row and column counters do
// not wrap, which no layer the core runs makes them do); the three steps that are products of the configuration (tile_h * y_rs,
// nk_full * y_chs, cgout * y_chs) are formed by shift-and-add in the first 10 cycles after
// start_i, long before a result can come out of the post-processor (its latency alone is 31).
//
// The post-processor has PpLanes lanes (NumLanes a multiple of it): a vector goes through it
// in NumLanes / PpLanes chunks, lane order, one chunk per cycle, and is put together again
// before the writer. Every chunk of every vector is processed (the upper half of a two-kernel
// vector and the upper three quarters of a four-kernel one too), so the stochastic-rounding draws are those of a NumLanes-lane post-processor
// (N-3.4: one draw per lane in lane order through every vector). A pass delivers NumLanes x
// slots results every slots x steps cycles, so PpLanes = NumLanes / 4 keeps up with any layer
// of at least 4 (8 in two-kernel mode, 16 in four-kernel mode) steps per slot; fewer steps stall
// the MAC array through the result queue (counted as stall_res). The four-kernel mode needs
// NumLanes / PpLanes = 1 or a multiple of 4 chunks.
`default_nettype none

module ane_core_out #(
  parameter logic        Gen      = ane_pkg::GenM1,
  parameter int unsigned NumLanes = 16,
  parameter int unsigned OutBytes = 32,
  parameter int unsigned ResDepth = 8,   // result vectors queued (a power of two)
  parameter int unsigned PrmDepth = 64,  // parameter records queued: two passes of 32 kernels
  parameter int unsigned PpLanes  = NumLanes   // post-processor lanes (NumLanes / PpLanes chunks)
) (
  input  wire logic                   clk_i,
  input  wire logic                   rst_ni,
  input  wire logic                   start_i,
  output      logic                   busy_o,
  output      logic                   done_o,      // one cycle: the layer's last beat was sent
  // layer configuration
  input  wire ane_regs_pkg::core_cfg_t cfg_i,     // the layer (registers LAYER .. YRS, by name)
  // post-processor configuration (ane_postproc's registers)
  input  wire logic                   pp_cfg_we_i,
  input  wire logic [5:0]             pp_cfg_addr_i,
  input  wire logic [31:0]            pp_cfg_wdata_i,
  output      logic                   pp_busy_o,
  // MAC array results
  input  wire logic                   res_valid_i,
  output      logic                   res_ready_o,
  input  wire logic [NumLanes*32-1:0] res_acc_i,
  // kernel extract parameter records
  input  wire logic                   prm_valid_i,
  output      logic                   prm_ready_o,
  input  wire logic [15:0]            prm_scale_i,
  input  wire logic [31:0]            prm_bias_i,
  // output memory write port
  output      logic                   wr_valid_o,
  input  wire logic                   wr_ready_i,
  output      logic [31:0]            wr_addr_o,
  output      logic [OutBytes*8-1:0]  wr_data_o,
  output      logic [OutBytes-1:0]    wr_strb_o
);

  localparam int unsigned Half    = NumLanes / 2;
  localparam int unsigned Quarter = NumLanes / 4;
  localparam int unsigned QLanes  = (NumLanes >= 4) ? NumLanes / 4 : 1;  // Quarter, at least 1
  localparam int unsigned Chunks  = NumLanes / PpLanes;
  // chunks per quarter vector (four-kernel mode: Chunks is 1 or a multiple of 4)
  localparam int unsigned QChunks = (Chunks >= 4) ? Chunks / 4 : 1;
  localparam int unsigned ChW    = (Chunks > 1) ? $clog2(Chunks) : 1;

  // ---------------------------------------------------------------- results queue
  // The MAC array hands over a tile's results in a burst (one per slot in consecutive cycles);
  // the queue takes them so the array goes on with the next tile while the post-processor (two
  // or four vectors per result in the two- and four-kernel modes) and the writer drain them.
  logic                   r_valid, r_ready;
  logic [NumLanes*32-1:0] r_acc;
  logic [$clog2(ResDepth):0] r_count;
  // In two-kernel mode a result vector is queued with its even lanes (kernel 2j, positions
  // 0 .. N/2-1) in the lower half and its odd lanes in the upper half, so each post-processor
  // vector is one half of it: the feeder below is one multiplexer from the queue's flops. In
  // four-kernel mode quarter k holds lanes 4p + k (kernel 4j + k) the same way.
  logic [NumLanes*32-1:0] res_perm, res_perm4;
  if (NumLanes % 4 == 0) begin : g_perm4
    always_comb begin
      for (int i = 0; i < Quarter; i++) begin
        for (int k = 0; k < 4; k++) res_perm4[32*(k*Quarter + i) +: 32] = res_acc_i[32*(4*i + k) +: 32];
      end
    end
  end else begin : g_no_perm4   // too few lanes for the four-kernel mode
    assign res_perm4 = res_acc_i;
  end
  always_comb begin
    res_perm = res_acc_i;
    if (cfg_i.layer.four_kernel) begin
      res_perm = res_perm4;
    end else if (cfg_i.layer.two_kernel) begin
      for (int i = 0; i < Half; i++) begin
        res_perm[32*i +: 32]          = res_acc_i[32*(2*i) +: 32];
        res_perm[32*(Half + i) +: 32] = res_acc_i[32*(2*i + 1) +: 32];
      end
    end
  end
  ane_fifo #(.Width(NumLanes*32), .Depth(ResDepth)) u_res (
    .clk_i(clk_i), .rst_ni(rst_ni),
    .in_valid_i (res_valid_i), .in_ready_o (res_ready_o), .in_data_i (res_perm),
    .out_valid_o(r_valid), .out_ready_i(r_ready), .out_data_o(r_acc), .count_o(r_count)
  );

  // ---------------------------------------------------------------- parameters, feeder
  logic        f_valid, f_ready, f_fire, ph_last;
  logic [1:0]  phase_q;   // the result's post-processor vector: 0 .. 1 (two-kernel), 0 .. 3 (four)
  logic [1:0]  img_q;     // int4: the image of the result vector (its kernel's record is popped with 3)
  logic        int4;
  assign int4 = cfg_i.layer.mode == 3'd4;
  logic        q_valid;
  ane_pkg::pp_param_t q_in, q_data;
  logic [$clog2(PrmDepth):0] q_count;
  assign q_in.scale = prm_scale_i;
  assign q_in.bias  = prm_bias_i;
  ane_fifo #(.Width($bits(q_in)), .Depth(PrmDepth)) u_prm (
    .clk_i(clk_i), .rst_ni(rst_ni),
    .in_valid_i (prm_valid_i), .in_ready_o (prm_ready_o), .in_data_i (q_in),
    .out_valid_o(q_valid), .out_ready_i(f_fire && cfg_i.layer.params && (!int4 || img_q == 2'd3)),
    .out_data_o(q_data),
    .count_o (q_count)
  );

  // The chunk of the vector the post-processor takes this cycle; the vector is done (f_fire)
  // with its last chunk.
  logic [ChW-1:0]        fc_q;
  logic                  fc_fire, fc_last;
  logic [PpLanes*32-1:0] fc_acc;
  assign f_valid = r_valid && (q_valid || !cfg_i.layer.params);
  assign fc_fire = f_valid && f_ready;
  assign fc_last = fc_q == ChW'(Chunks - 1);
  assign f_fire  = fc_fire && fc_last;
  assign ph_last = cfg_i.layer.four_kernel ? (phase_q == 2'd3) :
                   cfg_i.layer.two_kernel  ? phase_q[0] : 1'b1;
  assign r_ready = f_fire && ph_last;
  // The post-processor vector is the queued vector (broadcast mode) or its half (two-kernel
  // mode) or quarter (four-kernel mode) for the phase, zeros above; fc_acc is its chunk fc_q.
  // The chunk's source (and whether it is the zero upper half) are registers, set with the
  // chunk counter and the phase, so only flops drive the multiplexer's selects: idle, both are
  // 0 whatever the mode (fc_q = 0, phase_q = 0).
  if (Chunks > 1) begin : g_feed_chunks
    logic [ChW-1:0] src_q, fc_n;
    logic           zero_q;
    logic [1:0]     ph_n;
    assign fc_n = fc_fire ? (fc_last ? '0 : fc_q + ChW'(1)) : fc_q;
    assign ph_n = f_fire ? (ph_last ? 2'd0 : phase_q + 2'd1) : phase_q;
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        src_q  <= '0;
        zero_q <= 1'b0;
      end else begin
        src_q  <= cfg_i.layer.four_kernel ? fc_n + ChW'(ph_n * QChunks) :
                  cfg_i.layer.two_kernel  ? fc_n + (ph_n[0] ? ChW'(Chunks / 2) : ChW'(0)) : fc_n;
        zero_q <= cfg_i.layer.four_kernel ? (fc_n >= ChW'(QChunks)) :
                  cfg_i.layer.two_kernel && (fc_n >= ChW'(Chunks / 2));
      end
    end
    assign fc_acc = zero_q ? '0 : r_acc[PpLanes*32*src_q +: PpLanes*32];
  end else begin : g_feed_whole
    always_comb begin
      fc_acc = r_acc;
      if (cfg_i.layer.four_kernel) begin
        fc_acc = '0;
        fc_acc[QLanes*32-1:0] = r_acc[QLanes*32*phase_q +: QLanes*32];
      end else if (cfg_i.layer.two_kernel) begin
        fc_acc = '0;
        fc_acc[Half*32-1:0] = phase_q[0] ? r_acc[NumLanes*32-1:Half*32] : r_acc[Half*32-1:0];
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) fc_q <= '0;
    else if (fc_fire) fc_q <= fc_last ? '0 : fc_q + ChW'(1);
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      phase_q <= 2'd0;
    end else if (f_fire) begin
      phase_q <= ph_last ? 2'd0 : phase_q + 2'd1;
    end
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) img_q <= 2'd0;
    else if (f_fire && int4) img_q <= img_q + 2'd1;
  end

  logic                   pp_valid, pp_ready;   // a whole vector for the writer
  logic [NumLanes*16-1:0] pp_data;
  logic                   c_valid, c_ready;     // one chunk out of the post-processor
  logic [PpLanes*16-1:0]  c_data;
  ane_postproc #(.NumLanes(PpLanes), .Gen(Gen)) u_pp (
    .clk_i(clk_i), .rst_ni(rst_ni),
    .cfg_we_i   (pp_cfg_we_i), .cfg_addr_i(pp_cfg_addr_i), .cfg_wdata_i(pp_cfg_wdata_i),
    .busy_o     (pp_busy_o),
    .in_valid_i (f_valid), .in_ready_o(f_ready), .in_acc_i(fc_acc),
    .in_scale_i (cfg_i.layer.params ? q_data.scale : ane_pkg::Fp16One),
    .in_bias_i  (cfg_i.layer.params ? q_data.bias : 32'h0),
    .out_valid_o(c_valid), .out_ready_i(c_ready), .out_data_o(c_data)
  );

  // The chunks put together again: each enters at the top and moves down, so after Chunks of
  // them chunk 0 is at the bottom. A whole vector waits there for the writer, which copies it
  // when it takes it (the next chunk may enter in that cycle).
  if (Chunks > 1) begin : g_chunks
    logic [NumLanes*16-1:0] asm_q;
    logic [ChW:0]           n_q;     // chunks held
    logic                   full, take;
    assign full    = n_q == (ChW+1)'(Chunks);
    assign take    = full && pp_ready;
    assign c_ready = !full || pp_ready;
    assign pp_valid = full;
    assign pp_data  = asm_q;
    always_ff @(posedge clk_i) begin
      if (c_valid && c_ready) asm_q <= {c_data, asm_q[NumLanes*16-1:PpLanes*16]};
    end
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) n_q <= '0;
      else n_q <= (take ? '0 : n_q) + (ChW+1)'(c_valid && c_ready);
    end
  end else begin : g_whole
    assign pp_valid = c_valid;
    assign pp_data  = c_data;
    assign c_ready  = pp_ready;
  end

  // ---------------------------------------------------------------- writer
  typedef enum logic [1:0] {
    WIdle  = 2'd0,
    WTake  = 2'd1,   // wait for a post-processed vector
    WBeats = 2'd2
  } wstate_e;
  wstate_e w_q;

  logic [NumLanes*16-1:0] v_q;
  logic [5:0]  k_q;                   // vector of the (pass, tile)
  logic [9:0]  p_q, pg_q, ty_q, tx_q;
  logic [9:0]  gbase_q, cbase_q;      // first output channel of the conv group / the pass
  logic [11:0] oy0_q, ox0_q;
  logic [8:0]  r_q, toh_q, tow_q;
  logic [8:0]  be_q;                  // first element of the beat within the row
  logic [8:0]  erow_q;                // first element of the row within the vector
  logic [31:0] arow_q, a_q;

  localparam int unsigned EpbW = $clog2(OutBytes) + 1;
  logic [EpbW-1:0] epb;               // elements per beat
  assign epb = cfg_i.layer.out8 ? EpbW'(OutBytes) : EpbW'(OutBytes / 2);

  // The layer's counts less one, taken at start (the configuration holds for the layer), and
  // pg_last as a register: the compares that decide where the next vector goes read registers
  // only, with no subtraction on the way (timing).
  logic [9:0]  ppg_m1_q, ntx_m1_q, nty_m1_q, np_m1_q;
  logic [5:0]  nvf_m1_q, nvl_m1_q;    // vectors of a pass less one: full pass, group's last pass
  logic        pg_last_q;
  // (int4: four per kernel)
  function automatic logic [5:0] vecs_m1(logic [5:0] n, logic four, logic two, logic i4);
    vecs_m1 = (i4 ? {n[3:0], 2'b00} : four ? ((n + 6'd3) & 6'b111100) : two ? ((n + 6'd1) & 6'b111110) : n) - 6'd1;
  endfunction
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      {ppg_m1_q, ntx_m1_q, nty_m1_q, np_m1_q, nvf_m1_q, nvl_m1_q} <= '0;
    end else if (start_i && w_q == WIdle) begin
      ppg_m1_q <= cfg_i.pass.ppg - 10'd1;
      ntx_m1_q <= cfg_i.grid.ntx - 10'd1;
      nty_m1_q <= cfg_i.grid.nty - 10'd1;
      np_m1_q  <= cfg_i.pass.np - 10'd1;
      nvf_m1_q <= vecs_m1(cfg_i.pass.nk_full, cfg_i.layer.four_kernel, cfg_i.layer.two_kernel, int4);
      nvl_m1_q <= vecs_m1(cfg_i.pass.nk_last, cfg_i.layer.four_kernel, cfg_i.layer.two_kernel, int4);
    end
  end

  logic [5:0]  nk;
  logic        pg_last, k_last, tx_last, ty_last, p_last, write_k;
  assign pg_last = pg_last_q;
  assign nk      = pg_last ? cfg_i.pass.nk_last : cfg_i.pass.nk_full;
  assign k_last  = k_q == (pg_last ? nvl_m1_q : nvf_m1_q);
  assign tx_last = tx_q == ntx_m1_q;
  assign ty_last = ty_q == nty_m1_q;
  assign p_last  = p_q == np_m1_q;
  assign write_k = int4 || k_q < nk;  // not the padding kernel (int4 has none)

  logic [11:0] ohl, owl;
  logic [8:0]  toh, tow;
  assign ohl = cfg_i.out.oh - oy0_q;
  assign owl = cfg_i.out.ow - ox0_q;
  assign toh = (ohl < 12'(cfg_i.tile.tile_h)) ? 9'(ohl) : cfg_i.tile.tile_h;
  assign tow = (owl < 12'(cfg_i.tile.tile_w)) ? 9'(owl) : cfg_i.tile.tile_w;

  // running address parts (see the header): ch_q = y_base + (cbase + k) * y_chs,
  // ch0_q = y_base + cbase * y_chs, g0_q = y_base + gbase * y_chs, row_q = oy0 * y_rs,
  // rowx_q = row_q + ox0 * (bytes per element), stepped by ox_step_q = tile_w * (bytes per
  // element) with ox0, so the tile's first address is a sum of two registers
  logic [31:0] ch_q, ch0_q, g0_q, row_q, rowx_q, row_next;
  logic [9:0]  ox_step_q;
  logic [31:0] a0;
  assign a0       = ch_q + rowx_q;
  assign row_next = row_q + p_th_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) ox_step_q <= '0;
    else if (start_i && w_q == WIdle) ox_step_q <= cfg_i.layer.out8 ? {1'b0, cfg_i.tile.tile_w}
                                                                     : {cfg_i.tile.tile_w, 1'b0};
  end

  // the configuration's products, by shift-and-add: per cycle the multiplicands move up one bit
  // and the multipliers down one (registers, so no shifter by the bit index on the way). Each
  // sum adds in two 16-bit halves, the lower half's carry entering the upper half a cycle later
  // (the sum is the same: every carry is added once), so no 32-bit carry chain lies in a cycle;
  // cycle 10 adds the last carries.
  logic [31:0] p_th_q, p_nk_q, p_cg_q;  // tile_h * y_rs, nk_full * y_chs, cgout * y_chs (int4: 4 y_chs)
  logic [2:0]  p_c_q;                   // their lower halves' carries, pending
  logic [31:0] m_rs_q, m_chs_q;         // y_rs << m, y_chs << m
  logic [8:0]  m_th_q;                  // tile_h >> m
  logic [5:0]  m_nk_q;                  // nk_full >> m
  logic [9:0]  m_cg_q;                  // cgout >> m
  logic [3:0]  m_q;                     // 0 .. 9: the next bit; 10: the last carries; 11: done
  logic        prod_ok;
  logic [32:0] s_th, s_nk, s_cg;        // {carry out of the lower half, the new sum}
  function automatic logic [32:0] add_halves(logic [31:0] p, logic [31:0] m, logic c);
    logic [16:0] lo;
    lo = {1'b0, p[15:0]} + {1'b0, m[15:0]};
    add_halves = {lo[16], p[31:16] + m[31:16] + {15'd0, c}, lo[15:0]};
  endfunction
  assign prod_ok = (m_q == 4'd11);
  assign s_th = add_halves(p_th_q, m_th_q[0] ? m_rs_q : 32'd0, p_c_q[0]);
  assign s_nk = add_halves(p_nk_q, m_nk_q[0] ? m_chs_q : 32'd0, p_c_q[1]);
  assign s_cg = add_halves(p_cg_q, m_cg_q[0] ? m_chs_q : 32'd0, p_c_q[2]);
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      m_q <= 4'd11;
      {p_th_q, p_nk_q, p_cg_q, p_c_q} <= '0;
      {m_rs_q, m_chs_q, m_th_q, m_nk_q, m_cg_q} <= '0;
    end else if (start_i && w_q == WIdle) begin
      m_q <= 4'd0;
      {p_th_q, p_nk_q, p_cg_q, p_c_q} <= '0;
      m_rs_q  <= cfg_i.yrs.stride;
      m_chs_q <= int4 ? {cfg_i.ychs.stride[29:0], 2'b00} : cfg_i.ychs.stride;  // int4: 4 images
      m_th_q  <= cfg_i.tile.tile_h;
      m_nk_q  <= cfg_i.pass.nk_full;
      m_cg_q  <= cfg_i.cgout.cgout;
    end else if (!prod_ok) begin
      m_q <= m_q + 4'd1;
      {p_c_q[0], p_th_q} <= s_th;
      {p_c_q[1], p_nk_q} <= s_nk;
      {p_c_q[2], p_cg_q} <= s_cg;
      m_rs_q  <= m_rs_q << 1;
      m_chs_q <= m_chs_q << 1;
      m_th_q  <= m_th_q >> 1;
      m_nk_q  <= m_nk_q >> 1;
      m_cg_q  <= m_cg_q >> 1;
    end
  end

  // the beat: elements erow + be .. of the vector (zeros past its end)
  localparam int unsigned ShW = (NumLanes * 16 > OutBytes * 16) ? NumLanes * 16 : OutBytes * 16;
  logic [ShW-1:0] sh;
  logic [8:0]  e0_q, left;            // e0_q = erow_q + be_q, a register: the select's shift
  logic [EpbW-1:0] nel;
  logic        last_beat_row, last_row;
  assign sh = ShW'(v_q) >> (16 * e0_q);
  assign left = tow_q - be_q;
  assign nel = (left < 9'(epb)) ? EpbW'(left) : epb;
  assign last_beat_row = left <= 9'(epb);
  assign last_row = r_q == toh_q - 9'd1;
  always_comb begin
    wr_data_o = '0;
    wr_strb_o = '0;
    for (int i = 0; i < OutBytes; i++) begin
      if (cfg_i.layer.out8) begin
        wr_data_o[8*i +: 8] = sh[16*i +: 8];
        wr_strb_o[i] = 32'(i) < 32'(nel);
      end else begin
        wr_data_o[8*i +: 8] = sh[16*(i/2) + 8*(i%2) +: 8];
        wr_strb_o[i] = 32'(i/2) < 32'(nel);
      end
    end
  end
  assign wr_valid_o = w_q == WBeats;
  assign wr_addr_o  = a_q;
  assign pp_ready   = (w_q == WTake) && prod_ok;

  logic wr_fire;
  assign wr_fire = wr_valid_o && wr_ready_i;

  // the vector is done (written, or the padding kernel's dropped): the next vector's place
  logic adv;
  assign adv = ((w_q == WTake) && pp_valid && prod_ok && !write_k) ||
               ((w_q == WBeats) && wr_fire && last_beat_row && last_row);
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      w_q <= WIdle;
      v_q <= '0;
      {k_q, p_q, pg_q, ty_q, tx_q, gbase_q, cbase_q, oy0_q, ox0_q} <= '0;
      {r_q, toh_q, tow_q, be_q, erow_q, e0_q, arow_q, a_q} <= '0;
      {ch_q, ch0_q, g0_q, row_q, rowx_q} <= '0;
      pg_last_q <= 1'b0;
      done_o <= 1'b0;
    end else begin
      done_o <= 1'b0;
      unique case (w_q)
        WIdle: begin
          if (start_i) begin
            {k_q, p_q, pg_q, ty_q, tx_q, gbase_q, cbase_q, oy0_q, ox0_q} <= '0;
            ch_q  <= cfg_i.ybase.base;
            ch0_q <= cfg_i.ybase.base;
            g0_q  <= cfg_i.ybase.base;
            row_q <= '0;
            rowx_q <= '0;
            pg_last_q <= cfg_i.pass.ppg == 10'd1;
            w_q <= WTake;
          end
        end
        WTake: begin
          if (pp_valid && prod_ok) begin
            v_q    <= pp_data;
            arow_q <= a0;
            a_q    <= a0;
            toh_q  <= toh;
            tow_q  <= tow;
            r_q    <= '0;
            be_q   <= '0;
            erow_q <= '0;
            e0_q   <= '0;
            if (write_k) w_q <= WBeats;
          end
        end
        WBeats: begin
          if (wr_fire) begin
            if (!last_beat_row) begin
              be_q <= be_q + 9'(epb);
              e0_q <= e0_q + 9'(epb);
              a_q  <= a_q + 32'(OutBytes);
            end else if (!last_row) begin
              be_q   <= '0;
              r_q    <= r_q + 9'd1;
              erow_q <= erow_q + cfg_i.tile.tile_w;
              e0_q   <= erow_q + cfg_i.tile.tile_w;
              arow_q <= arow_q + cfg_i.yrs.stride;
              a_q    <= arow_q + cfg_i.yrs.stride;
            end
          end
        end
        default: w_q <= WIdle;
      endcase
      if (adv) begin
        w_q  <= WTake;
        k_q  <= k_q + 6'd1;
        ch_q <= ch_q + cfg_i.ychs.stride;
        if (k_last) begin
          k_q  <= '0;
          ch_q <= ch0_q;
          if (!tx_last) begin
            tx_q   <= tx_q + 10'd1;
            ox0_q  <= ox0_q + 12'(cfg_i.tile.tile_w);
            rowx_q <= rowx_q + 32'(ox_step_q);
          end else begin
            tx_q  <= '0;
            ox0_q <= '0;
            if (!ty_last) begin
              ty_q   <= ty_q + 10'd1;
              oy0_q  <= oy0_q + 12'(cfg_i.tile.tile_h);
              row_q  <= row_next;
              rowx_q <= row_next;
            end else begin
              ty_q   <= '0;
              oy0_q  <= '0;
              row_q  <= '0;
              rowx_q <= '0;
              p_q    <= p_q + 10'd1;
              pg_last_q <= pg_last ? (ppg_m1_q == 10'd0) : (pg_q + 10'd1 == ppg_m1_q);
              if (!pg_last) begin
                pg_q    <= pg_q + 10'd1;
                cbase_q <= cbase_q + 10'(cfg_i.pass.nk_full);
                ch0_q   <= ch0_q + p_nk_q;
                ch_q    <= ch0_q + p_nk_q;
              end else begin
                pg_q    <= '0;
                gbase_q <= gbase_q + cfg_i.cgout.cgout;
                cbase_q <= gbase_q + cfg_i.cgout.cgout;
                g0_q    <= g0_q + p_cg_q;
                ch0_q   <= g0_q + p_cg_q;
                ch_q    <= g0_q + p_cg_q;
              end
              if (p_last) begin
                w_q    <= WIdle;
                done_o <= 1'b1;
              end
            end
          end
        end
      end
    end
  end

  assign busy_o = w_q != WIdle;

  // cfg_i: the input side's registers (the loader's, the kernel reader's) are another block's
  logic unused;
  assign unused = ^{q_count, cfg_i.in, cfg_i.win, cfg_i.patch, cfg_i.xbase, cfg_i.xchs, cfg_i.xrs,
                    cfg_i.kbase};

`ifndef SYNTHESIS
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (rst_ni) begin
      if (res_valid_i) assert (w_q != WIdle);
      if (r_valid) assert (r_count != '0);
      if (start_i) assert (w_q == WIdle);
      if (start_i) assert (NumLanes % PpLanes == 0 && (Chunks == 1 || Chunks % 2 == 0));
      if (start_i && cfg_i.layer.four_kernel)
        assert (NumLanes % 4 == 0 && (Chunks == 1 || Chunks % 4 == 0));
      if (start_i) assert (!(cfg_i.layer.two_kernel && cfg_i.layer.four_kernel));
      // int4: two kernels a pass (slot bases 0 and 4), broadcast mapping
      if (start_i && int4) assert (!cfg_i.layer.two_kernel && !cfg_i.layer.four_kernel &&
                                   cfg_i.pass.nk_full <= 6'd2 && cfg_i.pass.nk_last <= 6'd2);
      if (start_i && int4) assert (img_q == 2'd0);
    end
  end
`endif

endmodule

`default_nettype wire
