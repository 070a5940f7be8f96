// SPDX-License-Identifier: Apache-2.0
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
// A pipeline position has a front (the product and its pending quad: fp quads read in L1 and
// written in L5, integer quads read and written in L2) and a back (the accumulator: read in L5
// (m1) or L9 (m5), written in L9; a result leaves from L9). Every accumulator write of a MAC
// operation happens in L9: fp quads, compares, and integer quads, which enter the fp path in L2
// and are added in the fp32 adder's integer mode. An int4 operation completes up to four quads
// at once: the base slot's uses its own back, slots base + 1..3 use the backs of the three
// positions after it ("extra accumulates", from the datapath's hold register).
//
// Hazards (docs/mac_lane.md, "Timing"): the operation in register 0 waits while
//   - it is fp and continues its quad, and an fp operation on its slot is in registers 1..3
//     (the quad it reads is written in L5; the value written in the same cycle is forwarded);
//   - it is integer, and an fp operation on one of its slots is in registers 1..3 (that fp
//     quad write would land after the integer one);
//   - it reads an accumulator (an fp or integer quad that completes without starting the
//     reduction, a compare without first) and a result write to one of its slots is in registers 1..3
//     (the accumulator is written in L9 and read in L5; the value written in the same cycle is
//     forwarded); an int4 operation reads slot base + i in the position i after its own, so for
//     it a write to base + i counts only in registers 1..3 - i;
//   - it needs the back of its position (fp, compare, an integer operation that completes a
//     quad or starts a reduction with a quad pending) and an int4 operation with extra
//     accumulates is in registers 1..3;
//   - it is CmdLoad / CmdClear (they execute in L0) and the pipeline is not empty (registers 1..9
//     hold an operation or an accumulator write). Loads and clears are rare (a pass that
//     continues partial sums loads its slots before its first product; the core never uses
//     them): a whole drain is cheaper than tracking their slots.
// Everything else (one slot after another, the mappings of the array and the core) streams
// at one operation per cycle.
// An int4 reduction's end gives four results, slots base .. base + 3 in consecutive positions.
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

  // One pipeline position as it travels down registers 1..9.
  typedef struct packed {
    // front: the operation's product and pending quad
    logic       v;        // a CmdMac operation
    logic       fp;       // fp16, int8 x fp16 or fp16 x int8
    logic       i4;       // int4 packed (slots slot .. slot + 3)
    logic       intg;     // int8 or int4
    logic       cmp;      // compare max / min
    logic [2:0] slot;
    logic       pass;     // fp: the product starts its quad; compare: the data passes
    logic       pad;      // fp: the final quad is incomplete, pad with +0
    logic [3:0] b0;       // integer, per slot slot + i: the product starts a quad
    logic       xa;       // int4: extra accumulates in the next three positions ...
    logic [2:0] xdone;    // ... for slot + i (bit i - 1) whose quad completes ...
    logic [2:0] xqclr;    // ... and whether that quad starts the reduction (bit i - 1)
    // (fields are 0-based: Yosys 0.23 reads bit k of a struct field declared [3:1] as the
    // field's k-th bit from its low end, which is the next field's bit)
    // back: the accumulator
    logic       av;       // a result is written to aslot in L9
    logic       aint;     // ... an integer quad (acc = sat32(acc + quad))
    logic       acmp;     // ... a compare (else an fp quad accumulate)
    logic       amx;      // compare: max
    logic       ahv;      // compare: the slot holds a value
    logic       aceil;    // fp: the N-2.6 ceiling applies (K >= 2 or a continuation)
    logic       aqclr;    // the quad starts the reduction: acc reads +0, the flag is cleared
    logic       ahold;    // integer: the quad comes from the hold register (extra accumulate)
    logic       alast;    // the reduction ends: the result leaves
    logic [2:0] aslot;
    logic [3:0] afh;      // per slot aslot + i: a reduction starts with its quad pending: +0
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

  // ------------------------------------------------------------------ the position leaving register 0
  op_t        s1_q, s2_q, s3_q, s4_q, s5_q, s6_q, s7_q, s8_q, s9_q;
  op_t        op0;
  logic [3:0] rot_done, rot_b0, rot_qclr, rot_fh;
  logic       s0_xa;
  always_comb begin
    // per-slot flags relative to the base slot (int4 uses four, the rest one)
    rot_done = 4'(done >> s0_slot_q);
    rot_b0   = 4'(bp0  >> s0_slot_q);
    rot_qclr = 4'(qclr >> s0_slot_q);
    rot_fh   = 4'(fh   >> s0_slot_q);
    s0_xa    = s0_i4 && (rot_done[3:1] != 3'd0);
  end
  always_comb begin
    op0       = '0;
    // front (a bubble for loads, clears and hazards)
    op0.v     = s0_go && s0_mac;
    op0.fp    = s0_fp;
    op0.i4    = s0_i4;
    op0.intg  = s0_int;
    op0.cmp   = s0_cmp;
    op0.slot  = s0_slot_q;
    op0.pass  = s0_cmp || rot_b0[0];
    op0.pad   = s0_fp && s0_last_q && !(!s0_first_q && (pos_q[2*s0_slot_q +: 2] == 2'd3));
    op0.b0    = s0_i4 ? rot_b0 : {3'd0, rot_b0[0]};
    op0.xa    = s0_go && s0_xa;
    op0.xdone = rot_done[3:1];
    op0.xqclr = rot_qclr[3:1];
    // back: an int4 operation's extra accumulate when one is due at this position (no
    // operation that needs the back leaves then), else the operation's own
    if (s1_q.xa || s2_q.xa || s3_q.xa) begin
      op0.ahold = 1'b1;
      op0.aint  = 1'b1;
      // the reduction's end: slot base + i's result leaves i positions after the base slot's
      if (s1_q.xa) begin
        op0.av    = s1_q.xdone[0];
        op0.aqclr = s1_q.xqclr[0];
        op0.alast = s1_q.alast;
        op0.aslot = s1_q.slot + 3'd1;
      end else if (s2_q.xa) begin
        op0.av    = s2_q.xdone[1];
        op0.aqclr = s2_q.xqclr[1];
        op0.alast = s2_q.alast;
        op0.aslot = s2_q.slot + 3'd2;
      end else begin
        op0.av    = s3_q.xdone[2];
        op0.aqclr = s3_q.xqclr[2];
        op0.alast = s3_q.alast;
        op0.aslot = s3_q.slot + 3'd3;
      end
    end else if (s0_go && s0_mac) begin
      op0.av    = s0_cmp || rot_done[0];
      op0.aint  = s0_int;
      op0.acmp  = s0_cmp;
      op0.amx   = s0_mode_q == ane_pkg::ModeCmpMax;
      op0.ahv   = !s0_first_q && hv_q[s0_slot_q];
      op0.aceil = s0_fp && (bcont[s0_slot_q] || cnt2[s0_slot_q]);
      op0.aqclr = s0_cmp ? s0_first_q : rot_qclr[0];
      op0.alast = s0_last_q;
      op0.aslot = s0_slot_q;
      op0.afh   = s0_i4 ? rot_fh : {3'd0, rot_fh[0] && !s0_cmp};
    end
  end

  // ------------------------------------------------------------------ registers 1..9
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
  assign opush = en && s9_q.alast;
  assign opop  = (ocount_q != 2'd0) && out_ready_i;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      ocount_q <= 2'd0;
      ohead_q  <= 3'd0;
      oskid_q  <= 3'd0;
    end else begin
      ocount_q <= ocount_q + {1'b0, opush} - {1'b0, opop};
      if (opop && (ocount_q == 2'd2)) ohead_q <= oskid_q;
      if (opush && ((ocount_q == 2'd0) || ((ocount_q == 2'd1) && opop))) ohead_q <= s9_q.aslot;
      if (opush && (ocount_q == 2'd1) && !opop) oskid_q <= s9_q.aslot;
    end
  end
  assign out_valid_o = ocount_q != 2'd0;
  assign out_slot_o  = ohead_q;
  // (Register 9's front and its int4 extra-accumulate fields are not read; nor register 4..8's
  // fields that only earlier stages use: synthesis drops those flip-flops.)
  logic unused_s9;
  assign unused_s9 = ^{s9_q.fp, s9_q.i4, s9_q.intg, s9_q.cmp, s9_q.slot, s9_q.pass, s9_q.pad, s9_q.b0, s9_q.xa,
                       s9_q.xdone, s9_q.xqclr, s9_q.ahold};

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rd_valid_o <= 1'b0;
    end else begin
      rd_valid_o <= rd_en_i;
    end
  end

  // ------------------------------------------------------------------ hazards
  // Slot tests against the operation in register 0, slots s0 .. s0 + m (m = 3 for int4, else 0;
  // fewer when only some of them matter). A slot t among them:
  function automatic logic in_s0(logic [2:0] t, logic [2:0] s0, logic [1:0] m);
    logic [3:0] d;
    d     = {1'b0, t} - {1'b0, s0};
    in_s0 = !d[3] && (d[2:0] <= {1'b0, m});
  endfunction
  // The accumulator a position writes in L9 with a result, meeting them. (Its +0 writes, a
  // reduction that starts with its quad pending, need no wait: the next read of that slot is
  // the quad's completion, which starts the reduction and reads +0.)
  function automatic logic wr_s0(logic av, logic [2:0] aslot, logic [2:0] s0, logic [1:0] m);
    wr_s0 = av && in_s0(aslot, s0, m);
  endfunction

  logic       rd_q, rd_a, back, near_q, near_a, near_x, far;
  logic [1:0] m4;
  always_comb begin
    // fp: reads its pending quad unless it starts one; fp / integer: reads the accumulator when
    // a quad completes without starting the reduction (integer: on any of its slots); compare:
    // reads it unless first.
    rd_q   = s0_fp && !bp0[s0_slot_q];
    rd_a   = (s0_fp && done[s0_slot_q] && !qclr[s0_slot_q]) || (s0_cmp && !s0_first_q) ||
             (s0_int && ((rot_done & ~rot_qclr & (s0_i4 ? 4'hF : 4'h1)) != 4'd0));
    // needs the back of its position (and, fp and compare, add12's path)
    back   = s0_fp || s0_cmp ||
             (s0_int && (((rot_done | rot_fh) & (s0_i4 ? 4'hF : 4'h1)) != 4'd0));
    // fp quad writes on its slots in registers 1..3 (L5 writes, L1 / L2 read or write)
    m4     = s0_i4 ? 2'd3 : 2'd0;
    near_q = (s1_q.v && s1_q.fp && in_s0(s1_q.slot, s0_slot_q, m4)) ||
             (s2_q.v && s2_q.fp && in_s0(s2_q.slot, s0_slot_q, m4)) ||
             (s3_q.v && s3_q.fp && in_s0(s3_q.slot, s0_slot_q, m4));
    // result writes on its slots in registers 1..3 (L9 writes, L5 reads; an int4 operation
    // reads slot s0 + i in its position + i, so a write i positions closer is early enough)
    near_a = wr_s0(s1_q.av, s1_q.aslot, s0_slot_q, s0_i4 ? 2'd2 : 2'd0) ||
             wr_s0(s2_q.av, s2_q.aslot, s0_slot_q, s0_i4 ? 2'd1 : 2'd0) ||
             wr_s0(s3_q.av, s3_q.aslot, s0_slot_q, 2'd0);
    near_x = s1_q.xa || s2_q.xa || s3_q.xa;
    far    = s1_q.v || s1_q.av || s2_q.v || s2_q.av || s3_q.v || s3_q.av || s4_q.v || s4_q.av ||
             s5_q.v || s5_q.av || s6_q.v || s6_q.av || s7_q.v || s7_q.av || s8_q.v || s8_q.av ||
             s9_q.v || s9_q.av;  // (a position's +0 writes come with its operation)
    hazard = ((rd_q || s0_int) && near_q) || (rd_a && near_a) || (back && near_x) ||
             (!s0_mac && far);
  end

  // ------------------------------------------------------------------ datapath commands
  // The integer lanes' slot masks for L2 are decoded a stage early, from register 1.
  logic [7:0] m2_iwe_q, m2_ib0_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      {m2_iwe_q, m2_ib0_q} <= '0;
    end else if (en) begin
      m2_iwe_q <= (s1_q.v && s1_q.intg) ? ((s1_q.i4 ? 8'h0F : 8'h01) << s1_q.slot) : 8'h00;
      m2_ib0_q <= {4'd0, s1_q.b0} << s1_q.slot;
    end
  end

  logic [7:0] l9_fwe, l9_fh;
  always_comb begin
    l9_fwe = s9_q.av ? (8'h01 << s9_q.aslot) : 8'h00;
    l9_fh  = {4'd0, s9_q.afh} << s9_q.aslot;
    ctl_o = '0;
    ctl_o.s0_load     = in_ready_o;
    ctl_o.l0_ld_we    = (adv0 && !s0_mac) ? (8'h01 << s0_slot_q) : 8'h00;
    ctl_o.l0_ld_zero  = s0_cmd_q == ane_pkg::CmdClear;
    ctl_o.l1_slot     = s1_q.slot;
    ctl_o.l1_fwd      = s5_q.v && s5_q.fp && (s5_q.slot == s1_q.slot);
    ctl_o.l1_int4     = s1_q.i4;
    ctl_o.l2_pass     = s2_q.pass;
    ctl_o.l2_pad      = s2_q.pad;
    ctl_o.l2_int4     = s2_q.i4;
    ctl_o.l2_iwe      = m2_iwe_q;
    ctl_o.l2_ib0      = m2_ib0_q;
    ctl_o.l2_inj      = s2_q.av && s2_q.aint;
    ctl_o.l2_inj_lsel = (s2_q.av && s2_q.aint && !s2_q.ahold) ? (4'h1 << s2_q.aslot[1:0]) : 4'h0;
    ctl_o.l2_inj_hsel = (s2_q.av && s2_q.aint && s2_q.ahold) ? (4'h1 << s2_q.aslot[1:0]) : 4'h0;
    ctl_o.l2_hold_ld  = s2_q.xa;
    ctl_o.l5_slot     = s5_q.aslot;
    ctl_o.l5_fwd      = l9_fwe[s5_q.aslot];
    ctl_o.l5_twe      = (s5_q.v && s5_q.fp) ? (8'h01 << s5_q.slot) : 8'h00;
    ctl_o.l5_pass     = s5_q.pass;
    ctl_o.l5_cmp      = s5_q.cmp;
    ctl_o.l5_iacc     = s5_q.av && s5_q.aint;
    ctl_o.l6_qclr     = s6_q.aqclr;
    ctl_o.l6_cmp      = s6_q.acmp;
    ctl_o.l6_max      = s6_q.amx;
    ctl_o.l6_hv       = s6_q.ahv;
    ctl_o.l6_ceiling  = s6_q.aceil;
    ctl_o.l6_int      = s6_q.aint;
    ctl_o.l9_slot     = s9_q.aslot;
    ctl_o.l9_qclr     = s9_q.aqclr;
    ctl_o.l9_cmp      = s9_q.acmp;
    ctl_o.l9_max      = s9_q.amx;
    ctl_o.l9_hv       = s9_q.ahv;
    ctl_o.l9_ceiling  = s9_q.aceil;
    ctl_o.l9_int      = s9_q.aint;
    ctl_o.l9_fwe      = l9_fwe;
    ctl_o.l9_satclr   = s9_q.aqclr;
    ctl_o.l9_fh       = l9_fh;
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
