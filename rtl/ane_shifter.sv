// SPDX-License-Identifier: Apache-2.0
// ane_shifter: the input buffer and shifter of the neural-engine core (ARCHITECTURE: input
// buffer + shifter; NUMERICS N-2 order; docs/shifter.md).
//
// Input buffer: a ring of NumBanks banks of BankBytes bytes, loaded through a valid/ready port
// of BeatBytes bytes per beat. A work unit (its data and its halo) fills one bank or several
// consecutive ones (up to NumBanks); the next work units load into the free banks after it
// while it is read (two banks: double buffering). A request reads one bank: bank
// (c * ch_stride) / BankBytes of its work unit, so a work unit of several banks holds one
// channel per bank (ch_stride = one bank) and a step's lanes all read that bank.
//
// Shifter: for each request (c, ky, kx) of the current work unit it delivers one lane vector:
// data value p (p < NumLanes, or NumLanes / 2 in the fp16 two-kernel mode) is the input element
// that tile position p = (oy, ox) = (p / tile_w, p % tile_w) multiplies at that kernel step,
//   y = oy*sy + ky*dy + off_y,   x = ox*sx + kx*dx + off_x     (work-unit patch coordinates)
//   element address = c*ch_stride + y*row_stride + x*col_stride
// or 0 when (y, x) falls outside the patch's valid rows and columns (zero padding at the edges
// of the tensor) or the position is outside the work unit's outputs (oh x ow). Strides in
// elements make any layout: planar (col 1, row PW, channel PH*PW) or channel-interleaved
// (col C, row PW*C, channel 1). One request per cycle, latency 4, valid/ready; the pipeline
// advances as a whole and stalls only while a vector waits at the output.
//
// Configuration (written while busy_o is low; a write to PREP builds the lane table, NumLanes
// cycles with busy_o high, and must follow any change of GEOM or STRIDE): the SHIFTER window's
// registers GEOM (strides, dilations, element size, two-kernel, tile_w x tile_h <= positions),
// STRIDE and CHSTR (the bank image's strides, in elements) and PREP, each read as its
// ane_regs_pkg::shifter_<reg>_t (rtl/regs/ane_regs.yaml; the table: docs/shifter.md).
// Work-unit descriptor (ane_pkg::wu_desc_t), sampled with the first beat of a load (ld_desc_i):
//   ph, pw         valid patch rows / columns (rows and columns past them read 0)
//   off_y, off_x   (signed) patch coordinates of tile position (0, 0) at ky = kx = 0
//   oh, ow         the work unit's outputs: positions with oy >= oh or ox >= ow are idle
// A request with rq_release_i is the work unit's last: after it the next work unit's banks
// become current, and its own banks load again once the request has read them. rq_nodata_i
// makes a request that delivers no vector (it releases a work unit whose every step was
// skipped).
`default_nettype none

module ane_shifter #(
  parameter int unsigned NumLanes  = 256,
  parameter int unsigned BankBytes = 512,
  parameter int unsigned NumBanks  = 2,    // a power of two
  parameter int unsigned BeatBytes = 16,
  parameter int unsigned TagBits   = 8
) (
  input  wire logic                     clk_i,
  input  wire logic                     rst_ni,
  // configuration
  input  wire logic                     cfg_we_i,
  input  wire logic [1:0]               cfg_addr_i,
  input  wire logic [31:0]              cfg_wdata_i,
  output      logic                     busy_o,
  // work-unit load port
  input  wire logic                     ld_valid_i,
  output      logic                     ld_ready_o,
  input  wire logic [BeatBytes*8-1:0]   ld_data_i,
  input  wire logic                     ld_last_i,
  input  wire ane_pkg::wu_desc_t        ld_desc_i,
  // step requests
  input  wire logic                     rq_valid_i,
  output      logic                     rq_ready_o,
  input  wire logic [9:0]               rq_c_i,
  input  wire logic [2:0]               rq_ky_i,
  input  wire logic [2:0]               rq_kx_i,
  input  wire logic                     rq_release_i,
  input  wire logic                     rq_nodata_i,
  input  wire logic [TagBits-1:0]       rq_tag_i,
  // lane vectors
  output      logic                     out_valid_o,
  input  wire logic                     out_ready_i,
  output      logic [NumLanes*16-1:0]   out_data_o,
  output      logic [NumLanes-1:0]      out_mask_o,   // lanes whose position is a real output
  output      logic [TagBits-1:0]       out_tag_o
);

  localparam int unsigned BankBeats = BankBytes / BeatBytes;
  localparam int unsigned BeatAw    = $clog2(BankBeats);
  localparam int unsigned OffAw     = $clog2(BeatBytes);
  localparam int unsigned ByteAw    = $clog2(BankBytes);  // byte address within a bank
  localparam int unsigned LcntW     = $clog2(NumLanes + 1);
  localparam int unsigned BkW       = $clog2(NumBanks);
  localparam int unsigned BeatBits  = BeatBytes * 8;

  // ---------------- configuration ----------------
  logic [2:0]  sy_q, sx_q, dy_q, dx_q;
  logic        elem16_q, two_kernel_q;
  logic [8:0]  tile_w_q, tile_h_q;
  logic [11:0] row_stride_q, col_stride_q, ch_stride_q;

  // The written word as each register's fields (rtl/regs/ane_regs.yaml, SHIFTER window).
  ane_regs_pkg::shifter_geom_t   cfg_geom;
  ane_regs_pkg::shifter_stride_t cfg_stride;
  ane_regs_pkg::shifter_chstr_t  cfg_chstr;
  logic                          prep;
  assign cfg_geom   = cfg_wdata_i[ane_regs_pkg::ShifterGeomBits-1:0];
  assign cfg_stride = cfg_wdata_i[ane_regs_pkg::ShifterStrideBits-1:0];
  assign cfg_chstr  = cfg_wdata_i[ane_regs_pkg::ShifterChstrBits-1:0];
  assign prep       = cfg_we_i && cfg_addr_i == 2'(ane_regs_pkg::ShifterPrepAddr);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      sy_q <= 3'd1;
      sx_q <= 3'd1;
      dy_q <= 3'd1;
      dx_q <= 3'd1;
      elem16_q     <= 1'b1;
      two_kernel_q <= 1'b0;
      tile_w_q     <= 9'd1;
      tile_h_q     <= 9'd1;
      row_stride_q <= '0;
      col_stride_q <= '0;
      ch_stride_q  <= '0;
    end else if (cfg_we_i) begin
      unique case (cfg_addr_i)
        2'(ane_regs_pkg::ShifterGeomAddr): begin
          sy_q <= cfg_geom.sy;
          sx_q <= cfg_geom.sx;
          dy_q <= cfg_geom.dy;
          dx_q <= cfg_geom.dx;
          elem16_q     <= cfg_geom.elem16;
          two_kernel_q <= cfg_geom.two_kernel;
          tile_w_q     <= cfg_geom.tile_w;
          tile_h_q     <= cfg_geom.tile_h;
        end
        2'(ane_regs_pkg::ShifterStrideAddr): begin
          row_stride_q <= cfg_stride.row;
          col_stride_q <= cfg_stride.col;
        end
        2'(ane_regs_pkg::ShifterChstrAddr): ch_stride_q <= cfg_chstr.ch;
        default: ;
      endcase
    end
  end

  // ---------------- lane table ----------------
  // Entry p: position valid, oy, ox, oy*sy, ox*sx, and the low address bits of
  // oy*sy*row_stride + ox*sx*col_stride. Built one entry per cycle into a shift register (the
  // entry made first ends at index 0).
  localparam int unsigned EntryW = 1 + 8 + 8 + 10 + 10 + 16;
  logic [NumLanes*EntryW-1:0] table_q;
  logic             build_q;
  logic [LcntW-1:0] bcnt_q;
  logic [7:0]       boy_q, box_q;
  logic [9:0]       brow_q, bcol_q;
  logic [15:0]      brow_addr_q, bcol_addr_q;
  logic [LcntW-1:0] positions;
  logic             bvalid;
  logic [EntryW-1:0] bentry;

  assign positions = two_kernel_q ? LcntW'(NumLanes / 2) : LcntW'(NumLanes);
  assign bvalid    = ({1'b0, boy_q} < tile_h_q) && (bcnt_q < positions);
  assign bentry    = {bvalid, boy_q, box_q, brow_q, bcol_q, brow_addr_q + bcol_addr_q};

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      build_q <= 1'b0;
      bcnt_q  <= '0;
    end else if (prep) begin
      build_q <= 1'b1;
      bcnt_q  <= '0;
    end else if (build_q) begin
      bcnt_q  <= bcnt_q + 1'b1;
      build_q <= bcnt_q != LcntW'(NumLanes - 1);
    end
  end

  always_ff @(posedge clk_i) begin
    if (prep) begin
      boy_q <= '0;
      box_q <= '0;
      brow_q <= '0;
      bcol_q <= '0;
      brow_addr_q <= '0;
      bcol_addr_q <= '0;
    end else if (build_q) begin
      table_q <= {bentry, table_q[NumLanes*EntryW-1:EntryW]};
      if ({1'b0, box_q} + 9'd1 == tile_w_q) begin
        box_q       <= '0;
        bcol_q      <= '0;
        bcol_addr_q <= '0;
        boy_q       <= boy_q + 8'd1;
        brow_q      <= brow_q + {7'd0, sy_q};
        brow_addr_q <= brow_addr_q + 16'({13'd0, sy_q} * {4'd0, row_stride_q});
      end else begin
        box_q       <= box_q + 8'd1;
        bcol_q      <= bcol_q + {7'd0, sx_q};
        bcol_addr_q <= bcol_addr_q + 16'({13'd0, sx_q} * {4'd0, col_stride_q});
      end
    end
  end

  // ---------------- input buffer: a ring of banks ----------------
  logic [BeatBits-1:0] mem_q [NumBanks*BankBeats];
  // Per work unit, kept at its first (head) bank b: the descriptor fields (at [b*W +: W]) and
  // its bank count less one.
  logic [NumBanks*10-1:0]  bank_ph, bank_pw;
  logic [NumBanks*12-1:0]  bank_off_y, bank_off_x;
  logic [NumBanks*9-1:0]   bank_oh, bank_ow;
  logic [NumBanks*BkW-1:0] bank_nb;
  logic [NumBanks-1:0] used_q;   // the bank holds (part of) a work unit not yet released
  logic [NumBanks-1:0] full_q;   // head banks: the work unit is loaded
  logic [NumBanks-1:0] rel_q;    // head banks: its last request is in the pipeline, still reading
  logic [BkW-1:0]      ld_bank_q, ld_head_q;
  logic [BeatAw-1:0]   ld_beat_q;
  logic                ld_take;

  // a bank is checked as its first beat comes: it is marked used from then on
  assign ld_ready_o = (ld_beat_q != '0) || !used_q[ld_bank_q];
  assign ld_take    = ld_valid_i && ld_ready_o;

  always_ff @(posedge clk_i) begin
    if (ld_take) begin
      mem_q[{ld_bank_q, ld_beat_q}] <= ld_data_i;
      if (ld_beat_q == '0 && ld_bank_q == ld_head_q) begin
        bank_ph[ld_head_q*10 +: 10]    <= ld_desc_i.ph;
        bank_pw[ld_head_q*10 +: 10]    <= ld_desc_i.pw;
        bank_off_y[ld_head_q*12 +: 12] <= ld_desc_i.off_y;
        bank_off_x[ld_head_q*12 +: 12] <= ld_desc_i.off_x;
        bank_oh[ld_head_q*9 +: 9]      <= ld_desc_i.oh;
        bank_ow[ld_head_q*9 +: 9]      <= ld_desc_i.ow;
      end
      if (ld_last_i) bank_nb[ld_head_q*BkW +: BkW] <= ld_bank_q - ld_head_q;
    end
  end

  // ---------------- request pipeline: A (request), B (step terms), C (lane addresses), D (out)
  logic en, rq_take, release_done;
  logic [BkW-1:0] rd_bank_q;   // the head bank of the work unit that requests read
  logic va_q, vb_q, vc_q, vd_q;

  assign en         = !vd_q || out_ready_i;
  // A bank serves requests from its last beat until its releasing request is accepted: a bank
  // whose release is still in the pipeline holds the old work unit, not the next one.
  assign rq_ready_o = en && full_q[rd_bank_q] && !rel_q[rd_bank_q] && !build_q;
  assign rq_take    = rq_valid_i && rq_ready_o;
  assign busy_o     = build_q || va_q || vb_q || vc_q || vd_q || rq_valid_i;

  // Stage A: the request, with the step's patch offsets (its bank's origin plus the tap's
  // dilated offset) and its channel's address term, formed as it is taken: the bank's
  // descriptor cannot change while the bank serves requests (it is rewritten only after the
  // bank's releasing request has left the pipeline).
  logic [BkW-1:0]    a_bank_q;
  logic              a_release_q, a_nodata_q;
  logic [13:0]       a_ry_q, a_rx_q;
  logic [15:0]       a_cterm_q;
  logic [TagBits-1:0] a_tag_q;
  logic [11:0]       rq_off_y, rq_off_x;
  assign rq_off_y = bank_off_y[rd_bank_q*12 +: 12];
  assign rq_off_x = bank_off_x[rd_bank_q*12 +: 12];
  always_ff @(posedge clk_i) begin
    if (en) begin
      a_bank_q    <= rd_bank_q;
      a_release_q <= rq_release_i;
      a_nodata_q  <= rq_nodata_i;
      a_ry_q      <= {8'd0, {3'd0, rq_ky_i} * {3'd0, dy_q}} + {{2{rq_off_y[11]}}, rq_off_y};
      a_rx_q      <= {8'd0, {3'd0, rq_kx_i} * {3'd0, dx_q}} + {{2{rq_off_x[11]}}, rq_off_x};
      a_cterm_q   <= 16'({6'd0, rq_c_i} * {4'd0, ch_stride_q});
      a_tag_q     <= rq_tag_i;
    end
  end

  // Stage A -> B: the step's address, modulo 2^16 (a lane inside the patch has a true address
  // inside its bank, so the low bits are exact), and the bank the step reads: its channel
  // term's bank within the work unit.
  logic [15:0] a_step_addr;
  logic [16-ByteAw:0] a_crel;   // (c * ch_stride in bytes) / BankBytes
  always_comb begin
    a_step_addr = a_cterm_q +
                  16'({{2{a_ry_q[13]}}, a_ry_q} * {4'd0, row_stride_q}) +
                  16'({{2{a_rx_q[13]}}, a_rx_q} * {4'd0, col_stride_q});
    a_crel      = elem16_q ? a_cterm_q[15:ByteAw-1] : {1'b0, a_cterm_q[15:ByteAw]};
  end

  logic [BkW-1:0]    b_bank_q, b_gbank_q;
  logic [16-ByteAw:0] b_crel_q;  // the channel term's bank within the work unit
  logic              b_release_q, b_nodata_q;
  logic [13:0]       b_ry_q, b_rx_q;
  logic [15:0]       b_step_addr_q;
  logic [TagBits-1:0] b_tag_q;
  always_ff @(posedge clk_i) begin
    if (en) begin
      b_bank_q      <= a_bank_q;
      b_gbank_q     <= a_bank_q + a_crel[BkW-1:0];
      b_crel_q      <= a_crel;
      b_release_q   <= a_release_q;
      b_nodata_q    <= a_nodata_q;
      b_ry_q        <= a_ry_q;
      b_rx_q        <= a_rx_q;
      b_step_addr_q <= a_step_addr;
      b_tag_q       <= a_tag_q;
    end
  end

  // Stage B -> C: per lane, inside the patch? and the element's byte address.
  logic [9:0] b_ph, b_pw;
  logic [8:0] b_oh, b_ow;
  assign b_ph = bank_ph[b_bank_q*10 +: 10];
  assign b_pw = bank_pw[b_bank_q*10 +: 10];
  assign b_oh = bank_oh[b_bank_q*9 +: 9];
  assign b_ow = bank_ow[b_bank_q*9 +: 9];
  logic [NumLanes-1:0]        c_in_q, c_act_q;
  logic [NumLanes*ByteAw-1:0] c_addr_q;
  logic [BkW-1:0]    c_bank_q, c_gbank_q;
  logic              c_release_q, c_nodata_q;
  logic [TagBits-1:0] c_tag_q;

  for (genvar p = 0; p < NumLanes; p++) begin : g_lane
    logic [EntryW-1:0] e;
    logic        pos_ok, act, inb;
    logic [7:0]  oy, ox;
    logic [13:0] y, x;
    logic [15:0] eaddr;
    logic [ByteAw-1:0] baddr;
    always_comb begin
      e      = table_q[p*EntryW +: EntryW];
      pos_ok = e[EntryW-1];
      oy     = e[EntryW-2 -: 8];
      ox     = e[EntryW-10 -: 8];
      y      = {4'd0, e[35:26]} + b_ry_q;
      x      = {4'd0, e[25:16]} + b_rx_q;
      act    = pos_ok && ({1'b0, oy} < b_oh) && ({1'b0, ox} < b_ow);
      inb    = act && !y[13] && (y[12:0] < {3'd0, b_ph}) &&
               !x[13] && (x[12:0] < {3'd0, b_pw});
      eaddr  = e[15:0] + b_step_addr_q;
      baddr  = elem16_q ? {eaddr[ByteAw-2:0], 1'b0} : eaddr[ByteAw-1:0];
    end
    always_ff @(posedge clk_i) begin
      if (en) begin
        c_act_q[p] <= act;
        c_in_q[p]  <= inb;
        c_addr_q[p*ByteAw +: ByteAw] <= baddr;
      end
    end
`ifndef SYNTHESIS
    // A lane inside the patch reads inside the step's bank (the bank of its channel term), but
    // for a no-data request (no vector; its channel is past the slice it releases). Out of reset
    // only: at the first edges of the power-up reset vb_q and the lane table hold X-seeded values.
    logic [16-ByteAw:0] erel;
    assign erel = elem16_q ? eaddr[15:ByteAw-1] : {1'b0, eaddr[15:ByteAw]};
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (rst_ni) begin
        if (en && vb_q && inb && !b_nodata_q) assert (erel == b_crel_q);
      end
    end
`endif
  end

  always_ff @(posedge clk_i) begin
    if (en) begin
      c_bank_q    <= b_bank_q;
      c_gbank_q   <= b_gbank_q;
      c_release_q <= b_release_q;
      c_nodata_q  <= b_nodata_q;
      c_tag_q     <= b_tag_q;
    end
  end

  // Stage C -> D: the gather: the step's bank, selected once for all lanes, then each lane's
  // element of it.
  logic [BankBytes*8-1:0] gbank;
  for (genvar k = 0; k < BankBeats; k++) begin : g_gbank
    assign gbank[k*BeatBits +: BeatBits] = mem_q[{c_gbank_q, BeatAw'(k)}];
  end
  for (genvar p = 0; p < NumLanes; p++) begin : g_gather
    logic [BeatBits-1:0]    beat;
    logic [ByteAw-1:0]      a;
    logic [15:0]            v;
    always_comb begin
      a    = c_addr_q[p*ByteAw +: ByteAw];
      beat = gbank[a[ByteAw-1:OffAw]*BeatBits +: BeatBits];
      if (!c_in_q[p]) begin
        v = 16'h0000;
      end else if (elem16_q) begin
        // Even byte offset by construction: no select past the beat, so no X (a reconfigured
        // element size cannot reach a half-element).
        v = beat[{a[OffAw-1:1], 4'd0} +: 16];
      end else begin
        v = {{8{beat[{a[OffAw-1:0], 3'd0} + 7]}}, beat[{a[OffAw-1:0], 3'd0} +: 8]};
      end
    end
    always_ff @(posedge clk_i) begin
      if (en) out_data_o[p*16 +: 16] <= v;
    end
  end

  always_ff @(posedge clk_i) begin
    if (en) begin
      out_mask_o <= c_act_q;
      out_tag_o  <= c_tag_q;
    end
  end
  assign out_valid_o = vd_q;

  // ---------------- valid bits, banks ----------------
  assign release_done = en && vc_q && c_release_q;

  // The banks of the work unit whose head is bank h: h .. h + its bank count less one.
  function automatic logic in_wu(input logic [BkW-1:0] b, input logic [BkW-1:0] h,
                                 input logic [BkW-1:0] nb);
    in_wu = BkW'(b - h) <= nb;
  endfunction

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      va_q <= 1'b0;
      vb_q <= 1'b0;
      vc_q <= 1'b0;
      vd_q <= 1'b0;
      rd_bank_q <= '0;
      ld_bank_q <= '0;
      ld_head_q <= '0;
      ld_beat_q <= '0;
      used_q    <= '0;
      full_q    <= '0;
      rel_q     <= '0;
    end else begin
      if (en) begin
        va_q <= rq_take;
        vb_q <= va_q;
        vc_q <= vb_q;
        vd_q <= vc_q && !c_nodata_q;
      end
      if (rq_take && rq_release_i) rd_bank_q <= rd_bank_q + bank_nb[rd_bank_q*BkW +: BkW] + 1'b1;
      if (ld_take) begin
        if (ld_last_i) begin
          ld_beat_q <= '0;
          ld_bank_q <= ld_bank_q + 1'b1;
          ld_head_q <= ld_bank_q + 1'b1;
        end else if (ld_beat_q == BeatAw'(BankBeats - 1)) begin
          ld_beat_q <= '0;
          ld_bank_q <= ld_bank_q + 1'b1;
        end else begin
          ld_beat_q <= ld_beat_q + 1'b1;
        end
      end
      for (int b = 0; b < NumBanks; b++) begin
        if (ld_take && ld_bank_q == BkW'(b)) used_q[b] <= 1'b1;
        else if (release_done && in_wu(BkW'(b), c_bank_q, bank_nb[c_bank_q*BkW +: BkW])) used_q[b] <= 1'b0;
        if (ld_take && ld_last_i && ld_head_q == BkW'(b)) full_q[b] <= 1'b1;
        else if (release_done && c_bank_q == BkW'(b)) full_q[b] <= 1'b0;
        if (rq_take && rq_release_i && rd_bank_q == BkW'(b)) rel_q[b] <= 1'b1;
        else if (release_done && c_bank_q == BkW'(b)) rel_q[b] <= 1'b0;
      end
    end
  end

`ifndef SYNTHESIS
  // Protocol and parameter checks.
  initial begin
    assert (BankBytes % BeatBytes == 0);
    assert (BankBeats >= 2 && (1 << BeatAw) == BankBeats);
    assert (NumLanes >= 2 && NumLanes <= 256);
    assert (NumBanks >= 2 && (1 << BkW) == NumBanks && ByteAw + BkW <= 17);
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
    end else begin
      if (cfg_we_i) assert (!busy_o);
      // a work unit fits the ring: it does not reach its own head bank again
      if (ld_take && !ld_last_i && ld_beat_q == BeatAw'(BankBeats - 1)) assert (BkW'(ld_bank_q + 1'b1) != ld_head_q);
      // a step reads a bank of its own work unit
      if (en && vb_q && !b_nodata_q) assert (b_crel_q <= (17 - ByteAw)'(bank_nb[b_bank_q*BkW +: BkW]));
      if (build_q) assert ({9'd0, tile_w_q} * {9'd0, tile_h_q} <= 18'(positions) && tile_w_q != 0);
    end
  end
`endif

endmodule
