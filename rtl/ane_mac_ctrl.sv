// ane_mac_ctrl: the control unit of the MAC pipeline (NUMERICS N-2.4 to N-2.9, N-7.1). One
// control unit drives one lane datapath (ane_mac_lane) or all the lanes of an array
// (ane_mac_array): every lane sees the same operation stream, so the slot bookkeeping, the
// hazard check and the stage valid bits exist once.
//
// It accepts the operation stream, keeps the per-slot quad bookkeeping (products in the pending
// quad, products seen, continuation, "the quad starts a reduction", "holds a value"), carries
// each operation down the pipeline registers 1..9 (docs/mac_lane.md) and tells the datapaths,
// per stage, what to do (ane_pkg::mac_ctl_t).
//
// Hazards (docs/mac_lane.md, "Timing"). The datapath reads a slot's fp pending quad in L1 and
// writes it in L5 (the read takes the value being written in the same cycle); it reads the
// slot's accumulator for an fp or compare operation in L5 and writes it in L9. So an operation
// waits in register 0 while an older operation on one of its slots that writes what it reads is
// in registers 1..3 (the pending quad) or 1..4 (the accumulator). Integer operations read and
// write their pending quads in L2 and their accumulators in L3: they wait for older fp / compare
// accumulator writes (registers 1..6) and fp quad writes (1..3), and for an older integer result
// on their slots in register 1 (a result is read back from the accumulator in L5). CmdLoad and
// CmdClear execute in L0 and wait until no older operation on their slot is left in registers
// 1..9. Everything else (one slot after another, the mappings of the array and the core) streams
// at one operation per cycle.
// Results leave through a two-entry queue (a skid buffer); the pipeline stops (en_o = 0) only
// while the queue is full, so the result port's ready drives no pipeline enable.
`default_nettype none

module ane_mac_ctrl (
  input  wire logic               clk_i,
  input  wire logic               rst_ni,
  // operation stream
  input  wire logic               in_valid_i,
  output      logic               in_ready_o,
  input  wire ane_pkg::mac_cmd_e  in_cmd_i,
  input  wire ane_pkg::mac_mode_e in_mode_i,
  input  wire logic [2:0]         in_slot_i,
  input  wire logic               in_first_i,
  input  wire logic               in_last_i,
  // result stream
  output      logic               out_valid_o,
  input  wire logic               out_ready_i,
  output      logic [2:0]         out_slot_o,
  // read port
  input  wire logic               rd_en_i,
  output      logic               rd_valid_o,
  // to the datapaths
  output      logic               en_o,
  output      ane_pkg::mac_ctl_t  ctl_o,
  output      ane_pkg::mac_oq_t   oq_o
);

  localparam int unsigned NumSlots = 8;

  // One operation as it travels down registers 1..12 (only CmdMac operations travel).
  typedef struct packed {
    logic       v;        // a valid operation
    logic       fp;       // fp16, int8 x fp16 or fp16 x int8
    logic       i8;       // int8 x int8
    logic       i4;       // int4 packed
    logic       cmp;      // compare max / min
    logic       mx;       // compare max
    logic [2:0] slot;
    logic       last;     // the reduction ends: a result leaves
    logic       pass;     // fp: the product starts its quad
    logic       pad;      // fp: the final quad is incomplete, pad with +0
    logic       ceiling;  // fp: N-2.6 ceiling applies (K >= 2 or a continuation)
    logic       hv;       // compare: the slot holds a value
    logic [3:0] done;     // per slot slot + i: the quad completes (fp, integer)
    logic [3:0] b0;       // per slot slot + i: the product starts a quad
    logic [3:0] qclr;     // per slot slot + i: the quad starts a reduction (acc := +0 first);
                          // compare: first
    logic [3:0] fh;       // per slot slot + i: first with the quad pending (acc := +0 now)
  } op_t;

  // The pipeline advances while the two-entry output queue has room: the result port's ready
  // reaches only the queue, never the pipeline's enables (a skid buffer).
  logic       en;
  logic [1:0] ocount_q;   // results in the output queue: 0, 1, 2
  logic [2:0] ohead_q, oskid_q;  // their slots
  logic       opush, opop;
  assign en   = ocount_q != 2'd2;
  assign en_o = en;

  // ------------------------------------------------------------------ register 0
  logic               s0_valid_q, s0_first_q, s0_last_q;
  ane_pkg::mac_cmd_e  s0_cmd_q;
  ane_pkg::mac_mode_e s0_mode_q;
  logic [2:0]         s0_slot_q;
  logic               hazard, s0_go, in_fire;

  assign s0_go      = s0_valid_q && !hazard;
  assign in_ready_o = en && (!s0_valid_q || !hazard);
  assign in_fire    = in_valid_i && in_ready_o;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      s0_valid_q <= 1'b0;
    end else if (en) begin
      s0_valid_q <= in_fire || (s0_valid_q && hazard);
    end
  end
  always_ff @(posedge clk_i) begin
    if (in_fire) begin
      s0_cmd_q   <= in_cmd_i;
      s0_mode_q  <= in_mode_i;
      s0_slot_q  <= in_slot_i;
      s0_first_q <= in_first_i;
      s0_last_q  <= in_last_i;
    end
  end

  // ------------------------------------------------------------------ slot bookkeeping (L0)
  logic [NumSlots*2-1:0] pos_q, cnt_q;         // products in the pending quad; seen: 0, 1, 2+
  logic [NumSlots-1:0]   cont_q, clr_q, hv_q;  // continuation; quad starts a reduction; value
  logic [NumSlots*2-1:0] pos_d, cnt_d;
  logic [NumSlots-1:0]   cont_d, clr_d, hv_d;

  logic s0_mac, s0_fp, s0_i8, s0_i4, s0_cmp, s0_int, adv0;
  always_comb begin
    s0_mac = s0_cmd_q == ane_pkg::CmdMac;
    s0_i8  = s0_mac && (s0_mode_q == ane_pkg::ModeInt8);
    s0_i4  = s0_mac && (s0_mode_q == ane_pkg::ModeInt4);
    s0_cmp = s0_mac && ((s0_mode_q == ane_pkg::ModeCmpMax) || (s0_mode_q == ane_pkg::ModeCmpMin));
    s0_fp  = s0_mac && !s0_i8 && !s0_i4 && !s0_cmp;
    s0_int = s0_i8 || s0_i4;
    adv0   = en && s0_go;  // the operation in register 0 executes L0 now
  end

  // Per slot j, with first applied: position, count, continuation, clear, done, first-hit.
  logic [NumSlots-1:0] hit, bp0, done, qclr, fh, bcont, cnt2;
  logic [NumSlots-1:0] m0;  // the slots of the operation in register 0

  for (genvar j = 0; j < NumSlots; j++) begin : g_slot
    logic [3:0] rel;
    logic [1:0] pos_j, cnt_j, bpos, bcnt, ncnt;
    always_comb begin
      rel      = 4'(j) - {1'b0, s0_slot_q};
      m0[j]    = s0_i4 ? (rel < 4'd4) : (rel == 4'd0);
      hit[j]   = s0_mac && m0[j];
      pos_j    = pos_q[2*j +: 2];
      cnt_j    = cnt_q[2*j +: 2];
      bpos     = s0_first_q ? 2'd0 : pos_j;
      bcnt     = s0_first_q ? 2'd0 : cnt_j;
      bcont[j] = !s0_first_q && cont_q[j];
      ncnt     = (bcnt == 2'd2) ? 2'd2 : bcnt + 2'd1;
      cnt2[j]  = ncnt == 2'd2;
      bp0[j]   = bpos == 2'd0;
      done[j]  = s0_last_q || (bpos == 2'd3);
      qclr[j]  = s0_first_q || ((pos_j != 2'd0) && clr_q[j]);
      fh[j]    = s0_first_q && !done[j];
    end

    // The slot's next state when the operation in register 0 executes L0.
    always_comb begin
      pos_d[2*j +: 2] = pos_j;
      cnt_d[2*j +: 2] = cnt_j;
      cont_d[j]       = cont_q[j];
      clr_d[j]        = clr_q[j];
      hv_d[j]         = hv_q[j];
      if (adv0 && m0[j] && (s0_cmd_q == ane_pkg::CmdLoad)) begin
        pos_d[2*j +: 2] = 2'd0;
        cnt_d[2*j +: 2] = 2'd0;
        cont_d[j]       = 1'b1;  // a loaded slot continues a partial sum (N-2.5, N-2.6)
        clr_d[j]        = 1'b0;
        hv_d[j]         = 1'b1;
      end else if (adv0 && m0[j] && (s0_cmd_q == ane_pkg::CmdClear)) begin
        pos_d[2*j +: 2] = 2'd0;
        cnt_d[2*j +: 2] = 2'd0;
        cont_d[j]       = 1'b0;
        clr_d[j]        = 1'b0;
        hv_d[j]         = 1'b0;
      end else if (adv0 && hit[j] && (s0_fp || s0_int)) begin
        pos_d[2*j +: 2] = done[j] ? 2'd0 : bpos + 2'd1;
        cnt_d[2*j +: 2] = ncnt;
        cont_d[j]       = s0_last_q || bcont[j];
        clr_d[j]        = done[j] ? 1'b0 : qclr[j];
        hv_d[j]         = done[j] ? 1'b1 : (s0_first_q ? 1'b0 : hv_q[j]);
      end else if (adv0 && hit[j] && s0_cmp) begin
        if (s0_first_q) begin
          pos_d[2*j +: 2] = 2'd0;
          cnt_d[2*j +: 2] = 2'd0;
          cont_d[j]       = 1'b0;
          clr_d[j]        = 1'b0;
        end
        hv_d[j] = 1'b1;
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      pos_q  <= '0;
      cnt_q  <= '0;
      cont_q <= '0;
      clr_q  <= '0;
      hv_q   <= '0;
    end else begin
      pos_q  <= pos_d;
      cnt_q  <= cnt_d;
      cont_q <= cont_d;
      clr_q  <= clr_d;
      hv_q   <= hv_d;
    end
  end

  // The operation leaving register 0 (a bubble for loads, clears and hazards).
  op_t op0;
  logic [3:0] rot_done, rot_b0, rot_qclr, rot_fh;
  always_comb begin
    // per-slot flags relative to the base slot (int4 uses four, the rest one)
    rot_done = 4'(done >> s0_slot_q);
    rot_b0   = 4'(bp0  >> s0_slot_q);
    rot_qclr = 4'(qclr >> s0_slot_q);
    rot_fh   = 4'(fh   >> s0_slot_q);
    op0      = '0;
    op0.v    = s0_go && s0_mac;
    op0.fp   = s0_fp;
    op0.i8   = s0_i8;
    op0.i4   = s0_i4;
    op0.cmp  = s0_cmp;
    op0.mx   = s0_mode_q == ane_pkg::ModeCmpMax;
    op0.slot = s0_slot_q;
    op0.last = s0_last_q;
    op0.pass = s0_cmp || rot_b0[0];
    op0.pad  = s0_fp && s0_last_q && !(!s0_first_q && (pos_q[2*s0_slot_q +: 2] == 2'd3));
    op0.ceiling = bcont[s0_slot_q] || cnt2[s0_slot_q];
    op0.hv   = !s0_first_q && hv_q[s0_slot_q];
    op0.done = (s0_fp || s0_i8) ? {3'd0, rot_done[0]} : (s0_i4 ? rot_done[3:0] : 4'd0);
    op0.b0   = (s0_fp || s0_i8) ? {3'd0, rot_b0[0]}   : (s0_i4 ? rot_b0[3:0]   : 4'd0);
    op0.qclr = s0_cmp ? {3'd0, s0_first_q}
                      : ((s0_fp || s0_i8) ? {3'd0, rot_qclr[0]} : rot_qclr[3:0]);
    op0.fh   = (s0_fp || s0_i8) ? {3'd0, rot_fh[0]}   : (s0_i4 ? rot_fh[3:0]   : 4'd0);
  end

  // ------------------------------------------------------------------ registers 1..9
  op_t s1_q, s2_q, s3_q, s4_q, s5_q, s6_q, s7_q, s8_q, s9_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      {s1_q, s2_q, s3_q, s4_q, s5_q, s6_q, s7_q, s8_q, s9_q} <= '0;
    end else if (en) begin
      s1_q <= op0;
      s2_q <= s1_q;
      s3_q <= s2_q;
      s4_q <= s3_q;
      s5_q <= s4_q;
      s6_q <= s5_q;
      s7_q <= s6_q;
      s8_q <= s7_q;
      s9_q <= s8_q;
    end
  end

  // ------------------------------------------------------------------ output queue
  assign opush = en && s9_q.v && s9_q.last;
  assign opop  = (ocount_q != 2'd0) && out_ready_i;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      ocount_q <= 2'd0;
      ohead_q  <= 3'd0;
      oskid_q  <= 3'd0;
    end else begin
      ocount_q <= ocount_q + {1'b0, opush} - {1'b0, opop};
      if (opop && (ocount_q == 2'd2)) ohead_q <= oskid_q;
      if (opush && ((ocount_q == 2'd0) || ((ocount_q == 2'd1) && opop))) ohead_q <= s9_q.slot;
      if (opush && (ocount_q == 2'd1) && !opop) oskid_q <= s9_q.slot;
    end
  end
  assign out_valid_o = ocount_q != 2'd0;
  assign out_slot_o  = ohead_q;
  logic unused_s9;
  assign unused_s9 = ^{s9_q.pass, s9_q.pad, s9_q.b0};

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rd_valid_o <= 1'b0;
    end else begin
      rd_valid_o <= rd_en_i;
    end
  end

  // ------------------------------------------------------------------ hazards
  // The slots of an operation in a register: one, or four from the base slot for int4.
  function automatic logic [7:0] slots_of(logic v, logic i4, logic [2:0] slot);
    slots_of = v ? (i4 ? (8'h0F << slot) : (8'h01 << slot)) : 8'h00;
  endfunction
  // The fp pending quads it writes (L5).
  function automatic logic [7:0] wq_of(logic v, logic fp, logic [2:0] slot);
    wq_of = (v && fp) ? (8'h01 << slot) : 8'h00;
  endfunction
  // The accumulators it writes in L10 (fp and compare operations): a completed quad, a
  // compare, a first with its quad pending. Integer operations write theirs in L5.
  function automatic logic [7:0] wa_of(logic v, logic fpc, logic [3:0] done_fh, logic [2:0] slot);
    wa_of = (v && fpc) ? ({4'd0, done_fh} << slot) : 8'h00;
  endfunction

  // The integer results it leaves (read back from the accumulator in L5): its base slot.
  function automatic logic [7:0] ir_of(logic v, logic integer_op, logic last, logic [2:0] slot);
    ir_of = (v && integer_op && last) ? (8'h01 << slot) : 8'h00;
  endfunction

  logic [7:0] near_q, near_a, near_a6, near_r, far;
  logic       rd_q, rd_a;
  always_comb begin
    near_q  = wq_of(s1_q.v, s1_q.fp, s1_q.slot) | wq_of(s2_q.v, s2_q.fp, s2_q.slot) |
              wq_of(s3_q.v, s3_q.fp, s3_q.slot);
    near_a  = wa_of(s1_q.v, s1_q.fp || s1_q.cmp, s1_q.done | s1_q.fh | {3'd0, s1_q.cmp}, s1_q.slot) |
              wa_of(s2_q.v, s2_q.fp || s2_q.cmp, s2_q.done | s2_q.fh | {3'd0, s2_q.cmp}, s2_q.slot) |
              wa_of(s3_q.v, s3_q.fp || s3_q.cmp, s3_q.done | s3_q.fh | {3'd0, s3_q.cmp}, s3_q.slot) |
              wa_of(s4_q.v, s4_q.fp || s4_q.cmp, s4_q.done | s4_q.fh | {3'd0, s4_q.cmp}, s4_q.slot);
    near_a6 = near_a |
              wa_of(s5_q.v, s5_q.fp || s5_q.cmp, s5_q.done | s5_q.fh | {3'd0, s5_q.cmp}, s5_q.slot) |
              wa_of(s6_q.v, s6_q.fp || s6_q.cmp, s6_q.done | s6_q.fh | {3'd0, s6_q.cmp}, s6_q.slot);
    near_r  = ir_of(s1_q.v, s1_q.i8 || s1_q.i4, s1_q.last, s1_q.slot);
    far     = slots_of(s1_q.v, s1_q.i4, s1_q.slot) | slots_of(s2_q.v, s2_q.i4, s2_q.slot) |
              slots_of(s3_q.v, s3_q.i4, s3_q.slot) | slots_of(s4_q.v, s4_q.i4, s4_q.slot) |
              slots_of(s5_q.v, s5_q.i4, s5_q.slot) | slots_of(s6_q.v, s6_q.i4, s6_q.slot) |
              slots_of(s7_q.v, s7_q.i4, s7_q.slot) | slots_of(s8_q.v, s8_q.i4, s8_q.slot) |
              slots_of(s9_q.v, s9_q.i4, s9_q.slot);
    // fp: reads its pending quad unless it starts one; reads the accumulator when its quad
    // completes and does not start the reduction. compare: reads the accumulator unless first.
    rd_q   = s0_fp && !bp0[s0_slot_q];
    rd_a   = (s0_fp && done[s0_slot_q] && !qclr[s0_slot_q]) || (s0_cmp && !s0_first_q);
    hazard = (rd_q && ((near_q & m0) != 8'd0)) || (rd_a && ((near_a & m0) != 8'd0)) ||
             (s0_int && (((near_a6 | near_q | near_r) & m0) != 8'd0)) ||
             (!s0_mac && ((far & m0) != 8'd0));
  end

  // ------------------------------------------------------------------ datapath commands
  // The integer lanes' slot masks for L2 and L3 are decoded a stage early, from register 1.
  logic       s1_int;
  logic [7:0] m2_iwe_q, m2_ib0_q, m2_idone_q, m2_iclr_q, m2_ifh_q;
  logic [7:0] m3_idone_q, m3_ifh_q;
  logic [3:0] m3_ilo_q, m3_ihi_q;  // integer lane l's accumulator source, decoded a stage early
  assign s1_int = s1_q.v && (s1_q.i8 || s1_q.i4);
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      {m2_iwe_q, m2_ib0_q, m2_idone_q, m2_iclr_q, m2_ifh_q} <= '0;
      {m3_idone_q, m3_ifh_q} <= '0;
      {m3_ilo_q, m3_ihi_q} <= '0;
    end else if (en) begin
      m2_iwe_q   <= s1_int ? slots_of(1'b1, s1_q.i4, s1_q.slot) : 8'h00;
      m2_ib0_q   <= {4'd0, s1_q.b0} << s1_q.slot;
      m2_idone_q <= s1_int ? ({4'd0, s1_q.done} << s1_q.slot) : 8'h00;
      m2_iclr_q  <= {4'd0, s1_q.qclr} << s1_q.slot;
      m2_ifh_q   <= s1_int ? ({4'd0, s1_q.fh} << s1_q.slot) : 8'h00;
      m3_idone_q <= m2_idone_q;
      m3_ifh_q   <= m2_ifh_q;
      m3_ilo_q   <= ~m2_iwe_q[7:4] & ~m2_iclr_q[3:0];
      m3_ihi_q   <= m2_iwe_q[7:4] & ~m2_iclr_q[7:4];
    end
  end

  logic s5_int, s6_int, s9_int;
  always_comb begin
    s5_int = s5_q.v && (s5_q.i8 || s5_q.i4);
    s6_int = s6_q.v && (s6_q.i8 || s6_q.i4);
    s9_int = s9_q.v && (s9_q.i8 || s9_q.i4);
    ctl_o = '0;
    ctl_o.s0_load    = in_ready_o;
    ctl_o.l0_ld_we   = (adv0 && !s0_mac) ? (8'h01 << s0_slot_q) : 8'h00;
    ctl_o.l0_ld_zero = s0_cmd_q == ane_pkg::CmdClear;
    ctl_o.l1_slot    = s1_q.slot;
    ctl_o.l1_fwd     = s5_q.v && s5_q.fp && (s5_q.slot == s1_q.slot);
    ctl_o.l2_pass    = s2_q.pass;
    ctl_o.l2_pad     = s2_q.pad;
    ctl_o.l2_int4    = s2_q.i4;
    ctl_o.l2_slot    = s2_q.slot[1:0];
    ctl_o.l2_iwe     = m2_iwe_q;
    ctl_o.l2_ib0     = m2_ib0_q;
    ctl_o.l3_idone   = m3_idone_q;
    ctl_o.l3_ifh     = m3_ifh_q;
    ctl_o.l3_ilo     = m3_ilo_q;
    ctl_o.l3_ihi     = m3_ihi_q;
    ctl_o.l5_slot    = s5_q.slot;
    ctl_o.l5_twe     = wq_of(s5_q.v, s5_q.fp, s5_q.slot);
    ctl_o.l5_pass    = s5_q.pass;
    ctl_o.l5_cmp     = s5_q.cmp;
    ctl_o.l5_int     = s5_int;
    ctl_o.l6_qclr    = s6_q.qclr[0];
    ctl_o.l6_cmp     = s6_q.cmp;
    ctl_o.l6_max     = s6_q.mx;
    ctl_o.l6_hv      = s6_q.hv;
    ctl_o.l6_ceiling = s6_q.ceiling;
    ctl_o.l6_raw     = s6_int;
    ctl_o.l9_slot    = s9_q.slot;
    ctl_o.l9_qclr    = s9_q.qclr[0];
    ctl_o.l9_cmp     = s9_q.cmp;
    ctl_o.l9_max     = s9_q.mx;
    ctl_o.l9_hv      = s9_q.hv;
    ctl_o.l9_ceiling = s9_q.ceiling;
    ctl_o.l9_raw     = s9_int;
    ctl_o.l9_fwe     = (s9_q.v && ((s9_q.fp && s9_q.done[0]) || s9_q.cmp)) ? (8'h01 << s9_q.slot) : 8'h00;
    ctl_o.l9_satclr  = s9_q.qclr[0];
    ctl_o.l9_fh      = (s9_q.v && s9_q.fp && s9_q.fh[0]) ? (8'h01 << s9_q.slot) : 8'h00;
  end

  // The output queue's commands (they follow out_ready_i: kept apart from ctl_o).
  always_comb begin
    oq_o.head_new  = opush && ((ocount_q == 2'd0) || ((ocount_q == 2'd1) && opop));
    oq_o.head_skid = opop && (ocount_q == 2'd2);
    oq_o.skid_new  = opush && (ocount_q == 2'd1) && !opop;
  end

`ifndef SYNTHESIS
  // Immediate assertions, active in every simulation (Verilator --assert).
  always_comb begin
    if (rst_ni && in_valid_i && (in_cmd_i == ane_pkg::CmdMac) && (in_mode_i == ane_pkg::ModeInt4)) begin
      assert(in_slot_i <= 3'd4);  // int4 writes slots slot .. slot + 3
    end
    if (rst_ni && in_valid_i) begin
      assert(in_cmd_i != 2'd3);   // no such command
    end
  end
`endif

endmodule

`default_nettype wire
